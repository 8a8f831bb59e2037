"""The players' page's side of the box (``device.page.Front``): which phone is which
player, what a phone may do, and what it shows.

A phone is known by its token: the box hands one out when a phone first joins and keeps
only its hash at the table (``device.table``), so a phone that comes back with its
token (a reload, a restart of the box) is the same player, and a token the box never
gave out proves nothing.
"""

from __future__ import annotations

from typing import Any

from device.page import Refusal
from device.referee import Referee
from device.results import phone_state
from device.table import make_token, phone_of
from device.wording import status_words


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
        known = token and self.referee.table.name_of(phone_of(token)) is not None
        token = token if known else make_token()
        seat = self.referee.join(name, team, phone_of(token))
        return token, seat.name

    def player(self, token: str) -> str:
        name = self.referee.table.name_of(phone_of(token)) if token else None
        if name is None:
            raise Refusal(401, "This phone has not joined; join again.")
        return name

    def leave(self, token: str) -> None:
        self.referee.leave(self.player(token))

    def hand_in(self, token: str, word: str, remove: bool) -> dict[str, Any]:
        name = self.player(token)
        desk = self.referee.desk
        if desk is None:
            raise Refusal(409, "No round is running: wait for the timer.")
        if remove:
            desk.remove(name, word)
            return {"removed": word}
        typed = desk.add(name, word)
        ruling = typed.ruling
        language = self.language
        return {
            "word": typed.word,
            "status": ruling.status,
            "said": status_words(ruling.status, language),
            "why": ruling.reason if language == "en" else "",
            "counted": [s for s in ruling.spellings if s != typed.word],
        }

    def state(self, token: str) -> dict[str, Any]:
        return phone_state(self.referee, self.player(token), self.language)


def language_of(referee: Referee) -> str:
    """The phones' language: the game's words' (Czech for Czech Boggle), else English."""
    return "cs" if referee.game.lexicon == "cs" else "en"
