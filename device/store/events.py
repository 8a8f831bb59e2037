"""Everything the box stores about a match: one enumerated type of events.

Each ``Kind`` has one frozen payload class below, and ``KINDS`` maps each to the other;
the store writes a payload with ``encode`` and reads it back with ``parse``, which checks
every field against its declared type, so a damaged row is set aside with the reason
instead of crashing a restart. The reader's own ``TrayReading`` and ``LooseReading``
travel inside the payloads unchanged.

>>> payload = parse(Kind.ROUND_STARTED, '{"seconds": 180}')
>>> payload, kind_of(payload)
(RoundStarted(seconds=180), <Kind.ROUND_STARTED: 'round-started'>)
>>> parse(Kind.ROUND_STARTED, '{"seconds": "ten"}')
Traceback (most recent call last):
...
device.store.codec.Undecodable: seconds is 'ten', not a whole number
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from device.base.inputs import TooDeep, load_json
from device.store.codec import Undecodable, decode, encode
from engine.faces import Face
from vision import LooseReading, TrayReading


class Kind(StrEnum):
    MATCH_STARTED = "match-started"
    PLAYER_JOINED = "player-joined"
    STARTER_ROLLED = "starter-rolled"
    ROLL_READ = "roll-read"
    FACE_CORRECTED = "face-corrected"
    CHALLENGE_MARKED = "challenge-marked"
    ROUND_STARTED = "round-started"
    WORD_TYPED = "word-typed"
    WORD_REMOVED = "word-removed"
    ROUND_ENDED = "round-ended"
    SCORED = "scored"
    ROUND_CANCELLED = "round-cancelled"
    MATCH_ENDED = "match-ended"
    PLAYER_LEFT = "player-left"
    TABLE_OPENED = "table-opened"
    WORD_DISPUTED = "word-disputed"
    WORD_RULED = "word-ruled"


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player joined on a phone (or the box's keyboard), alone or in a team."""

    name: str
    team: str = ""
    keyboard: bool = False
    #: Which phone: the SHA-256 of the token the box gave it ("" for the keyboard).
    phone: str = ""


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left the table: they are in no match after the one under way."""

    name: str


@dataclass(frozen=True, slots=True)
class TableOpened:
    """Before any match: the players' page's join code the first phone joined with."""

    code: str


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The match's game and what the players agreed, fixed for the whole match."""

    game: str
    players: tuple[str, ...]
    rounds: int = 0  # 0: no limit
    target: int = 0  # 0: no target
    partners: bool = False
    #: The players' page's join code for this match ("" when the page is off).
    code: str = ""
    #: The players with lists (phones, the keyboard) as they sat at the start: their
    #: teams and phones carry from one match to the next.
    seats: tuple[PlayerJoined, ...] = ()


@dataclass(frozen=True, slots=True)
class StarterRolled:
    """Ad-Lib's who-starts: ``player`` rolled one cube, read as ``reading``, showing ``face``."""

    player: str
    face: Face
    reading: LooseReading
    photo: str | None = None


@dataclass(frozen=True, slots=True)
class RollRead:
    reading: TrayReading | LooseReading
    photo: str | None = None
    #: Who holds the cubes this turn (Ad-Lib); "" for a Boggle round.
    player: str = ""


@dataclass(frozen=True, slots=True)
class FaceCorrected:
    index: int
    face: Face


@dataclass(frozen=True, slots=True)
class ChallengeMarked:
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
    seconds: int


@dataclass(frozen=True, slots=True)
class WordTyped:
    player: str
    word: str


@dataclass(frozen=True, slots=True)
class WordRemoved:
    player: str
    word: str


@dataclass(frozen=True, slots=True)
class WordDisputed:
    """A player challenged a word before the round was scored: the table rules on it."""

    player: str
    word: str


@dataclass(frozen=True, slots=True)
class WordRuled:
    """The table's ruling on a challenged word, kept in the house list too: allowed or
    refused, and by whom (``button``, or the judge's name)."""

    word: str
    allowed: bool
    by: str = "button"


