"""The screens' words: a count with its noun (no "1 words"), how far a match has come ("0 of
1 round played"), a draw said as one ("A draw: Ann and Ben", not "Winner: Ann and Ben"),
the winner said once, and a handicapped player marked."""

from __future__ import annotations

from device.base.wording import count, progress
from device.page.phones import Phones
from device.referee.flow import State
from device.screens.views import view_of

from .conftest import ListReader, tray_reading
from .test_round import box_settings, build, run_out_the_clock, tap


def test_counts_and_the_match_so_far_say_their_nouns_right():
    assert [count(n, "word") for n in (0, 1, 2)] == ["0 words", "1 word", "2 words"]
    assert progress(0, 1, 0) == "0 of 1 round played"
    assert progress(1, 3, 200) == "1 of 3 rounds played; target 200"
    assert progress(1, 0, 0) == "1 round played"


def test_a_draw_is_said_as_one_and_the_winner_only_on_the_table(tmp_path, photos):
    chosen = box_settings(tmp_path, photos)
    chosen["page"].update(enabled=True, port=0)
    chosen["rounds"] = 1
    chosen["handicap"] = ["Ben"]
    made, clock, _ = build(tmp_path, photos, reader=ListReader([tray_reading()]), settings=chosen)
    phones = Phones(made.referee)
    for name in ("Ann", "Ben"):
        phones.join(name, "", "")
    tap(made)
    made.referee.desk.add("Ann", "dart")
    shown = [str(line) for line in made.box.draw().lines]
    assert shown == ["Words: Ann 1 · Ben 0"]  # not "1 words"
    made.referee.desk.add("Ben", "dart")  # crossed off for both: 0 each
    run_out_the_clock(made, clock)
    scored = [str(line) for line in view_of(made.referee).lines]
    assert "Ben (handicap)  0" in scored
    tap(made)
    assert made.referee.state is State.MATCH and made.referee.match.ended
    view = view_of(made.referee)
    table = [str(line) for line in view.lines]
    assert table[0] == "A draw: Ann and Ben"
    assert table[1:] == ["1. Ann  0", "1. Ben (handicap)  0", "1 of 1 round played"]
    assert "won" not in view.message and "Winner" not in view.message
    made.close()
