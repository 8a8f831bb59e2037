"""What the next press does, in the box's language: the line the referee shows under a
screen that waits for the button."""

from __future__ import annotations

from typing import TYPE_CHECKING

from device.base.strings import names_and, say

if TYPE_CHECKING:
    from device.referee.matchplay import BoxMatch
    from engine.games import Game


def prompt(match: BoxMatch, game: Game, language: str = "en") -> str:
    """What the next press does: for Ad-Lib, who rolls (one cube for who starts, or the
    cubes for a turn) and who follows; after a match, that a press begins the next."""
    if match.ended:
        return say("press-new-match", language)  # who won: the match table says it
    holder = match.holder
    if game.is_tray or not holder:
        return say("press-next-round" if match.rounds else "press-read-roll", language)
    many = "many" if match.plural(holder) else "one"
    if match.needs_starter:
        assert match.start_roll is not None
        tied = match.start_roll.tied
        if tied:
            return say("tied-again", language, names=names_and(tied, language), holder=holder)
        return say("who-starts", language, holder=holder)
    if not match.rounds:
        return say(f"starts-{many}", language, holder=holder)
    following = match.following
    then = say("then", language, player=following) if following and following != holder else ""
    return say(f"rolls-next-{many}", language, holder=holder, then=then)
