"""Who plays together: players alone, Boggle teams and Ad-Lib partners, in their seats.

A side is what scores: one player, a Boggle team (whose lists are pooled) or Ad-Lib
partners (two sitting opposite, who share one turn and consult). Players are given in
their seats going round the table to the left; a side sits where its first member sits,
so the turns pass between sides in that order.

>>> [side.name for side in seat_sides(["Ann", "Ben", "Cy", "Di"], [("", ("Cy", "Ann"))])]
['Ann & Cy', 'Ben', 'Di']
>>> seat_sides(["Ann", "Ben"], [("red", ("Ann", "Bo"))])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.RuleError: Team red names Bo, who is not one of the players (Ann, Ben); ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import RuleError


@dataclass(frozen=True, slots=True)
class Side:
    """One scoring side: its name and its members in their seats (one for a lone player)."""

    name: str
    members: tuple[str, ...]

    @property
    def alone(self) -> bool:
        return self.members == (self.name,)


def seat_sides(
    players: Sequence[str], teams: Sequence[tuple[str, Sequence[str]]] = ()
) -> tuple[Side, ...]:
    """The sides of ``players`` (in seat order) with ``teams`` as (name, members).

    A team without a name is called after its members, ``Ann & Cy``. Everyone not in a
    team plays alone.
    """
    names = tuple(name.strip() for name in players)
    if not names or not all(names):
        raise RuleError("Name every player; one player alone plays solitaire.")
    twice = [name for name in names if names.count(name) > 1]
    if twice:
        raise RuleError(f"Two players are called {twice[0]}; give each player a name of their own.")
    seat = {name: number for number, name in enumerate(names)}
    team_of: dict[str, Side] = {}
    for given, members in teams:
        given_members = {member.strip() for member in members}
        ordered = tuple(sorted(given_members, key=lambda member: seat.get(member, -1)))
        name = given.strip() or " & ".join(ordered)
        if not ordered:
            raise RuleError(f"Team {name} has no players; name its members.")
        for member in ordered:
            if member not in seat:
                raise RuleError(
                    f"Team {name} names {member}, who is not one of the players "
                    f"({', '.join(names)}); check the name."
                )
            if member in team_of:
                raise RuleError(f"{member} is in two teams; put each player in one team.")
            team_of[member] = Side(name, ordered)
    sides: list[Side] = []
    for name in names:
        side = team_of.get(name, Side(name, (name,)))
        if side not in sides:
            sides.append(side)
    called = [side.name for side in sides]
    clash = next((name for name in called if called.count(name) > 1), None)
    if clash:
        raise RuleError(f"{clash} is both a player and a team; give the team another name.")
    return tuple(sides)


def partners(players: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Ad-Lib partners as teams for :func:`seat_sides`: each player with the one sitting
    opposite. With an odd number the player opposite the gap, in the middle seat, has no
    partner and plays as a side of one (:func:`unpartnered`); two players play alone.

    >>> partners(["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"])
    [('', ('Ann', 'Dee')), ('', ('Ben', 'Eve')), ('', ('Cy', 'Fay'))]
    >>> partners(["Ann", "Ben", "Cy"]), unpartnered(["Ann", "Ben", "Cy"])
    ([('', ('Ann', 'Cy'))], 'Ben')
    """
    if len(players) < 3:
        return []
    half = (len(players) + 1) // 2
    return [("", (players[seat], players[seat + half])) for seat in range(len(players) - half)]


def unpartnered(players: Sequence[str]) -> str | None:
    """The player :func:`partners` leaves without a partner: None for an even number of
    players (or fewer than three, who all play alone)."""
    if len(players) < 3 or len(players) % 2 == 0:
        return None
    return players[len(players) // 2]
