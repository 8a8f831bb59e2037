"""The box's words: counts with their nouns, who won, and how a word on a list is ruled,
in the box's language (``device.base.strings`` holds every message).

Every screen and every phone takes its words from here, so the box and the phones say
the same thing the same way.

>>> count(1, "word"), count(0, "word"), count(3, "round")
('1 word', '0 words', '3 rounds')
>>> winners_line(("Ann",)), winners_line(("Ann", "Ben"))
('Winner: Ann', 'A draw: Ann and Ben')
>>> status_words("not-on-board"), status_words("not-on-board", "cs")
('not on tray', 'není na kostkách')
>>> count(5, "word", "cs"), winners_line(("Ann", "Ben"), "cs")
('5 slov', 'Remíza: Ann a Ben')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from device.base.strings import names_and, plural, say, table, translated

if TYPE_CHECKING:
    from engine.referee import Dispute

__all__ = [
    "count",
    "names_and",
    "progress",
    "status_words",
    "verdict",
    "winners_line",
]


def status_words(status: str, language: str = "en") -> str:
    """How a word on a list is ruled, by the engine's status ("" for a word that counts:
    its points are shown instead)."""
    if status == "scored":
        return ""
    key = f"status-{status}"
    return say(key, language) if key in table() else status.replace("-", " ")


def verdict(dispute: Dispute, language: str = "en") -> str:
    """What the word list says of a challenged word, in one line for the screen and the
    phone, in ``language``.

    >>> from engine.referee import Dispute
    >>> why = "not a word: GONNA is slang, which the rulebook does not allow"
    >>> gonna = Dispute("gonna", False, why, "")
    >>> verdict(gonna), verdict(gonna, "cs")
    ('GONNA is slang, which the rulebook does not allow', 'GONNA je slang, což pravidla nedovolují')
    """
    if language == "en":
        return dispute.verdict
    if not dispute.counts:  # the reason without its "not a word: ", as the verdict says it
        return translated(dispute.reason, language).removeprefix(say("no-word", language))
    why = translated(dispute.reason, language) if dispute.reason else say("in-word-list", language)
    return say("counts", language, word=dispute.word.upper(), why=why)


def count(number: int, noun: str, language: str = "en") -> str:
    """``number`` and ``noun`` (word, round, point, letter), in the form the number takes."""
    return plural(f"n-{noun}s", number, language)


def winners_line(winners: Sequence[str], language: str = "en") -> str:
    if len(winners) == 1:
        return say("winner", language, name=winners[0])
    return say("draw", language, names=names_and(winners, language))


def progress(played: int, agreed: int, target: int, language: str = "en") -> str:
    """How far the match has come: ``2 of 3 rounds played; target 200``."""
    if agreed:
        rounds = count(agreed, "round", language)
        said = say("played-of", language, played=played, rounds=rounds, agreed=agreed)
    else:
        said = say("played", language, played=played, rounds=count(played, "round", language))
    return say("target", language, progress=said, target=target) if target else said


def unpartnered_line(player: str, language: str = "en") -> str:
    """Who plays without a partner (Ad-Lib partners, an odd number of players), said
    before the match: no one is paired silently.

    >>> unpartnered_line("Ben")
    'Ben has no partner and plays as a side of one.'
    """
    return say("no-partner", language, name=player)


def disputed_prompt(judge: str, language: str = "en") -> str:
    """How the table rules on a challenged word.

    >>> disputed_prompt("Cy")
    'Tap: allow it. Hold: refuse it. Or Cy, the judge, rules on their phone.'
    """
    asked = say("disputed", language)
    return say("judge-rules", language, prompt=asked, judge=judge) if judge else asked


def resumed(
    resume: str | None, ended: bool, said: str, next_press: str, language: str = "en"
) -> str:
    """What the screen says once a restarted box is back where the match stopped
    (``resume``: the flow's resume-* event, None for idle; ``said``: what the steps said)."""
    if resume == "resume-scored":
        return say("press-for-table", language)
    if resume == "resume-timing":
        return say("round-resumed", language)
    if resume in ("resume-time-up", "resume-starter") or ended:
        return said
    return say("match-resumed", language, next=next_press)
