"""Read the evening back from the box's match store: every match (game, start and end,
sides with their members, winner), each round's board or roll with every side's words,
their rulings and points, and the standings over the matches (played, won, points).

The store is the one every command and the box use (``cuberef doctor`` names it);
``--config`` reads another box's. ``--since YYYY-MM-DD`` lists the matches begun that day
or later. ``--json`` prints ``{"matches": [{"id", "game", "started", "ended", "winner",
"sides": [{"name", "members", "score"}], "rounds": [{"round", "board" or "roll",
"sides": [{"name", "score", "words": [{"word", "status", "points"}]}]}]}],
"standings": [{"name", "played", "won", "points"}]}``; ``--csv`` one row a side a round.
The store is only read."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the box's TOML configuration")
    parser.add_argument(
        "--since", metavar="YYYY-MM-DD", help="only the matches begun that day or later"
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="one JSON document on stdout")
    shown.add_argument("--csv", action="store_true", help="CSV: one row a side a round")


def run(args: argparse.Namespace) -> int:
    from device.config.service import box_settings
    from device.config.settings import state_folder
    from device.referee import history, history_formats
    from device.store.store import Store

    since = history_formats.since_date(args.since) if args.since is not None else 0.0
    chosen = box_settings(args.config)
    folder = state_folder(chosen)
    matches: list[history.PastMatch] = []
    if (folder / "matches.db").exists():
        store = Store(folder, read_only=True)  # only looks: no folder, no file made
        try:
            matches = history.read_matches(store, chosen, since)
        finally:
            store.close()
    if args.json:
        from device.commands.output import emit_json

        emit_json(history_formats.document(matches))
    elif args.csv:
        sys.stdout.write(history_formats.csv_text(matches))
    else:
        print(f"Store: {folder / 'matches.db'}")
        print("\n".join(history_formats.text_lines(matches)))
    return 0
