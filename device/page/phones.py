"""The players' page's side of the box (``device.page.page.Front``): which phone is which
player, what a phone may do, and what it shows.

A phone is known by its token: the box hands one out when a phone first joins and keeps
only its hash at the table (``device.referee.table``), so a phone that comes back with its
token (a reload, a restart of the box) is the same player, and a token the box never
gave out proves nothing.
"""

from __future__ import annotations

from typing import Any

from device.base.strings import say, translated
from device.base.wording import verdict
from device.page.page import Refusal
from device.page.results import between_matches, phone_state, ruled
from device.referee.referee import Referee
from device.referee.table import make_token, phone_of
from engine.errors import RuleError


class Phones:
    def __init__(self, referee: Referee) -> None:
        self.referee = referee

    @property
    def join_code(self) -> str:
        return self.referee.join_code

    @property
    def language(self) -> str:
        return language_of(self.referee)

    def join(self, name: str, team: str, token: str) -> tuple[str, str]:
        """A player sits down at the table on this phone (``device.referee.table`` has the rules);
        ``RuleError`` says why not."""
        referee = self.referee
        if not referee.game.is_tray:
            raise RuleError(say("lists-only", game=referee.game.title))
        seated = referee.seated  # a club's table: its seats are the director's
        if seated and " ".join(name.split()).casefold() not in {s.casefold() for s in seated}:
            raise RuleError(say("not-seated", name=name, names=", ".join(seated)))
        known = token and referee.table.name_of(phone_of(token)) is not None
        token = token if known else make_token()
        with referee.lock:
            between = between_matches(referee)
            seat = referee.table.join(name, team, phone_of(token), between_matches=between)
        referee.on_change(referee)
        return token, seat.name

    def player(self, token: str) -> str:
        name = self.referee.table.name_of(phone_of(token)) if token else None
        if name is None:
            raise Refusal(401, say("not-joined"))
        return name

    def leave(self, token: str) -> None:
        """The player leaves the table: they play no match after the one under way."""
        name, referee = self.player(token), self.referee
        with referee.lock:
            referee.table.leave(name)
        referee.on_change(referee)

    def hand_in(self, token: str, word: str, remove: bool) -> dict[str, Any]:
        name = self.player(token)
        desk = self.referee.desk
        if desk is None:
            raise Refusal(409, say("no-round"))
        if remove:
            desk.remove(name, word)
            return {"removed": word}
        typed = desk.add(name, word)
        return ruled(typed, self.language)

    def state(self, token: str) -> dict[str, Any]:
        return phone_state(self.referee, self.player(token), self.language)

    def dispute(self, token: str, word: str, allow: object) -> dict[str, Any]:
        """The player challenges a word (``allow`` None), or as the judge rules on the word
        on the screen (``device.referee.disputes`` has the rules)."""
        name, referee = self.player(token), self.referee
        if allow is not None and not isinstance(allow, bool):
            raise Refusal(400, say("say-allowed"))
        with referee.lock:
            if allow is not None:
                referee.disputes.judged(name, referee.state, word, allow, referee.retakable)
                return {}
            found = referee.disputes.challenge(referee.round, referee.state, name, word)
        referee.on_change(referee)
        shown = {"verdict": verdict(found.dispute, self.language)}
        shown["definition"] = translated(found.dispute.definition, self.language)
        return {"dispute": {**found.to_json(), **shown}}

    def history(self, token: str) -> dict[str, Any]:
        """The evening since the box started, as ``cuberef history --json`` prints it."""
        from device.referee.history import read_matches
        from device.referee.history_formats import document

        self.player(token)  # a phone that has joined
        referee = self.referee
        store = referee.record.source
        if store is None:
            return document([])
        return document(read_matches(store, referee.settings, referee.evening_since))


def language_of(referee: Referee) -> str:
    """The phones' language: the box's (``[box] language``, by default the game's)."""
    return referee.language
