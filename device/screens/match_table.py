"""The match table on the screen: the players at the table before a match, who plays
without a partner, the match's standings with each side's members, and the evening's
standings over the matches since the box started."""

from __future__ import annotations

from collections.abc import Sequence

from device.base.strings import plural, say
from device.base.wording import progress, unpartnered_line, winners_line
from device.draw.lines import Line
from device.referee.matchplay import BoxMatch
from device.referee.referee import Referee
from device.referee.standings import Evening, Standing


def table_lines(referee: Referee) -> tuple[Line, ...]:
    """Before a match with lists: who plays in it, and the players named in the settings
    whose phones have not joined yet (each joins with their name)."""
    if not (referee.game.is_tray and referee.settings.page.lists):
        return ()
    with referee.lock:  # the page's thread seats players
        seats = referee.table.seats
    if not seats:
        return ()
    language = referee.language
    named = ", ".join(seat.name for seat in seats)
    lines = [Line(say("players-at-table", language, names=named), kind="head")]
    waiting = [seat.name for seat in seats if not seat.phone and not seat.keyboard]
    if waiting and referee.settings.page.enabled:
        lines.append(Line(say("join-on-phone", language, names=", ".join(waiting))))
    return tuple(lines)


def partner_lines(referee: Referee) -> tuple[Line, ...]:
    """Before an Ad-Lib match of partners with an odd number of players: who plays as a
    side of one."""
    if referee.game.is_tray or not referee.settings.partners:
        return ()
    upcoming = referee.upcoming()
    lone = upcoming.unpartnered if not upcoming.rounds else None
    return (Line(unpartnered_line(lone, referee.language), kind="head"),) if lone else ()


def side_name(
    name: str, handicap: Sequence[str], members: Sequence[str] = (), language: str = "en"
) -> str:
    """A side as the screens name it: a team with its members (partners are named after
    theirs already), a handicapped side marked.

    >>> side_name("Red", (), ("Ann", "Ben")), side_name("Ann & Cy", (), ("Ann", "Cy"))
    ('Red (Ann, Ben)', 'Ann & Cy')
    >>> side_name("Ann", ("Ann",), ("Ann",)), side_name("Red", ("Red",), ("Ann", "Ben"))
    ('Ann (handicap)', 'Red (Ann, Ben) (handicap)')
    """
    named = tuple(members) not in ((), (name,)) and name != " & ".join(members)
    shown = f"{name} ({', '.join(members)})" if named else name
    return say("handicap", language, name=shown) if name in handicap else shown


def match_lines(
    match: BoxMatch, handicap: Sequence[str] = (), language: str = "en"
) -> tuple[Line, ...]:
    """The match table: the winner once there is one, every side's place and score, and
    how far the match has come."""
    lines: list[Line] = []
    winners = match.winners()
    if winners:
        lines.append(Line(winners_line(winners, language), kind="head"))
    standings = match.model.standings() if match.model is not None else ()
    lines += [
        Line(
            f"{standing.place}. "
            f"{side_name(standing.side.name, handicap, standing.side.members, language)}",
            str(standing.score),
            "head",
        )
        for standing in standings
    ]
    played = match.model.rounds_played if match.model is not None else 0
    lines.append(Line(progress(played, match.started.rounds, match.started.target, language)))
    return tuple(lines)


def evening_lines(evening: Evening, language: str = "en") -> tuple[Line, ...]:
    """The evening's standings under the match's own, once it has had more than one
    match: each player's matches won (their side's) and played, and their side's points
    over them; then each team that kept its members."""
    if evening.matches < 2:
        return ()
    matches = plural("n-matches", evening.matches, language)
    heading = Line(say("evening", language, matches=matches), say("won-points", language), "head")
    lines = [heading, *(_standing_line(s, language) for s in evening.standings)]
    if evening.teams:
        lines.append(Line(say("evening-teams", language), say("won-points", language), "head"))
        lines += [_standing_line(s, language) for s in evening.teams]
    return tuple(lines)


def _standing_line(row: Standing, language: str) -> Line:
    return Line(
        row.name, say("won-of", language, won=row.won, played=row.played, points=row.points)
    )
