"""How long a `cuberef` command takes as a whole process, and its peak memory, beside
Python itself doing nothing in the same run (issue 21: `cuberef solve --game big-boggle
--board ...` under 90 ms and 25 MiB, `cuberef --help` under 60 ms).

Run: ``python tests/benchmarks/bench_startup.py [--runs N] [--json]`` (the venv's Python,
so that the `cuberef` script beside it is the one timed). The commands take turns, run
after run, so a busy machine slows each alike; the figures are medians. The box is a
Pi 4, about four times slower than this machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from device.commands.bench import process_costs, startup_commands  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="runs of each command (default 30)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    commands = startup_commands()
    costs = process_costs({name: command for name, (command, _) in commands.items()}, args.runs)
    floor_ms, floor_mib = costs["python -c pass"]
    rows = [
        {
            "command": name,
            "median_ms": round(took, 1),
            "over_python_ms": round(took - floor_ms, 1),
            "peak_mib": round(peak, 1),
            "over_python_mib": round(peak - floor_mib, 1),
            "target_ms": commands[name][1],
            "runs": args.runs,
        }
        for name, (took, peak) in costs.items()
    ]
    if args.json:
        json.dump({"startup": rows}, sys.stdout, indent=2)
        print()
        return
    print(f"{'whole process':<36} {'median':>9} {'over python':>12} {'peak':>9}  target")
    for row in rows:
        target = f"< {row['target_ms']} ms" if row["target_ms"] else ""
        print(
            f"{row['command']:<36} {row['median_ms']:6.1f} ms {row['over_python_ms']:+9.1f} ms "
            f"{row['peak_mib']:5.1f} MiB  {target}"
        )
    print(f"medians of {args.runs} runs each; peak = the largest resident memory of the process")


if __name__ == "__main__":
    main()
