"""A Czech box says in Czech what goes wrong too: the reader's refusals of a roll photo
(blank, blurred, another game's tray), its warnings about a crossword's photo and the
engine's reasons a crossword does not score, a full or damaged match store and a camera
that gives no picture; on its screen and on the phones. Each of these English sentences
of the reader and the engine has a line in every language of the table, and its English
is the one they say (``device.base.strings.translated`` finds it by that)."""

from __future__ import annotations

import ast
import dataclasses
import errno
import json
import re
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.base.strings import key_of, languages, say, table, translated
from device.page.phones import Phones
from device.parts.backends import first_working
from device.referee.flow import State
from device.seams.seams import NoCrossword, VisionReader
from engine.adlib.grid import Grid
from engine.adlib.jokers import settle_jokers
from engine.adlib.referee import referee
from engine.adlib.roll import Roll
from engine.errors import MachineError, NotationError, RuleError
from engine.lexicon import Lexicon
from engine.referee import normalize_word
from models.scenes import render_tray

from .conftest import ListReader, loose_reading, tray_reading
from .rendered import ROLLS
from .test_language import BOARD, english_pieces
from .test_page import post
from .test_round import FullDatabase, box_settings, build, run_out_the_clock, tap

ROOT = Path(__file__).resolve().parents[2]
#: The messages whose English is the reader's own sentence (engine/ and vision/ say
#: English only; the box reads it back and says it in the table's language).
VISION = (
    "picture-not-colour",
    "picture-not-8-bits",
    "picture-too-small",
    "no-cubes-found",
    "no-faces-found",
    "cubes-too-small",
    "too-blurred",
    "tray-not-loose",
    "no-tray",
    "tray-cut-off-cells",
    "tray-cut-off",
    "wrong-tray",
    "no-tray-of-size",
    "in-pieces",
    "left-out",
    "found-cubes",
    "cube-off-set",
    "cube-unsure",
    "crossword-turned",
    "turned-anticlockwise",
    "turned-upside-down",
    "turned-clockwise",
)
#: And those whose English is the engine's reason a crossword does not score.
ENGINE = (
    "grid-apart",
    "grid-word-refused",
    "grid-word-unknown",
    "single-cube",
    "grid-letter-not-rolled-one",
    "grid-letter-not-rolled",
    "grid-letter-short",
    "grid-joker",
    "grid-jokers",
    "grid-jokers-short",
    "joker-no-letter",
    "roll-size",
    "roll-cubes-short",
    "roll-cube-short",
)


def said_on_screens(shots: Path) -> list[str]:
    journal = (shots / "screens.jsonl").read_text(encoding="utf-8").splitlines()
    return [" ".join(json.loads(line)["text"]) for line in journal]


def no_english(said: list[str], *details: str) -> None:
    """No English sentence of the table in ``said``, but for ``details`` that are not the
    box's words (SQLite's reason, a file's name)."""
    english = english_pieces()
    for text in said:
        for detail in details:
            text = re.sub(detail, "", text)
        left = [piece for piece in english if piece in text]
        assert not left, (left, text)


def test_a_roll_photo_the_reader_refuses_is_said_in_czech(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    four, five = render_tray(2024, 4).image, render_tray(2024, 5).image
    cv2.imwrite(str(photos / "0-blank.png"), np.full((480, 640, 3), 128, np.uint8))
    cv2.imwrite(str(photos / "1-blurred.png"), cv2.GaussianBlur(four, (0, 0), 6))
    cv2.imwrite(str(photos / "2-big-boggle.png"), five)
    chosen = box_settings(tmp_path, photos, "czech-boggle")
    shots = tmp_path / "shots"
    made, _clock, _ = build(
        tmp_path, photos, reader=VisionReader(), settings=chosen, screenshots=shots
    )
    assert made.referee.language == "cs"
    refused = []
    for _photo in range(3):
        tap(made)
        assert made.referee.state is State.IDLE
        made.box.draw()
        refused.append(made.box.screen.shown.message)
    try_again = say("try-again", "cs", error="")
    assert all(message.endswith(try_again) for message in refused), refused
    assert refused[0].startswith("Na fotce nejsou vidět žádné kostky")
    assert refused[1].startswith("Fotka je příliš rozmazaná")
    assert refused[2].startswith("Na fotce je podnos 5x5, ale Český Boggle se hraje na 4x4")
    said = said_on_screens(shots)
    assert all(any(message in text for text in said) for message in refused)
    no_english(said)
    made.close()


def test_a_full_and_a_damaged_store_are_said_in_czech_on_the_screen_and_phones(tmp_path, photos):
    store = tmp_path / "store"
    store.mkdir()
    (store / "matches.db").write_bytes(b"this is not a database" * 200)
    chosen = box_settings(tmp_path, photos, "czech-boggle")
    chosen["page"].update(enabled=True, port=0)
    shots = tmp_path / "shots"
    reader = ListReader([tray_reading(BOARD, game="czech-boggle")])
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen, screenshots=shots)
    made.box.draw()
    damaged = made.box.screen.shown.notice
    assert damaged.startswith("Úložiště zápasů bylo poškozené (") and "začalo se nové" in damaged
    phones = Phones(made.referee)
    token, _name = phones.join("Ann", "", "")

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    made.store.writer = full
    made.store.db = FullDatabase(made.store.db)  # the card fills up
    tap(made)
    assert made.referee.state is State.TIMING
    made.box.draw()
    notice = made.box.screen.shown.notice
    assert say("disk-full", "cs") in notice and "Disk je plný" in notice
    url = f"http://127.0.0.1:{made.page.port}/"
    status, answer = post(
        url, "word", {"code": made.referee.join_code, "token": token, "word": "kolo"}
    )
    assert status == 409 and answer["error"] == say("disk-full", "cs")
    run_out_the_clock(made, clock)
    said = said_on_screens(shots)
    shown = damaged.split(";")[0]  # the band ends the long sentence with "…" on the screen
    assert any(shown in text for text in said) and any("Disk je plný" in t for t in said)
    no_english(said, r"file is not a database", r"matches\.db\S*")
    made.close()


