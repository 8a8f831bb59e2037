"""The box in the table's language: ``[box] language`` (by default the game's: Czech for
Czech Boggle) says every screen line, every answer of the players' page and every reason
a word is refused in it, from one table of strings a translator fills in; the spelling
that counted is shown beside the one typed (AMURI (amuři))."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pygame
import pytest

from device.base.strings import PLURALS, key_of, languages, page_texts, say, table, translated
from device.box.assemble import page_refused
from device.cli import main
from device.config.sections import Settings
from device.config.settings import overlay, problems
from device.draw.paint import SMALLEST, font
from device.page.phones import Phones
from device.referee.flow import State
from engine.board import Board
from engine.games import find_game
from engine.lexicon import Lexicon, fold
from engine.referee import check
from engine.solver import solve

from .conftest import ListReader, tray_reading
from .test_page import post
from .test_round import box_settings, build, run_out_the_clock, tap
from .test_screens_readable import Shots, readable

DEVICE = Path(__file__).resolve().parents[2] / "device"
BOARD = "KOLO/ROSA/MELE/PIVO"
#: Fields a language may use beside the English ones: a count's noun worked out of its
#: number, and the numbers the box gives beside their counts (Czech says "z 3", not "3 kola").
DERIVED = {"letters", "words", "points", "played", "agreed"}


def fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_the_translators_table_has_every_message_in_every_language():
    spoken = {language for lines in table().values() for language in lines}
    for key, lines in table().items():  # a language begun is a language finished
        missing = spoken - set(lines)
        assert not missing, f"{key} has no line in {', '.join(sorted(missing))}"
        english = fields(lines["en"])
        for language, text in lines.items():
            assert fields(text) <= english | DERIVED, (key, language)
            if "|" in lines["en"]:  # a count: a form for each the language tells apart
                forms = {PLURALS[language](n) for n in range(30)}
                assert len(text.split("|")) == len(forms), (key, language)
    assert {"en", "cs"} <= spoken == set(languages())
    used = {
        key
        for path in DEVICE.rglob("*.py")
        for key in re.findall(r"(?<![.\w])say\(\s*\"([\w-]+)\"", path.read_text(encoding="utf-8"))
    }
    assert used and used <= set(table()), used - set(table())
    for status in ("valid", "crossed-off", "not-on-board", "not-a-word", "too-short"):
        assert f"status-{status}" in table()


def test_the_players_page_finds_every_word_it_asks_for_in_the_table():
    page = DEVICE / "data" / "page"
    script, html = (page / "page.js").read_text(), (page / "index.html").read_text()
    asked = set(re.findall(r"\bt\(\"(\w+)\"\)", script))
    asked |= set(re.findall(r'data-(?:text|placeholder)="(\w+)"', html))
    asked |= {"waiting", "typing", "locked", "scored", "disputed", "allowed", "refused"}
    for language in languages():  # the phases and rulings the box sends, by their names
        given = page_texts(language)
        assert asked <= set(given), asked - set(given)
        assert all(given[key] for key in asked)


def test_the_screen_font_draws_every_czech_letter():
    pygame.font.init()
    for key, lines in table().items():
        drawn = font(28).metrics(lines["cs"])
        assert all(glyph is not None for glyph in drawn), key
    assert all(font(28).metrics("ěščřžýáíéúůďťňó ĚŠČŘŽÝÁÍÉÚŮĎŤŇÓ"))


def test_an_english_sentence_is_said_in_czech_with_its_fields():
    for key, lines in table().items():
        if "|" in lines["en"]:
            continue
        given = {name: f"X{k}" for k, name in enumerate(sorted(fields(lines["en"])))}
        english = lines["en"].format(**given)
        found = key_of(english)
        assert found is not None, key
        if found[0] == key:
            assert translated(english, "en") == english
    assert translated("too short: Czech Boggle words need at least 5 letters", "cs") == (
        "příliš krátké: slova mají mít aspoň 5 písmen"
    )
    said = translated("not a word: it could be kůra, kura or kúra, so write it with its", "cs")
    assert said.startswith("not a word")  # not one of the table's: as it is
    assert translated("not a word: it could be kůra or kúra, so write it with its diacritics", "cs")


def test_the_language_is_the_games_unless_set_and_a_wrong_one_is_named(tmp_path, capsys):
    assert Settings().language == "en"
    assert overlay(Settings(), {"game": "czech-boggle"}).language == "cs"
    assert overlay(Settings(), {"game": "czech-boggle", "box": {"language": "en"}}).language == "en"
    assert overlay(Settings(), {"box": {"language": "cs"}}).language == "cs"
    assert problems({"box": {"language": "de"}}) == [
        "[box] language = 'de' must be one of en, cs, or empty for the game's."
    ]
    config = tmp_path / "box.toml"
    config.write_text('[box]\nlanguage = "klingon"\n')
    assert main(["config", "--check", "--config", str(config)]) == 2
    assert "[box] language = 'klingon'" in capsys.readouterr().err


def unaccented_word() -> tuple[str, str]:
    """A Czech word on the board that counts, written without its diacritics, as one
    spelling with them: (as typed, as counted)."""
    game = find_game("czech-boggle")
    board, lexicon = Board.parse(BOARD), Lexicon.open("cs")
    for found in sorted(solve(board, game, lexicon), key=lambda w: w.word):
        typed = fold(found.word)
        ruling = check(typed, board, game, lexicon)
        if typed != found.word and ruling.status == "valid" and len(ruling.spellings) == 1:
            return typed, ruling.spellings[0]
    raise AssertionError("no such word on the board")


def english_pieces() -> set[str]:
    """The English text of every message that Czech says otherwise: each piece of it
    between its fields long enough to be English on its own."""
    pieces = set()
    for lines in table().values():
        if lines["en"] == lines["cs"]:
            continue
        for form in lines["en"].split("|"):
            for piece in re.split(r"\{\w+\}", form):
                piece = piece.strip(" .:;,()_·")
                if len(piece) >= 5 and piece not in lines["cs"]:
                    pieces.add(piece)
    return pieces


def test_a_czech_boggle_match_says_everything_in_czech(tmp_path, photos):
    chosen = box_settings(tmp_path, photos, "czech-boggle")
    chosen["page"].update(enabled=True, port=0, keyboard_player="Cy")
    chosen["rounds"] = 1
    reader = ListReader([tray_reading(BOARD, game="czech-boggle")])
    shots = tmp_path / "shots"
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen, screenshots=shots)
    assert made.referee.language == "cs"
    pictures = Shots()
    pictures.watch(made)
    made.referee.say("page", page_refused(8080, OSError(98, "Address already in use")))
    url = f"http://127.0.0.1:{made.page.port}/"
    status, answer = post(url, "join", {"code": "ZZZZ", "name": "Eve"})
    assert status == 403 and answer["error"] == say("wrong-code", "cs")
    phones = Phones(made.referee)
    token, _name = phones.join("Ann", "", "")
    with pytest.raises(Exception) as refused:
        phones.hand_in(token, "kolo", False)
    assert str(refused.value) == say("no-round")  # English inside; the page says it in Czech
    status, answer = post(
        url, "word", {"code": made.referee.join_code, "token": token, "word": "kolo"}
    )
    assert status == 409 and answer["error"] == "Žádné kolo neběží: počkej na odpočet."
    made.box.draw()
    tap(made)
    assert made.referee.state is State.TIMING
    typed, counted = unaccented_word()
    for word in (typed, "pivo", "xyz", "ko"):
        shown = phones.hand_in(token, word, False)
        if word in ("xyz", "ko"):  # refused: why, in Czech
            assert shown["why"] == translated(shown["why"], "cs") != ""
            assert shown["why"].startswith(("není na kostkách", "příliš krátké")), shown
    made.box.type_text("pivo", enter=True)
    challenged = phones.dispute(token, "pivo", None)["dispute"]  # Ann challenges PIVO
    assert challenged["verdict"] == "PIVO platí: je v seznamu slov"
    assert challenged["definition"].startswith("cuberef nemá výklady českých slov")
    run_out_the_clock(made, clock)
    assert made.referee.state is State.DISPUTED  # the table rules: the button allows it
    tap(made)
    assert made.referee.state is State.SCORED
    for _page in range(3):
        clock.advance(5)
        made.box.step()
    tap(made)
    assert made.referee.state is State.MATCH and made.referee.match.ended
    for path, where in pictures.saved:  # each text drawn is on the PNG, at 28 px or more
        texts = readable(pygame.image.load(str(path)), where)
        assert min(text.size for text in texts) >= SMALLEST, path.name
        whole = {lines["cs"] for lines in table().values()}  # "Čtu kostky…" is not cut short
        assert not any("…" in t.text and t.text not in whole for t in texts), path.name
    journal = [json.loads(line) for line in (shots / "screens.jsonl").read_text().splitlines()]
    states = {entry["state"] for entry in journal}
    assert {"idle", "reading", "timing", "disputed", "scoring", "scored", "match"} <= states
    english = english_pieces()
    for entry in journal:
        said = " ".join(entry["text"])
        left = [piece for piece in english if piece in said]
        assert not left, (entry["file"], left, said)
    every = " ".join(text for entry in journal for text in entry["text"])
    assert f"{typed.upper()} ({counted})" in every  # the spelling that counted, beside
    for czech in (
        "Stiskni tlačítko",
        "Telefony:",
        "Český Boggle · kolo 1 z 1",
        "napadl(a) Ann",
        "škrtnuto",
    ):
        assert czech in every, czech
    assert "Stránka hráčů nemůže otevřít port 8080" in every  # a notice too
    assert "není na kostkách" in every and ("Vítěz: " in every or "Remíza: " in every)
    made.close()


def test_every_refusal_class_of_the_engine_is_said_in_every_language():
    # A class the engine adds (offensive, foreign, phrase) must reach the phones in words.
    from engine.referee import REFUSALS

    for refusal in REFUSALS:
        lines = table()[f"refusal-{refusal}"]
        assert set(lines) >= set(languages()), refusal