@dataclass(frozen=True, slots=True)
class RoundEnded:
    seconds_left: float


@dataclass(frozen=True, slots=True)
class Best:
    """The best crossword the search found for a roll, as ``BestCrossword`` holds it."""

    grid: tuple[str, ...]
    score: int
    upper_bound: int
    proven_optimal: bool
    seconds: float
    nodes: int


@dataclass(frozen=True, slots=True)
class Scored:
    """A round's result: each player's (or team's, or side's) points.

    Boggle: the scores of the locked lists. Ad-Lib: the holder's crossword as read (jokers
    settled) and the best crossword found; the details are worked out again from these."""

    scores: tuple[tuple[str, int], ...]
    #: Boggle: the board's whole score (every word on it), beside the players' scores.
    maximum: int | None = None
    grid: tuple[str, ...] = ()
    photo: str | None = None
    best: Best | None = None


@dataclass(frozen=True, slots=True)
class RoundCancelled:
    state: str


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winners: tuple[str, ...]


Payload = (
    MatchStarted
    | PlayerJoined
    | StarterRolled
    | RollRead
    | FaceCorrected
    | ChallengeMarked
    | RoundStarted
    | WordTyped
    | WordRemoved
    | RoundEnded
    | Scored
    | RoundCancelled
    | MatchEnded
    | PlayerLeft
    | TableOpened
    | WordDisputed
    | WordRuled
)

KINDS: dict[Kind, type[Any]] = {
    Kind.MATCH_STARTED: MatchStarted,
    Kind.PLAYER_JOINED: PlayerJoined,
    Kind.STARTER_ROLLED: StarterRolled,
    Kind.ROLL_READ: RollRead,
    Kind.FACE_CORRECTED: FaceCorrected,
    Kind.CHALLENGE_MARKED: ChallengeMarked,
    Kind.ROUND_STARTED: RoundStarted,
    Kind.WORD_TYPED: WordTyped,
    Kind.WORD_REMOVED: WordRemoved,
    Kind.ROUND_ENDED: RoundEnded,
    Kind.SCORED: Scored,
    Kind.ROUND_CANCELLED: RoundCancelled,
    Kind.MATCH_ENDED: MatchEnded,
    Kind.PLAYER_LEFT: PlayerLeft,
    Kind.TABLE_OPENED: TableOpened,
    Kind.WORD_DISPUTED: WordDisputed,
    Kind.WORD_RULED: WordRuled,
}
_KIND_OF = {payload: kind for kind, payload in KINDS.items()}


def kind_of(payload: Payload) -> Kind:
    return _KIND_OF[type(payload)]


def dumps(payload: Payload) -> str:
    """The payload as the JSON text the store keeps."""
    return json.dumps(encode(payload), ensure_ascii=False, sort_keys=True, allow_nan=False)


def parse(kind: str, text: str) -> Payload:
    """A stored row's payload, checked; ``Undecodable`` says what is wrong with it."""
    try:
        known = Kind(kind)
    except ValueError:
        raise Undecodable(f"{kind!r} is not a kind of event this box knows") from None
    try:
        data = load_json(text)
    except TooDeep:
        raise Undecodable("its data is nested too deeply") from None
    except (ValueError, TypeError) as error:
        raise Undecodable(f"its data is not JSON ({error})") from None
    payload: Payload = decode(KINDS[known], data)
    return payload


@dataclass(frozen=True, slots=True)
class Event:
    """One stored event: where it belongs (match, round), when, and what happened."""

    id: int
    match: int
    round: int
    at: float
    payload: Payload

    @property
    def kind(self) -> Kind:
        return kind_of(self.payload)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A stored row that could not be read, and why; kept aside, never deleted."""

    id: int
    match: int
    kind: str
    reason: str

    def __str__(self) -> str:
        return f"event {self.id} ({self.kind}): {self.reason}"
