"""The box's words: what the next press does, counts with their nouns, who won, and how a
word on a list is ruled, in English and (for the phones of a Czech game) in Czech.

Every screen and every phone takes its words from here, so the box and the phones say
the same thing the same way.

>>> count(1, "word"), count(0, "word"), count(3, "round")
('1 word', '0 words', '3 rounds')
>>> winners_line(("Ann",)), winners_line(("Ann", "Ben"))
('Winner: Ann', 'A draw: Ann and Ben')
>>> status_words("not-on-board"), status_words("not-on-board", "cs")
('not on tray', 'není na kostkách')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from device.matchplay import BoxMatch
    from engine.games import Game

#: How a word on a player's list is ruled, by the engine's status, in each language the
#: phones speak ("" for a word that counts: its points are shown instead).
STATUS: dict[str, dict[str, str]] = {
    "en": {
        "valid": "ok",
        "scored": "",
        "crossed-off": "crossed off",
        "not-on-board": "not on tray",
        "not-a-word": "not a word",
        "too-short": "too short",
        "repeated": "repeated",
    },
    "cs": {
        "valid": "platí",
        "scored": "",
        "crossed-off": "škrtnuto",
        "not-on-board": "není na kostkách",
        "not-a-word": "není slovo",
        "too-short": "příliš krátké",
        "repeated": "opakované",
    },
}

#: The language the phones speak for a game's lexicon's language.
LANGUAGES = ("en", "cs")


def status_words(status: str, language: str = "en") -> str:
    return STATUS.get(language, STATUS["en"]).get(status, status.replace("-", " "))


def count(number: int, noun: str) -> str:
    """``number`` and ``noun``, plural unless it is one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def names_and(names: Sequence[str]) -> str:
    """The names as a sentence says them.

    >>> names_and(["Ann", "Ben", "Cy"])
    'Ann, Ben and Cy'
    """
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def winners_line(winners: Sequence[str]) -> str:
    return f"Winner: {winners[0]}" if len(winners) == 1 else f"A draw: {names_and(winners)}"


def progress(played: int, agreed: int, target: int) -> str:
    """How far the match has come: ``2 of 3 rounds played; target 200``."""
    rounds = f"{played} of {count(agreed, 'round')}" if agreed else count(played, "round")
    return f"{rounds} played" + (f"; target {target}" if target else "")


def unpartnered_line(player: str) -> str:
    """Who plays without a partner (Ad-Lib partners, an odd number of players), said
    before the match: no one is paired silently.

    >>> unpartnered_line("Ben")
    'Ben has no partner and plays as a side of one.'
    """
    return f"{player} has no partner and plays as a side of one."


def disputed_prompt(judge: str) -> str:
    """How the table rules on a challenged word.

    >>> disputed_prompt("Cy")
    'Tap: allow it. Hold: refuse it. Or Cy, the judge, rules on their phone.'
    """
    judged = f" Or {judge}, the judge, rules on their phone." if judge else ""
    return f"Tap: allow it. Hold: refuse it.{judged}"


def prompt(match: BoxMatch, game: Game) -> str:
    """What the next press does: for Ad-Lib, who rolls (one cube for who starts, or the
    cubes for a turn) and who follows; after a match, that a press begins the next."""
    if match.ended:
        return "Press the button for a new match."  # who won: the match table says it
    holder = match.holder
    if game.is_tray or not holder:
        if match.rounds:
            return "Press the button for the next round."
        return "Press the button to read the roll."
    roll, start = ("roll", "start") if match.plural(holder) else ("rolls", "starts")
    if match.needs_starter:
        assert match.start_roll is not None
        tied = match.start_roll.tied
        if tied:
            return f"{names_and(tied)} tied: {holder}, roll one cube again and press."
        return f"Who starts: {holder}, roll one cube and press."
    if not match.rounds:
        return f"{holder} {start}: roll all the cubes and press."
    following = match.following
    then = f", then {following}" if following and following != holder else ""
    return f"{holder} {roll} next{then}: press the button."


def resumed(resume: str | None, ended: bool, said: str, next_press: str) -> str:
    """What the screen says once a restarted box is back where the match stopped
    (``resume``: the flow's resume-* event, None for idle; ``said``: what the steps said)."""
    if resume == "resume-scored":
        return "Press the button for the match table."
    if resume == "resume-timing":
        return "Round resumed after a restart."
    if resume in ("resume-time-up", "resume-starter") or ended:
        return said
    return f"Match resumed. {next_press}"
