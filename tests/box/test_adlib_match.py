"""Whole Ad-Lib matches on the box, from rendered photos read by the real reader and its
face model: who starts from photos of single cubes (a tie rolls again), every player's
turns, the end after the agreed rounds or at the target (checked only once a round of
turns is complete), partners sharing one turn, and the winner on the screen."""

from __future__ import annotations

import pytest

from device.referee.flow import State
from device.seams.seams import VisionReader

from . import rendered
from .rendered import CAB, MILK, SLEW, SMILE, TWIN, Play
from .test_round import box_settings, build, tap

pytestmark = pytest.mark.slow  # about 5 s each: every photo is read for real


def adlib_box(tmp_path, shots, players, rounds=0, target=0, partners=False):
    photos = rendered.folder(tmp_path / "photos", shots)
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen.update(players=players, rounds=rounds, target_score=target, partners=partners)
    chosen["best_seconds"] = 0.2
    made, _clock, _ = build(tmp_path, photos, settings=chosen, reader=VisionReader())
    return made


def roll_for_start(made, roller: str) -> None:
    """``roller`` throws one cube under the camera and the box reads it."""
    if made.referee.match is not None:
        assert made.referee.match.holder == roller
    tap(made)
    assert made.referee.state is State.STARTER, made.referee.message


def play_turn(made, player: str, play: Play) -> None:
    """``player``'s turn: the roll is read, time runs, the crossword is read and scored."""
    referee = made.referee
    assert referee.match.holder == player
    tap(made)  # the roll
    assert referee.state is State.TIMING, referee.message
    assert referee.round.player == player
    assert sorted(str(referee.round.reading.faces[i].face) for i in range(13)) == sorted(
        rendered.ROLLS[play.roll].split()
    )
    tap(made)  # the players call time
    tap(made)  # the crossword
    assert referee.state is State.SCORED, referee.message
    assert referee.round.grid == play.rows
    assert referee.round.verdict.valid and referee.round.verdict.score == play.score
    tap(made)  # the match table
    assert referee.state is State.MATCH


def shown_lines(made) -> list[str]:
    return [str(line) for line in made.box.screen.shown.lines]


def turns_of(made) -> list[tuple[str, int]]:
    return [(done.player, done.verdict.score) for done in made.referee.match.rounds]


def test_three_players_two_rounds_each_play_twice_and_the_winner_is_named(tmp_path):
    # Ann T=2, Ben E=1, Cy L=2: Ann and Cy tie and roll again, A=1 against V=4.
    single = rendered.single
    order = [("Cy", SMILE), ("Ann", TWIN), ("Ben", SLEW)]
    order += [("Cy", CAB), ("Ann", MILK), ("Ben", SMILE)]
    shots = [single("T"), single("E"), single("L"), single("A"), single("V")]
    for _player, play in order:
        shots += rendered.turn(play)
    made = adlib_box(tmp_path, shots, ["Ann", "Ben", "Cy"], rounds=2)
    referee = made.referee
    assert made.box.draw().message == "Who starts: Ann, roll one cube and press."
    for roller in ("Ann", "Ben", "Cy"):
        roll_for_start(made, roller)
    assert referee.match.needs_starter and referee.match.start_roll.tied == ("Ann", "Cy")
    assert referee.message == "Ann and Cy tied: Ann, roll one cube again and press."
    roll_for_start(made, "Ann")
    roll_for_start(made, "Cy")
    assert [(name, str(face)) for name, face, _ in referee.match.throws] == [
        ("Ann", "T"),
        ("Ben", "E"),
        ("Cy", "L"),
        ("Ann", "A"),
        ("Cy", "V"),
    ]
    assert referee.message == "Cy starts: roll all the cubes and press."
    for number, (player, play) in enumerate(order):
        assert not referee.match.over
        play_turn(made, player, play)
        if number < len(order) - 1:
            following = order[number + 1][0]
            assert referee.message.startswith(f"{following} rolls next")
    assert turns_of(made) == [(p, play.score) for p, play in order]
    assert referee.match.over and referee.match.winners() == ("Ann",)
    assert referee.match.standings() == [("Ann", 40), ("Cy", 19), ("Ben", 12)]
    assert referee.message == "Press the button for a new match."
    assert shown_lines(made)[0] == "Winner: Ann"  # said once, on the match table
    assert "Winner: Ann" in shown_lines(made)
    kinds = [event.kind for event in made.store.events(1)]
    assert kinds.count("starter-rolled") == 5 and kinds.count("scored") == 6
    assert kinds[-1] == "match-ended"
    made.close()


def test_the_target_is_checked_only_when_a_round_of_turns_is_complete(tmp_path):
    # Ann E=1, Ben G=4, Cy T=2: Ben starts. Target 15: Ben passes it on the first turn,
    # but Cy and Ann still play the round, and Ann's 20 wins it.
    single = rendered.single
    order = [("Ben", CAB), ("Cy", SLEW), ("Ann", TWIN)]
    shots = [single("E"), single("G"), single("T")]
    for _player, play in order:
        shots += rendered.turn(play)
    made = adlib_box(tmp_path, shots, ["Ann", "Ben", "Cy"], target=15)
    referee = made.referee
    for roller in ("Ann", "Ben", "Cy"):
        roll_for_start(made, roller)
    assert referee.message == "Ben starts: roll all the cubes and press."
    play_turn(made, "Ben", CAB)
    assert referee.match.standings()[0] == ("Ben", 16)
    assert not referee.match.over and referee.message.startswith("Cy rolls next, then Ann")
    play_turn(made, "Cy", SLEW)
    assert not referee.match.over
    play_turn(made, "Ann", TWIN)
    assert referee.match.over and referee.match.winners() == ("Ann",)
    assert referee.match.standings() == [("Ann", 20), ("Ben", 16), ("Cy", 9)]
    assert "Winner: Ann" in shown_lines(made)
    made.close()


def test_partners_share_one_turn_and_roll_one_cube_between_them(tmp_path):
    # Ann & Cy against Ben & Dee, one round: two turns, not four.
    shots = [rendered.two_cubes(), rendered.single("P"), rendered.single("E")]
    shots += rendered.turn(MILK) + rendered.turn(SLEW)
    made = adlib_box(tmp_path, shots, ["Ann", "Ben", "Cy", "Dee"], rounds=1, partners=True)
    referee = made.referee
    assert [side.name for side in referee.upcoming().sides()] == ["Ann & Cy", "Ben & Dee"]
    assert referee.message == "Who starts: Ann & Cy, roll one cube and press."
    tap(made)  # two cubes thrown: refused, the same side rolls again
    assert referee.state is State.IDLE
    assert "Ann & Cy, roll just one cube for who starts; the photo shows 2." in referee.message
    roll_for_start(made, "Ann & Cy")
    roll_for_start(made, "Ben & Dee")
    assert referee.message == "Ann & Cy start: roll all the cubes and press."
    play_turn(made, "Ann & Cy", MILK)
    assert not referee.match.over
    play_turn(made, "Ben & Dee", SLEW)
    assert turns_of(made) == [("Ann & Cy", 20), ("Ben & Dee", 9)]
    assert referee.match.over and referee.match.winners() == ("Ann & Cy",)
    assert "Winner: Ann & Cy" in shown_lines(made)
    made.close()