def test_the_readers_warnings_and_the_engines_reasons_are_said_in_czech(tmp_path, photos):
    roll = "M O N E Y S T E B U J O Q"
    grid = ("MONEY", "...BQ")  # BQ, EB and YQ are no words
    warnings = (
        "Found 12 cubes where adlib has 13; check the photo.",
        "The crossword lies upside down to the camera (as its letters show); it is read "
        "the right way up.",
        "The cube at (320, 240) read as Q with confidence 0.41; check it.",
    )
    crossword = dataclasses.replace(loose_reading(roll, grid=grid), warnings=warnings)
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen["players"] = ["Ann"]  # solitaire: no roll-off for who starts
    chosen["box"]["language"] = "cs"  # Ad-Lib's words are English; this table speaks Czech
    shots = tmp_path / "shots"
    reader = ListReader([loose_reading(roll)], [crossword])
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen, screenshots=shots)
    tap(made)
    run_out_the_clock(made, clock)
    tap(made)
    assert made.referee.state is State.SCORED
    assert not made.referee.round.verdict.valid
    shown = made.box.draw()
    assert shown.message.startswith(
        "Nalezeno kostek: 12, ale Ad-Lib Crossword Cubes jich má 13; zkontroluj fotku. "
        "Křížovka leží vůči kameře vzhůru nohama (jak ukazují její písmena)"
    )
    assert "Kostka na (320, 240) je přečtená jako Q s jistotou 0.41" in shown.message
    lines = [str(line) for line in shown.lines]
    assert "BQ (vodorovně od řádku 2, sloupce 4) není anglické slovo." in lines
    assert "YQ (svisle od řádku 1, sloupce 5) není anglické slovo." in lines
    no_english(said_on_screens(shots))
    made.close()


def test_a_camera_that_gives_no_picture_is_said_in_czech(tmp_path, photos):
    chosen = box_settings(tmp_path, photos, "czech-boggle")
    made, clock, _ = build(tmp_path, photos, settings=chosen)
    made.close()
    chosen["camera"].update(backend="usb", usb_index=63)  # opened on first use
    again, _, _ = build(tmp_path, photos, clock=clock, settings=chosen)
    tap(again)
    assert again.referee.state is State.IDLE
    message = again.box.draw().message
    assert message.startswith("USB kamera číslo 63 není připojená; připoj ji.")
    again.close()


def test_the_box_says_a_sentence_it_finds_in_czech_with_its_parts_in_czech():
    assert translated(
        "The photo shows a 4x4 tray of 16 cubes (a Boggle or Czech Boggle tray), not the 13 "
        "loose adlib cubes; read it as its game, or photograph the adlib cubes on the table "
        "without a tray.",
        "cs",
    ) == (
        "Na fotce je podnos 4x4 s 16 kostkami (podnos hry Boggle nebo Český Boggle), ne 13 "
        "volných kostek hry Ad-Lib Crossword Cubes; přečti fotku pro hru toho podnosu, nebo "
        "vyfoť kostky hry Ad-Lib Crossword Cubes na stole bez podnosu."
    )
    pieces = "The cubes lie in 3 pieces apart (8, 2 and 3 cubes), and only one of them can be"
    assert "po 8, 2 a 3 kostkách" in translated(
        f"{pieces} the crossword: push its cubes together and the others apart from it, then "
        "take the photo again.",
        "cs",
    )
    assert translated(
        "GONNA (across from row 1, column 2) is slang, which the rulebook does not allow.", "cs"
    ) == ("GONNA (vodorovně od řádku 1, sloupce 2) je slang, což pravidla nedovolují.")
    assert "(řádek 1, sloupec 3, řádek 2, sloupec 1)" in translated(
        "No letter makes every word through the joker (row 1, column 3, row 2, column 1) a "
        "word, so this crossword does not score; check the photo or give the grid with --grid.",
        "cs",
    )
    # A size said twice is the same size both times: another sentence is none of the table's.
    odd = "The photo shows a 4x5 tray but boggle is played on 4x4; choose the game that matches"
    assert key_of(f"{odd} the tray.") is None


