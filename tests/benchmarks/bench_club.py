"""A club's event under load: 50 tables' boxes publishing their state at 2 Hz through the
director's own mosquitto, for 30 s.

    python tests/benchmarks/bench_club.py [--tables 50] [--hz 2] [--seconds 30]

The boxes' reporters run in a child process; this process is the director (subscribed
to every table, its store and its scoreboard as ``cuberef club serve`` runs them). Prints
the director's lag (from a box's publish to the director's hands: median and p99), the
messages it took, and the CPU the director and mosquitto each used over the run.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

from device.club import broker, credentials
from device.club.event import parse
from device.club.outbox import Outbox
from device.club.reporter import Club, Reporter
from device.club.serve import serving


def boxes(folder: str, event: str, port: int, tables: int, hz: float, seconds: float) -> None:
    """Every table's reporter, each publishing a new clock ``hz`` times a second."""
    reporters = []
    for n in range(1, tables + 1):
        secret = credentials.read_secret(credentials.secret_path(Path(folder), f"table-{n}"))
        box = Path(folder) / "boxes" / str(n)
        box.mkdir(parents=True, exist_ok=True)
        club = Club(f"mqtt://127.0.0.1:{port}", event, n, secret)
        reporters.append(Reporter(club, Outbox(box / "matches.db")))
    for reporter in reporters:
        reporter.start()
    while not all(r.connected.is_set() for r in reporters):
        time.sleep(0.05)
    began, tick = time.monotonic(), 0
    players = ["Ann", "Ben", "Cy", "Dee"]
    while time.monotonic() - began < seconds:
        for n, reporter in enumerate(reporters):
            clock = 180 - tick / hz
            scores = {p: (tick + n + i) % 40 for i, p in enumerate(players)}
            reporter.state(
                {"phase": "playing", "clock": clock, "players": players, "scores": scores}
            )
        tick += 1
        time.sleep(max(0.0, began + tick / hz - time.monotonic()))
    for reporter in reporters:
        reporter.stop()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, in clock ticks


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--tables", type=int, default=50)
    options.add_argument("--hz", type=float, default=2.0)
    options.add_argument("--seconds", type=float, default=30.0)
    args = options.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuberef-bench-club-") as folder:
        players = [f"P{n}" for n in range(args.tables * 4)]
        raw = {
            "event": "bench",
            "players": players,
            "port": broker.free_port(),
            "bind": "127.0.0.1",
        }
        event = parse(raw, Path(folder))
        credentials.make_tables(event.folder, args.tables)
        with serving(event, 0, "127.0.0.1") as running:
            while not running.director.connected.is_set():
                time.sleep(0.05)
            child = multiprocessing.get_context("spawn").Process(
                target=boxes,
                args=(
                    str(event.folder),
                    event.name,
                    event.port,
                    args.tables,
                    args.hz,
                    args.seconds,
                ),
            )
            child.start()
            while len(running.director.lags) < args.tables:  # every box connected and sending
                time.sleep(0.05)
            running.director.lags.clear()
            assert running.mosquitto is not None and running.mosquitto.process is not None
            broker_pid = running.mosquitto.process.pid
            cpu, broker_cpu, wall = time.process_time(), cpu_seconds(broker_pid), time.monotonic()
            child.join()
            wall = time.monotonic() - wall
            cpu, broker_cpu = time.process_time() - cpu, cpu_seconds(broker_pid) - broker_cpu
            lags = sorted(running.director.lags)
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
    print(f"{args.tables} tables at {args.hz:g} Hz for {wall:.1f} s: {len(lags)} states taken")
    print(
        f"director lag: median {statistics.median(lags) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"most {lags[-1] * 1000:.1f} ms"
    )
    mine, theirs = cpu / wall * 100, broker_cpu / wall * 100
    print(f"director CPU: {mine:.1f}% of one core; mosquitto: {theirs:.1f}%")


if __name__ == "__main__":
    main()
