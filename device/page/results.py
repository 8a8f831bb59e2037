"""What a phone shows, as JSON: the round's phase, the board, the player's own words while
the timer runs, and once the lists are refereed everyone's words and scores (the
player's own, or their team's, first and marked) and the standings. Each word carries
its ruling in words, in the page's language, as the box's screen says it, and the real
spelling a word counted as where it was written without its diacritics."""

from __future__ import annotations

from typing import Any

from device.base.strings import translated
from device.base.wording import status_words, verdict, winners_line
from device.referee.flow import State
from device.referee.referee import Referee
from device.seams.readings import faces_of, size_of
from engine.referee import Ruling

#: The phase a phone shows, by the referee's state ("waiting" for the others).
PHASES = {
    State.TIMING: "typing",
    State.TIME_UP: "locked",
    State.DISPUTED: "disputed",
    State.ALLOWING: "disputed",
    State.REFUSING: "disputed",
    State.SCORING: "locked",
    State.SCORED: "scored",
}


def phone_state(referee: Referee, name: str, language: str = "en") -> dict[str, Any]:
    """Everything one player's phone shows now (``name``: that player)."""
    with referee.lock:
        done = referee.round
        match = referee.match
        phase = PHASES.get(referee.state, "waiting")
        team = referee.table.teams().get(name, "") or (match.teams.get(name, "") if match else "")
        state: dict[str, Any] = {
            "phase": phase,
            "language": language,
            "name": name,
            "team": team,
            "round": match.round_number(done) if done and match else 0,  # as the screen says
            "between": between_matches(referee),  # the page offers Leave
            "seconds": round(referee.seconds_left),
            "message": referee.message,
            "board": [],
            "words": [],
            "results": [],
            "standings": [{"name": n, "score": s} for n, s in match.standings()] if match else [],
            "winners": list(match.winners()) if match else [],
            "winner": winners_line(match.winners(), language) if match and match.winners() else "",
            "judge": bool(referee.disputes.judge) and name == referee.disputes.judge,
            "disputes": [],
        }
        if done is not None and phase != "waiting":
            state["disputes"] = [
                {
                    **c.to_json(),
                    "verdict": verdict(c.dispute, language),
                    "definition": translated(c.dispute.definition, language),
                }
                for c in referee.disputes.of(done)
            ]
        if done is not None and done.reading is not None and phase != "waiting":
            faces, size = [str(f) for f in faces_of(done.reading)], size_of(done.reading)
            state["board"] = [faces[r * size : (r + 1) * size] for r in range(size)]
        if done is not None and done.desk is not None and phase in ("typing", "locked", "disputed"):
            state["words"] = [ruled(t.word, t.ruling, language) for t in done.desk.words(name)]
        if done is not None and done.result is not None and phase == "scored":
            own = {name, team}
            players = sorted(done.result.players, key=lambda player: player.name not in own)
            state["results"] = [
                {
                    "name": player.name,
                    "score": player.score,
                    "yours": player.name in own,
                    "words": [
                        {
                            "word": e.word,
                            "status": e.status,
                            "said": status_words(e.status, language),
                            "counted": [s for s in e.ruling.spellings if s != e.word],
                            "points": e.points,
                            "by": e.player,
                        }
                        for e in player.entries
                    ],
                }
                for player in players
            ]
    return state


def between_matches(referee: Referee) -> bool:
    """Whether the table may change for the next match (players join, leave, change
    teams): no match under way, or its last round scored, from its score screen on
    until the next match's first roll."""
    match = referee.match
    return match is None or match.ended or match.over


def ruled(word: str, ruling: Ruling, language: str) -> dict[str, Any]:
    """A word on a phone's own list as the phone shows it: the ruling in words, why not
    (the engine's reason, in the page's language), and the spellings it counts as."""
    return {
        "word": word,
        "status": ruling.status,
        "said": status_words(ruling.status, language),
        "why": translated(ruling.reason, language),
        "counted": [spelling for spelling in ruling.spellings if spelling != word],
    }