@cache
def sources() -> str:
    """Every string vision writes, with each field as ``{}``: implicit concatenations
    joined, as Python joins them."""
    found = []
    for path in (ROOT / "vision").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                parts = node.values
                found.append(
                    "".join(p.value if isinstance(p, ast.Constant) else "{}" for p in parts)
                )
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append(node.value)
    return "\n".join(found)


def said_in_every_language(key: str, sentence: str) -> None:
    """``sentence`` is message ``key``'s English, and every language says it otherwise."""
    found = key_of(sentence)
    assert found is not None and found[0] == key, (sentence, found)
    for language in languages():
        if language != "en":
            assert translated(sentence, language) != sentence, (key, language)


@pytest.mark.parametrize("key", VISION)
def test_each_sentence_of_the_reader_is_its_own_and_in_every_language(key):
    english = table()[key]["en"]
    longest = max(re.split(r"\{\w+\}", english), key=len).strip(" .")
    assert longest in sources(), f"{key}: vision no longer says {longest!r}"
    given = {name: str(k + 2) for k, name in enumerate(re.findall(r"\{(\w+)\}", english))}
    said_in_every_language(key, english.format(**given))


def test_each_reason_the_engine_gives_for_a_crossword_is_in_every_language():
    english = Lexicon.open("en")
    money, joker = Roll.parse("M O N E Y S T E B U J O Q"), Roll.parse(ROLLS[3])
    said = {}
    for roll, rows in (
        (money, ("MONEY", ".....", "BUT..")),
        (money, ("MONNEY",)),
        (money, ("QAA",)),
        (money, ("X",)),
        (money, ("GONNA",)),
        (money, ("MONEy",)),
        (money, ("MONEy", "....o")),
        (joker, ("BAKEd", "....o")),
    ):
        for error in referee(roll, Grid.from_rows(rows), english).errors:
            found = key_of(error)
            assert found is not None, error
            said[found[0]] = error
    with pytest.raises(RuleError) as raised:
        settle_jokers(["QX*"], english)
    said["joker-no-letter"] = str(raised.value)
    for roll in ("A B", "M O N E Y S T E B U J O *", "Q Q E E E E E E E E E E E"):
        with pytest.raises(RuleError) as raised:  # a roll misread: no cubes show it
            Roll.parse(roll)
        found = key_of(str(raised.value))
        assert found is not None, raised.value
        said[found[0]] = str(raised.value)
    assert set(said) == set(ENGINE)
    for key, sentence in said.items():
        said_in_every_language(key, sentence)


def test_a_fallback_the_box_takes_is_said_in_czech():
    notices: list[str] = []

    def pulled() -> None:
        raise MachineError(say("no-usb-camera", index=0))

    first_working("camera", [("usb", pulled), ("folder", lambda: None)], notices)
    assert notices == [
        "Using the folder camera: usb: There is no USB camera number 0; plug one in."
    ]
    assert translated(notices[0], "cs").startswith("Používá se kamera folder: usb:")
    dummy = translated("Using the dummy screen: kmsdrm: no display.", "cs")
    assert dummy == "Používá se náhradní obrazovka (dummy): kmsdrm: no display."


class NoCrosswordReader(ListReader):
    """A crossword photo that shows no crossword (the cubes lie apart)."""

    def read_crossword(self, image, game, lexicon=""):
        raise NoCrossword()


def test_a_crossword_photo_the_box_cannot_score_is_said_in_czech(tmp_path, photos):
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen["players"] = ["Ann"]
    chosen["box"]["language"] = "cs"
    reader = NoCrosswordReader([loose_reading("M O N E Y S T E B U J O Q")])
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen)
    tap(made)
    run_out_the_clock(made, clock)
    tap(made)
    assert made.referee.state is State.TIME_UP
    assert made.box.draw().message == say("try-again", "cs", error=say("no-crossword", "cs"))
    assert made.referee.message.startswith("Na fotce není žádná křížovka: polož kostky")
    made.close()


def test_a_typed_line_the_engine_refuses_at_once_is_said_in_czech():
    # The engine makes its reason a sentence of its own: "Not a word: C4T has digits ...".
    for typed, czech in (
        ("c4t", "Není slovo: c4t obsahuje číslice a slova jsou jen z písmen."),
        ("two words", "Není slovo: two words je víc slov; piš jedno slovo na řádek."),
    ):
        with pytest.raises(NotationError) as refused:
            normalize_word(typed)
        assert translated(str(refused.value), "cs") == czech
        assert translated(str(refused.value), "en") == str(refused.value)
    assert translated("Not a word: XYZ", "cs") == "Není slovo: XYZ"  # the live screen's
