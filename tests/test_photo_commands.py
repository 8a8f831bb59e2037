"""`cuberef solve PHOTO` and `cuberef score PHOTO`: read with the real model, then referee.

The photos are the demo's, rendered by our own scene renderer with known ground truth
(device/data/demo/truth.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main
from engine.adlib.jokers import settle_jokers
from engine.errors import RuleError
from engine.lexicon import Lexicon

DEMO = Path(__file__).resolve().parents[1] / "device" / "data" / "demo"
TRUTH = json.loads((DEMO / "truth.json").read_text(encoding="utf-8"))


def test_solve_reads_the_tray_photo_and_solves_the_board_it_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", str(DEMO / "boggle" / "1-roll.jpg"), "--game", "boggle", "--json"]) == 0
    from_photo = json.loads(capsys.readouterr().out)
    board = TRUTH["boggle/1-roll.jpg"]["board"]
    assert from_photo["board"] == board
    assert from_photo["reading"]["board"] == board
    assert main(["solve", "--game", "boggle", "--board", board, "--json"]) == 0
    typed = json.loads(capsys.readouterr().out)
    assert (from_photo["words"], from_photo["total"]) == (typed["words"], typed["total"])


@pytest.mark.parametrize(
    ("game", "size"), [("boggle", 4), ("big-boggle", 5), ("super-big-boggle", 6)]
)
def test_read_reads_the_bundled_tray_of_each_size_as_rendered(
    capsys: pytest.CaptureFixture[str], game: str, size: int
) -> None:
    photo = f"{game}/1-roll.jpg"  # as the README's first examples read them
    truth = TRUTH[photo]
    assert truth["size"] == size and truth["rendered"].startswith("models.scenes")
    assert main(["read", str(DEMO / photo), "--game", game, "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert read["board"] == truth["board"] and len(read["rows"]) == size
    assert read["doubtful"] == [] and read["warnings"] == []


def test_score_reads_a_finished_crossword_and_scores_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    photo = str(DEMO / "adlib" / "2-crossword.jpg")
    assert main(["score", photo, "--game", "adlib", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    truth = TRUTH["adlib/2-crossword.jpg"]
    assert verdict["valid"] is True
    assert verdict["score"] == truth["score"]
    assert verdict["reading"]["grid"] == truth["grid"]


def test_score_turns_a_crossword_photographed_upside_down_the_right_way_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2
    import numpy as np

    from models.scenes import render_crossword

    grid = ("S....", "T.B.J", "E.U.O", "MONEY")  # the README's crossword, its Q left unused
    scene = render_crossword(1, layout=(grid, ("Q",)))  # a scene that lies upright
    photo = tmp_path / "turned.png"
    cv2.imwrite(str(photo), np.ascontiguousarray(np.rot90(scene.image, 2)))
    assert main(["score", str(photo), "--game", "adlib", "--json"]) == 0
    captured = capsys.readouterr()
    verdict = json.loads(captured.out)
    assert verdict["reading"]["grid"] == list(grid) and verdict["reading"]["turned"] == 180
    assert verdict["valid"] is True and verdict["score"] == 31
    assert "upside down" in captured.err


def test_score_takes_a_tray_photo_with_the_lists_before_and_after_the_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("zzzz\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("zzzz\n", encoding="utf-8")
    a, b = f"a={tmp_path / 'a.txt'}", f"b={tmp_path / 'b.txt'}"
    photo = str(DEMO / "boggle" / "1-roll.jpg")
    assert main(["score", photo, "--game", "boggle", a, "--json", b]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["board"] == TRUTH["boggle/1-roll.jpg"]["board"]
    assert [player["name"] for player in document["players"]] == ["a", "b"]
    assert main(["score", photo, "--game", "boggle", a, "--no-such-option"]) == 2
    assert "no-such-option" in capsys.readouterr().err


def test_a_photo_beside_a_board_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    photo = str(DEMO / "boggle" / "1-roll.jpg")
    assert main(["solve", photo, "--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_photo_that_is_not_an_image_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "tray.jpg"
    fake.write_text("not a picture")
    assert main(["solve", str(fake), "--game", "boggle"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_joker_takes_the_letter_that_makes_both_its_words() -> None:
    # CA* across and *OG down share the joker: it must make both words (cad and dog, say).
    grid, choices = settle_jokers(["CA*", "..O", "..G"], Lexicon.open("en"))
    assert all(f"ca{letter}" in Lexicon.open("en") for letter in choices[(0, 2)])
    assert all(f"{letter}og" in Lexicon.open("en") for letter in choices[(0, 2)])
    assert "d" in choices[(0, 2)] and "x" not in choices[(0, 2)]
    assert str(grid).splitlines()[0][2].islower()


def test_a_joker_no_letter_fits_is_a_sentence() -> None:
    with pytest.raises(RuleError, match="joker"):
        settle_jokers(["XQ*", "..Z", "..Z"], Lexicon.open("en"))


def test_bench_prints_every_figure_with_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "3", "--json"]) == 0
    figures = {f["name"]: f for f in json.loads(capsys.readouterr().out)["figures"]}
    assert figures["solve a 5x5 Big Boggle board"]["target_ms"] == 3
    assert figures["read a 12 MP tray photo"]["target_ms"] == 400
    assert all(f["median_ms"] > 0 for f in figures.values())
