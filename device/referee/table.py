"""Who plays at the box with a list (on a phone, or on the box's keyboard), from one match
to the next, and the join code their phones use.

Every rule of joining is here: a player joins between matches, never during one, and
twelve at most (``MAX_PLAYERS``); a name is one player's, so a name in use is refused
unless the same phone asks again (a reload, a restart of the box) or the keyboard's
player is meant; the players and their teams stay at the table for the next match until
they leave. The players the settings name sit at the table from the start, in their
seats: the first phone to join with such a name takes that seat (during a match too,
since the player is in it). A phone is known by the SHA-256 of the token the box gave it, which the
store keeps, so after a restart the same phones are still in, and no token is stored.

>>> table = Table("ABCD", PlayerJoined("Dee", keyboard=True))
>>> ann = table.join("Ann", "", phone_of("ann's token"), between_matches=True)
>>> table.join("Ann", "", phone_of("someone else"), between_matches=True)
Traceback (most recent call last):
...
engine.errors.RuleError: Ann is playing on another phone already; join with another name.
>>> table.join("Ben", "", phone_of("ben's token"), between_matches=False)
Traceback (most recent call last):
...
engine.errors.RuleError: A match is under way; join when it ends, at the match table.
>>> table.names, table.name_of(phone_of("ann's token"))
(('Dee', 'Ann'), 'Ann')
>>> named = Table("ABCD", named=("Cy", "Eve"))
>>> eve = named.join("Eve", "Owls", phone_of("eve's token"), between_matches=False)
>>> eve == PlayerJoined("Eve", "", False, phone_of("eve's token"))  # as she sits
True
>>> named.names, named.name_of(phone_of("eve's token"))
(('Cy', 'Eve'), 'Eve')
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable

from device.base.strings import say
from device.store.events import Payload, PlayerJoined, PlayerLeft, TableOpened
from engine.errors import RuleError

#: The most players at the table (phones and the keyboard): a stranger's bots cannot
#: fill a match (issue 32).
MAX_PLAYERS = 12
#: The letters of a join code: none a player could misread (no I, O, 0 or 1).
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def make_code() -> str:
    """A join code: four letters a player reads off the screen and types without doubt."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(4))


def make_token() -> str:
    """A phone's own secret: it proves the phone is the one that joined."""
    return secrets.token_urlsafe(16)


def phone_of(token: str) -> str:
    """How the box knows a phone by its token without keeping the token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Table:
    """The table; ``write`` keeps each change (a seat taken or left, the join code) in the
    record of the match it happens in, the moment it happens."""

    def __init__(
        self,
        code: str = "",
        keyboard: PlayerJoined | None = None,
        write: Callable[[Payload], None] = lambda _payload: None,
        named: Iterable[str] = (),
    ) -> None:
        self.code = code
        self.write = write
        #: Whether the join code is kept (in a match's start, or by the first join).
        self.code_kept = False
        self._seats: dict[str, PlayerJoined] = {}
        for name in named:  # the settings' players in their seats, the keyboard's among them
            is_keyboard = keyboard is not None and keyboard.name == name
            self._seats[name] = keyboard if keyboard and is_keyboard else PlayerJoined(name)
        if keyboard is not None:
            self._seats.setdefault(keyboard.name, keyboard)

    @property
    def seats(self) -> tuple[PlayerJoined, ...]:
        """Everyone at the table, in the order they sat down."""
        return tuple(self._seats.values())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._seats)

    def teams(self) -> dict[str, str]:
        return {seat.name: seat.team for seat in self._seats.values() if seat.team}

    def name_of(self, phone: str) -> str | None:
        """The player holding ``phone``, if they are at the table."""
        return next((s.name for s in self._seats.values() if phone and s.phone == phone), None)

    def join(self, name: str, team: str, phone: str, *, between_matches: bool) -> PlayerJoined:
        """``name`` sits down on ``phone`` (in ``team``, if any): the seat as it now is.
        The same phone again during a match keeps its seat as it was; a named seat no
        phone holds yet is taken as it is."""
        seat = self._seats.get(name)
        free = seat is not None and not seat.keyboard and not seat.phone
        if seat is not None and not free and (seat.keyboard or seat.phone != phone):
            raise RuleError(
                say("name-on-keyboard" if seat.keyboard else "name-on-phone", name=name)
            )
        if not between_matches:
            if seat is None:
                raise RuleError(say("match-under-way"))
            if not free:
                return seat
            team = seat.team  # the player is in the match as they sit
        if seat is None and len(self._seats) >= MAX_PLAYERS:
            raise RuleError(say("table-full", most=MAX_PLAYERS))
        joined = PlayerJoined(name, team, False, phone)
        if joined != seat:
            if not self.code_kept:
                self.write(TableOpened(self.code))
                self.code_kept = True
            self.write(joined)
            self._seats[name] = joined
        return joined

    def sit(self, seats: Iterable[PlayerJoined], code: str) -> None:
        """Put back the players the store says were at the table, and their join code (a
        restart); the keyboard's player is the settings' one."""
        self._seats.update((s.name, s) for s in seats if not s.keyboard)
        if code:
            self.code, self.code_kept = code, True

    def leave(self, name: str) -> bool:
        """``name`` leaves (a phone that leaves; the keyboard's player stays)."""
        seat = self._seats.get(name)
        if seat is None or seat.keyboard:
            return False
        del self._seats[name]
        self.write(PlayerLeft(name))
        return True
