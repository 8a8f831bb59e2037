"""Read the evening back from the box's match store: every match (game, start and end,
sides with their members, winner), each round's board or roll with every side's words,
who typed them, their rulings and points, and the standings over the matches (a row a
player: played, won, points; and the teams that kept their members).

The store is the one every command and the box use (``cuberef doctor`` names it);
``--config`` reads another box's. ``--since`` (any ISO 8601 date, or date and time) lists
the matches begun then or later; where none is, the plain text says how many the store
holds and the day the last began. The plain text is in the box's language. ``--json``
prints ``{"matches": [{"id", "game", "started", "ended", "winner", "sides": [{"name",
"members", "score"}], "rounds": [{"round", "screen_round", "board" or "roll", "sides":
[{"name", "score", "words": [{"word", "status", "points", "by", "counted",
"by_table"}]}]}]}], "standings": [{"name", "played", "won", "points"}], "teams": [{...,
"members"}]}``; an Ad-Lib side also has ``"grid"``, ``"unused": [{"face", "points"}]`` and
``"errors"``. ``--csv`` one row a side a round. The store is only read."""

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
    from device.base.strings import say
    from device.config.service import box_settings
    from device.config.settings import state_folder
    from device.referee import history, history_formats
    from device.store.store import Store

    since = history_formats.since_date(args.since) if args.since is not None else 0.0
    chosen = box_settings(args.config)
    folder = state_folder(chosen)
    matches: list[history.PastMatch] = []
    stored, last = 0, None
    if (folder / "matches.db").exists():
        store = Store(folder, read_only=True)  # only looks: no folder, no file made
        try:
            matches = history.read_matches(store, chosen, since)
            if not matches:
                stored, last = history.stored_matches(store)
        finally:
            store.close()
    if args.json:
        from device.commands.output import emit_json

        emit_json(history_formats.document(matches))
    elif args.csv:
        sys.stdout.write(history_formats.csv_text(matches))
    else:
        language = chosen.language
        print(say("history-store", language, path=folder / "matches.db"))
        if matches:
            print("\n".join(history_formats.text_lines(matches, language)))
        else:
            print(history_formats.nothing_since(args.since or "", stored, last, language))
    return 0
