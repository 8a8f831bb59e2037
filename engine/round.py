"""Scoring one round of a Boggle-family game: every player's list, word by word.

A word on the lists of two or more players (or teams) is crossed off everyone's list;
in Czech Boggle that is the rule that only words no other player has score. A word a
player wrote twice counts once; the second is ``repeated``.

>>> from engine.board import Board
>>> from engine.games import find_game
>>> board, game = Board.parse("TNTB/GDAR/ELTE/SISH"), find_game("boggle")
>>> result = score_round(board, game, [("ann", ["dart", "slate"]), ("bob", ["dart", "zoo"])])
>>> [(p.name, p.score) for p in result.players]
[('ann', 2), ('bob', 0)]
>>> [(e.word, e.status) for e in result.players[1].entries]
[('dart', 'crossed-off'), ('zoo', 'not-on-board')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.board import Board, Cell
from engine.errors import RuleError
from engine.games import Game
from engine.house import HouseList
from engine.lexicon import Lexicon
from engine.referee import NOT_A_WORD, NOT_ON_BOARD, TOO_SHORT, VALID, Ruling, check
from engine.sides import seat_sides

SCORED, CROSSED_OFF, REPEATED = "scored", "crossed-off", "repeated"
#: Every status a word on a list can get.
STATUSES = (SCORED, CROSSED_OFF, NOT_ON_BOARD, NOT_A_WORD, TOO_SHORT, REPEATED)
#: Big Boggle's advanced game counts words of five letters or more.
ADVANCED_MIN_LENGTH = 5
#: A handicapped player may count words from three letters.
HANDICAP_MIN_LENGTH = 3
#: Points on top for a word through the challenge cube (a setting; see the rules notes).
CHALLENGE_BONUS = 5


@dataclass(frozen=True, slots=True)
class RoundRules:
    """The options agreed before a round."""

    #: Shortest word that counts; None for the game's own (4 on a 5x5 tray).
    min_length: int | None = None
    #: Big Boggle's advanced game: five letters or more.
    advanced: bool = False
    #: Players who may count from three letters (3 letters = 1 point).
    handicap: frozenset[str] = frozenset()
    #: Teams: name -> members; a team's lists are pooled.
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: The challenge cube's cell; a word through it earns ``challenge_bonus`` more.
    challenge: Cell | None = None
    challenge_bonus: int = CHALLENGE_BONUS
    #: The table's own rulings, which come before the word list's.
    house: HouseList | None = None

    def shortest(self, game: Game, player: str, team: str = "") -> int:
        """The shortest word that counts for ``player`` (of ``team``, if in one)."""
        if player in self.handicap or team in self.handicap:
            return HANDICAP_MIN_LENGTH
        if self.min_length is not None:
            return self.min_length
        return max(game.min_length, ADVANCED_MIN_LENGTH) if self.advanced else game.min_length


@dataclass(frozen=True, slots=True)
class Entry:
    """One word on a list and what it earned."""

    word: str
    status: str
    points: int
    #: Who wrote it (a team's member, or the player).
    player: str
    ruling: Ruling


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A player's (or a team's) words and score for the round."""

    name: str
    members: tuple[str, ...]
    entries: tuple[Entry, ...]

    @property
    def score(self) -> int:
        return sum(entry.points for entry in self.entries)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Everyone's result, in the order the lists were given."""

    players: tuple[PlayerResult, ...]
    rules: RoundRules = field(default_factory=RoundRules)

    def scores(self) -> dict[str, int]:
        return {player.name: player.score for player in self.players}


def score_round(
    board: Board,
    game: Game,
    lists: Sequence[tuple[str, Sequence[str]]],
    lexicon: Lexicon | None = None,
    rules: RoundRules | None = None,
) -> RoundResult:
    """Score every list; ``lists`` is (player, words) in the order they were handed in."""
    rules = rules or RoundRules()
    lexicon = lexicon or Lexicon.open(game.lexicon)
    units = _units(lists, rules)
    rulings: list[list[tuple[str, Ruling]]] = []
    for unit, members in units:
        judged = []
        for member in members:
            shortest = rules.shortest(game, member, unit)
            for word in dict(lists)[member]:
                judged.append(
                    (
                        member,
                        check(word, board, game, lexicon, shortest, rules.challenge, rules.house),
                    )
                )
        rulings.append(judged)

    # A real word on the board counts as found by a unit even when too short for it.
    holders: dict[str, set[int]] = {}
    for index, judged in enumerate(rulings):
        for _, ruling in judged:
            for key in _keys(ruling, board, game, lexicon, rules.house):
                holders.setdefault(key, set()).add(index)

    results = []
    for (name, members), judged in zip(units, rulings, strict=True):
        seen: set[str] = set()
        entries = []
        for member, ruling in judged:
            # A word that could be several spellings is the same as any one of them.
            keys = set(ruling.spellings or (ruling.word,))
            found_by = {unit for key in keys for unit in holders.get(key, ())}
            if keys & seen:
                status, points = REPEATED, 0
            elif ruling.status != VALID:
                status, points = ruling.status, 0
            elif len(found_by) > 1:
                status, points = CROSSED_OFF, 0
            else:
                status, points = SCORED, ruling.points
                if rules.challenge is not None and rules.challenge in ruling.path:
                    points += rules.challenge_bonus
            seen |= keys
            entries.append(Entry(ruling.word, status, points, member, ruling))
        results.append(PlayerResult(name, members, tuple(entries)))
    return RoundResult(tuple(results), rules)


def _keys(
    ruling: Ruling, board: Board, game: Game, lexicon: Lexicon, house: HouseList | None
) -> tuple[str, ...]:
    """The spellings a ruling stands for, if it is a word on the board at any length."""
    if ruling.status == VALID:
        return ruling.spellings
    if ruling.status == TOO_SHORT:
        return check(ruling.word, board, game, lexicon, 0, house=house).spellings
    return ()


def _units(
    lists: Sequence[tuple[str, Sequence[str]]], rules: RoundRules
) -> list[tuple[str, tuple[str, ...]]]:
    """The scoring units in the order their first list came: teams and lone players."""
    names = [name for name, _ in lists]
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise RuleError(f"{twice} handed in two lists; give each player one list.")
    return [(side.name, side.members) for side in seat_sides(names, rules.teams)]
