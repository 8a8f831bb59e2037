"""What a phone shows, as JSON: the round's phase, the board, the player's own words while
the timer runs, and once the lists are refereed everyone's words, scores and standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from device.readings import faces_of, size_of

if TYPE_CHECKING:
    from device.referee import Referee


def phase_of(referee: Referee) -> str:
    from device.referee import State

    if referee.state is State.TIMING:
        return "typing"
    if referee.state in (State.TIME_UP, State.SCORING):
        return "locked"
    if referee.state is State.SCORED:
        return "scored"
    return "waiting"


def page_state(referee: Referee, name: str) -> dict[str, Any]:
    """Everything one player's phone shows now (``name``: that player)."""
    done = referee.round
    match = referee.match
    phase = phase_of(referee)
    state: dict[str, Any] = {
        "phase": phase,
        "name": name,
        "team": match.teams.get(name, "") if match else "",
        "round": done.number if done else 0,
        "seconds": round(referee.seconds_left),
        "message": referee.message,
        "board": [],
        "words": [],
        "results": [],
        "standings": [{"name": n, "score": s} for n, s in match.standings()] if match else [],
        "winners": list(match.winners()) if match else [],
    }
    if done is not None and done.reading is not None and phase != "waiting":
        faces, size = faces_of(done.reading), size_of(done.reading)
        state["board"] = [list(map(str, faces[r * size : (r + 1) * size])) for r in range(size)]
    if done is not None and done.desk is not None and phase in ("typing", "locked"):
        state["words"] = [
            {"word": t.word, "status": t.ruling.status, "why": t.ruling.reason}
            for t in done.desk.words(name)
        ]
    if done is not None and done.result is not None and phase == "scored":
        state["results"] = [
            {
                "name": player.name,
                "score": player.score,
                "words": [
                    {"word": e.word, "status": e.status, "points": e.points, "by": e.player}
                    for e in player.entries
                ],
            }
            for player in done.result.players
        ]
    return state
