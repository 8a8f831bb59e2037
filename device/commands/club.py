"""A club's tables as one event, run by the director from ``club.toml`` (``--config``,
``club.toml`` in this folder by default).

``tables N`` makes each table's credentials (kept in the event's folder) and prints them,
with the ``[club]`` section each box's TOML needs and its secret as a QR code.
``pair`` seats the next round by the event's pairing, keeps it, and publishes each table's
seating where the broker can be reached (``--force``: before every table has reported).
``standings`` prints the rounds' seatings and the standings: wins, then points, then
spread; ``--json`` prints ``{"event", "rounds": [{"round", "tables": [{"table",
"players"}]}], "standings": [{"name", "played", "won", "points", "spread"}]}``, ``--csv``
one row a player. ``serve`` runs the event: the broker (its own mosquitto unless
``club.toml`` names one), every result kept once, and the scoreboard page."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from engine.errors import CuberefError

if TYPE_CHECKING:
    from device.club.event import Event


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    tables = actions.add_parser("tables", help="make and print each table's credentials")
    tables.add_argument("count", metavar="N", type=int, help="how many tables")
    tables.add_argument("--no-qr", action="store_true", help="the text without QR codes")
    pair = actions.add_parser("pair", help="seat the next round and publish its seating")
    pair.add_argument("--force", action="store_true", help="pair before every table reported")
    pair.add_argument("--json", action="store_true", help='{"round", "tables", "byes"}')
    standing = actions.add_parser("standings", help="the seatings and the standings")
    shown = standing.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="one JSON document on stdout")
    shown.add_argument("--csv", action="store_true", help="CSV: one row a player")
    serve = actions.add_parser("serve", help="run the event: broker, results, scoreboard")
    serve.add_argument(
        "--page-port", type=int, default=8088, help="the scoreboard's port (default: 8088)"
    )
    for action in (tables, pair, standing, serve):
        action.add_argument(
            "--config", metavar="FILE", default="club.toml", help="the event (default: club.toml)"
        )


def run(args: argparse.Namespace) -> int:
    from device.club import event

    chosen = event.load(args.config)
    if args.action == "tables":
        return _tables(chosen, args.count, not args.no_qr)
    if args.action == "pair":
        return _pair(chosen, args.force, args.json)
    if args.action == "serve":
        from device.club.serve import serve_until_stopped

        serve_until_stopped(chosen, args.page_port)
        return 0
    return _standings(chosen, args.json, args.csv)


def _tables(chosen: Event, count: int, qr: bool) -> int:
    import socket

    import segno

    from device.club import credentials

    broker = chosen.broker or f"mqtt://{socket.gethostname()}:{chosen.port}"
    made = credentials.make_tables(chosen.folder, count)
    print(f"Event {chosen.name}: {count} tables; credentials in {chosen.folder / 'credentials'}")
    for number, account in enumerate(made[:-1], 1):
        print(f"\nTable {number}: user {account.user}, secret {account.secret}")
        print("  the box's TOML:")
        print(f'    [club]\n    broker = "{broker}"\n    event = "{chosen.name}"')
        print(f'    table = {number}\n    secret_file = "/etc/cuberef/club.secret"')
        print("  and /etc/cuberef/club.secret holds the secret (the QR code below).")
        if qr:
            segno.make(account.secret, error="m").terminal(out=sys.stdout, compact=True)
    return 0


def _pair(chosen: Event, force: bool, as_json: bool) -> int:
    from device.club import credentials, director, rounds
    from device.club.ledger import Ledger

    credentials.director(chosen.folder)  # no round is seated for tables not yet made
    ledger = Ledger(chosen.folder)
    try:
        seating = rounds.next_seating(chosen, ledger, force)
    finally:
        ledger.close()
    published = director.publish_seating(chosen, seating)
    if as_json:
        from device.commands.output import emit_json

        tables = [{"table": n, "players": list(p)} for n, p in enumerate(seating.tables, 1)]
        emit_json({"round": seating.round, "tables": tables, "byes": list(seating.byes)})
        return 0
    for number, players in enumerate(seating.tables, 1):
        print(rounds.seating_line(number, seating.round, players))
    if seating.byes:
        print(f"Byes: {', '.join(seating.byes)}")
    if not published:
        print(
            "The broker was not reached; cuberef club serve publishes the seating when it starts."
        )
    return 0


def _standings(chosen: Event, as_json: bool, as_csv: bool) -> int:
    from device.club import rounds
    from device.club.ledger import Ledger

    if not (chosen.folder / "club.db").exists():
        raise CuberefError(f"The event {chosen.name} has no rounds yet ({chosen.folder}).")
    ledger = Ledger(chosen.folder)
    try:
        document = rounds.document(chosen, ledger)
    finally:
        ledger.close()
    if as_json:
        from device.commands.output import emit_json

        emit_json(document)
    elif as_csv:
        sys.stdout.write(rounds.csv_text(document))
    else:
        print("\n".join(rounds.text_lines(document)))
    return 0
