"""Render the photos ``cuberef demo`` uses in place of a camera, with the project's own
scene renderer (``models.scenes``), and record what each shows in ``truth.json``.

    python -m device.data.demo.make_demo_photos

Boggle: one tray of each size, rolled from each game's cubes: ``boggle/`` (4x4),
``big-boggle/`` (5x5) and ``super-big-boggle/`` (6x6), for ``cuberef read`` and
``cuberef solve`` to try on a kit of any size before its box is built. Ad-Lib, a match of
two players in the order the box takes the photos: Ann and Ben each throw one cube for who
starts (T = 2 against E = 1: Ann starts), then each turn's roll and finished crossword.
Ann's crossword is the best one the engine finds for her roll; Ben's is a smaller one of
his own, so the demo scores real plays.
The photos are small JPEGs (1024x768 frame, quality 80) so that they can be committed.

Ad-Lib on the replay camera (``replay/``): the frames of one turn on a table of the
live-reading sequences (``models.sequences``, 800x600), the 13 cubes loose (the roll),
then the README's crossword laid a word at a time; the demo plays them as the camera's
stream and the box reads the table live.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from engine.adlib import Grid, Roll, referee
from engine.lexicon import Lexicon
from models.scenes import render_crossword, render_loose, render_tray
from models.sequences import Shot, Table, laid

HERE = Path(__file__).resolve().parent
#: Each tray: its game (the folder its photo goes in), its size and the render_tray seed.
TRAYS = (("boggle", 4, 11), ("big-boggle", 5, 3), ("super-big-boggle", 6, 3))
#: Said of each photo in ``truth.json``: where it comes from.
RENDERED = "models.scenes, by python -m device.data.demo.make_demo_photos"
#: Who starts: the render_crossword seed of a cube lying alone, and each player's face.
SEED_START, STARTERS = 2, (("0a-ann-start.jpg", "T"), ("0b-ben-start.jpg", "E"))
#: Each turn: the photos' names, the render_loose seed of the roll, the crossword laid
#: and the render_crossword seed showing it the right way up. Ann's is the best crossword
#: for her roll (found by ``cuberef best``, proven optimal); Ben's is a smaller one.
TURNS = (
    ("1-roll.jpg", "2-crossword.jpg", 7, ("..S.", "..LA", ".GIN", "MAC.", "ELK.", "N..."), 7),
    ("3-roll.jpg", "4-crossword.jpg", 5, ("MILK", "A...", "LAIR", "E..."), 4),
)
#: The replay's table (the cubes of the live-reading tests, a seed whose camera sees the
#: crossword the right way up) and the crossword as it grows, a frame a stage, from the
#: cubes all loose.
SEED_REPLAY, REPLAY_FACES = 2, "M O N E Y S T E B U J O Q"
REPLAY_STAGES = (
    (),
    ("MONEY",),
    ("S....", "T....", "E....", "MONEY"),
    ("S....", "T.B..", "E.U..", "MONEY"),
    ("S....", "T.B.J", "E.U.O", "MONEY"),
)


def main() -> None:
    truth: dict[str, object] = {}
    for game, size, seed in TRAYS:
        tray = render_tray(seed, size)
        _write(HERE / game / "1-roll.jpg", tray.image)
        board = "/".join("".join(row) for row in tray.board or ())
        truth[f"{game}/1-roll.jpg"] = {"board": board, "size": size, "rendered": RENDERED}
    for name, face in STARTERS:
        cube = render_crossword(SEED_START, layout=((face,), []))
        _write(HERE / "adlib" / name, cube.image)
        truth[f"adlib/{name}"] = {"face": face}
    lexicon = Lexicon.open("en")
    for roll_name, crossword_name, roll_seed, rows, crossword_seed in TURNS:
        loose = render_loose(roll_seed)
        roll = " ".join(cube.face for cube in loose.cubes)
        _write(HERE / "adlib" / roll_name, loose.image)
        truth[f"adlib/{roll_name}"] = {"roll": roll}
        laid = ["*" if ch.islower() else ch for row in rows for ch in row if ch != "."]
        unused = list((Counter(cube.face for cube in loose.cubes) - Counter(laid)).elements())
        crossword = render_crossword(crossword_seed, layout=(rows, unused))
        if crossword.grid != rows:
            raise SystemExit(f"{crossword_name} no longer lies the right way up; pick a seed.")
        verdict = referee(Roll.parse(roll, "adlib"), Grid.from_rows(rows), lexicon)
        if not verdict.valid:
            raise SystemExit(f"{crossword_name}: {' '.join(verdict.errors)}")
        _write(HERE / "adlib" / crossword_name, crossword.image)
        truth[f"adlib/{crossword_name}"] = {
            "grid": list(rows),
            "score": verdict.score,
            "unused": unused,
        }
    replay(truth, lexicon)
    (HERE / "truth.json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")


def replay(truth: dict[str, object], lexicon: Lexicon) -> None:
    """The replay camera's frames, and what each shows: the roll, then each stage's
    crossword and its score as the live reading shows it."""
    table = Table(SEED_REPLAY, REPLAY_FACES.split(), frame=(800, 600))
    roll = Roll.parse(REPLAY_FACES, "adlib")
    for number, rows in enumerate(REPLAY_STAGES):
        name = f"replay/{number}-{'roll' if not rows else 'turn'}.jpg"
        _write(HERE / name, table.photo(Shot(laid(table, rows)), number))
        if not rows:
            truth[name] = {"roll": REPLAY_FACES}
            continue
        verdict = referee(roll, Grid.from_rows(rows), lexicon)
        truth[name] = {"grid": list(rows), "score": verdict.score}


def _write(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    print(path)


if __name__ == "__main__":
    main()
