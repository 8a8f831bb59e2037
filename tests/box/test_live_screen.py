"""The box during an Ad-Lib turn: the table read live on its screen (the running score
large, the cubes already laid greyed so that the unused ones stand out with their values,
the words that are not words), scored at 0:00 without a press, the full-resolution still
confirming the last stable reading, or, with a hand in it, leaving that reading scored.

The live frames and the still are rendered photos of one table (``tests/live_frames.py``);
the reader is a double that says what the table shows, so the box's part is what is
tested: it streams, shows, and decides what to score."""

from __future__ import annotations

import cv2
from live_frames import CROSSWORD, ROLL

from device.draw.paint import SMALLEST
from device.draw.render import render
from device.referee.flow import State

from .conftest import ListReader, loose_reading
from .test_round import box_settings, build, run_out_the_clock, tap

MONEY = ("MONEY",)


def adlib_box(tmp_path, frames, table, crossword):
    photos = tmp_path / "photos"
    photos.mkdir()
    for number, image in enumerate(frames):
        cv2.imwrite(str(photos / f"{number}.png"), image)
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen.update(players=["Ann"], rounds=1)
    reader = ListReader([loose_reading(ROLL)], [crossword], table=table)
    made, clock, _ = build(tmp_path, photos, reader=reader, game="adlib", settings=chosen)
    return made, clock


def read_live(made, frames: int = 2) -> None:
    """The turn's live reading, frame by frame here (its own thread stopped first)."""
    live = made.referee.scoring.live
    assert live is not None
    live.stop()
    for _ in range(frames):
        live.step()


def test_the_screen_shows_the_running_score_and_the_unused_cubes_large(
    tmp_path, hand_frames
) -> None:
    table = loose_reading(ROLL, grid=tuple(CROSSWORD))
    made, _clock = adlib_box(tmp_path, [hand_frames[0][1]], table, table)
    tap(made)
    assert made.referee.state is State.TIMING
    read_live(made)
    view = made.box.draw()
    assert view.score == "31 so far"
    assert [line.text for line in view.lines] == ["Laid: MONEY · STEM · BUN · JOY"]
    laid = [i for i, face in enumerate(view.faces) if i in view.used]
    assert sorted(view.faces[i] for i in laid) == sorted("STEBUJOMONEY")
    assert [view.faces[i] for i in range(13) if i not in view.used] == ["Q"]
    drawn = render(view, made.box.screen.surface)
    score = next(text for text in drawn.texts if text.text == "31 so far")
    assert score.size >= 2 * SMALLEST  # read across the table, a metre away
    assert any(text.text == "8" for text in drawn.texts)  # the unused Q's value


def test_a_word_the_lexicon_does_not_know_is_named_and_the_score_is_not_sure(
    tmp_path, hand_frames
) -> None:
    table = loose_reading(ROLL, grid=("MONEY", "....Q"))  # YQ down: no word
    made, _clock = adlib_box(tmp_path, [hand_frames[0][1]], table, table)
    tap(made)
    read_live(made)
    view = made.box.draw()
    assert view.score == "? so far"
    # what is wrong first, then the words laid so far
    assert [line.text for line in view.lines] == ["Not a word: YQ", "Laid: MONEY"]


def test_a_cube_of_the_roll_seen_nowhere_is_asked_for_and_the_score_waits(
    tmp_path, hand_frames
) -> None:
    # The table shows the crossword and no Q: the Q may be a letter the camera missed.
    table = loose_reading(ROLL.rsplit(" ", 1)[0], grid=tuple(CROSSWORD))
    made, _clock = adlib_box(tmp_path, [hand_frames[0][1]], table, table)
    tap(made)
    read_live(made)
    view = made.box.draw()
    assert view.score == "? so far"
    assert "Not seen: Q" in [line.text for line in view.lines]


def test_0_00_scores_at_once_and_a_clear_still_confirms_it(tmp_path, hand_frames) -> None:
    # Live, the table last read as MONEY; the still at 0:00 shows the whole crossword (a
    # cube laid as time ran out): the still's reading, at full resolution, is scored.
    live = loose_reading(ROLL, grid=MONEY)
    still = loose_reading(ROLL, grid=tuple(CROSSWORD))
    made, clock = adlib_box(tmp_path, [hand_frames[0][1]], live, still)
    tap(made)
    read_live(made)
    assert made.box.draw().score == "-16 so far"
    run_out_the_clock(made, clock)
    referee = made.referee
    assert referee.state is State.SCORED, referee.message  # no press needed
    assert referee.round.grid == tuple(CROSSWORD) and referee.round.verdict.score == 31
    assert not any("0:00" in note for note in referee.round.notes)


def test_a_hand_in_the_still_at_0_00_leaves_the_last_stable_reading_scored(
    tmp_path, hand_frames
) -> None:
    # The live frames show the crossword clear (the photo last taken); the still, the
    # next photo, has a hand over it, and reads as less of the crossword.
    clear, covered = hand_frames[0][1], hand_frames[4][1]
    live = loose_reading(ROLL, grid=tuple(CROSSWORD))
    made, clock = adlib_box(tmp_path, [clear, covered], live, loose_reading(ROLL, grid=MONEY))
    tap(made)
    read_live(made)
    run_out_the_clock(made, clock)
    referee = made.referee
    assert referee.state is State.SCORED, referee.message
    assert referee.round.grid == tuple(CROSSWORD) and referee.round.verdict.score == 31
    assert any("hand was over the cubes" in note for note in referee.round.notes)
    made.box.draw()
    assert "hand was over the cubes" in made.box.screen.shown.message


def test_without_a_crossword_read_live_time_up_waits_for_a_press_as_before(
    tmp_path, hand_frames
) -> None:
    crossword = loose_reading(ROLL, grid=tuple(CROSSWORD))
    made, clock = adlib_box(tmp_path, [hand_frames[0][1]], None, crossword)
    tap(made)
    read_live(made)
    assert made.box.draw().score == ""
    run_out_the_clock(made, clock)
    assert made.referee.state is State.TIME_UP
    tap(made)
    assert made.referee.state is State.SCORED and made.referee.round.verdict.score == 31
