"""``cuberef history`` in the box's language (``[box] language``, else the game's): a Czech
Boggle match read back on a Czech box says everything in Czech, each word as the score
screen said it (the spelling it counted as, the table's own rulings), and marks in the
JSON the words the table's ruling decided and who typed each word."""

from __future__ import annotations

import contextlib
import csv
import io
import json

from device.base.strings import say
from device.cli import main
from device.page.phones import Phones
from device.referee.flow import State

from .conftest import ListReader, tray_reading
from .test_evening import assert_czech
from .test_history import assert_the_words_add_up
from .test_language import BOARD, unaccented_word
from .test_round import box_settings, build, run_out_the_clock, tap


def printed(*arguments: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["history", *arguments]) == 0
    return out.getvalue()


def test_a_czech_match_reads_back_in_czech_with_its_spellings_and_the_table_s_rulings(
    tmp_path, photos
):
    chosen = box_settings(tmp_path, photos, "czech-boggle")
    chosen["page"].update(enabled=True, port=0, keyboard_player="Cy")
    chosen["rounds"] = 1
    reader = ListReader([tray_reading(BOARD, game="czech-boggle")])
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen)
    phones = Phones(made.referee)
    token, _name = phones.join("Ann", "", "")
    tap(made)
    assert made.referee.state is State.TIMING
    typed, counted = unaccented_word()  # AMURI, counted as amuři
    for word in (typed, "pivo", "xyz"):
        phones.hand_in(token, word, False)
    made.box.type_text("pivo", enter=True)  # Cy has it too: crossed off
    phones.dispute(token, "pivo", None)  # Ann challenges PIVO; the button allows it
    run_out_the_clock(made, clock)
    assert made.referee.state is State.DISPUTED
    tap(made)
    assert made.referee.state is State.SCORED
    screen = [str(line) for line in made.box.screen.shown.lines]
    tap(made)
    assert made.referee.state is State.MATCH and made.referee.match.ended
    made.close()
    config = tmp_path / "box.toml"
    config.write_text(
        f"game = 'czech-boggle'\n[store]\nfolder = '{tmp_path / 'store'}'\n", encoding="utf-8"
    )
    text = printed("--config", str(config))
    store, text = text.split("\n", 1)
    assert store == f"Úložiště: {tmp_path / 'store' / 'matches.db'}"
    assert_czech(text, "cuberef history on a Czech box")
    said = [
        f"{typed.upper()} ({counted}) ",  # the spelling it counted as
        f"PIVO ({say('allowed-by-table', 'cs')}) {say('status-crossed-off', 'cs')}",
        f"XYZ {say('status-not-on-board', 'cs')}",
    ]
    for word in said:
        assert word in text, (word, text)
    shown = [line for line in screen if line.startswith(("AMURI", "PIVO", "XYZ"))]
    assert len(shown) >= 3
    for line in shown:  # each word as the score screen said it
        assert line.replace("  ", " ") in text, (line, text)
    for czech in (
        "Zápas 1: Český Boggle",
        "Kolo 1 z 1: KOLO/ROSA/MELE/PIVO",
        "Pořadí:",
        "Ann: hráno 1",
    ):
        assert czech in text, czech
    document = json.loads(printed("--config", str(config), "--json"))
    assert_the_words_add_up(document)
    [done] = document["matches"][0]["rounds"]
    words = {(w["word"], w["by"]): w for side in done["sides"] for w in side["words"]}
    assert words[(typed, "Ann")]["counted"] == [counted]
    assert words[("pivo", "Ann")]["by_table"] and words[("pivo", "Cy")]["by_table"]
    assert not words[(typed, "Ann")]["by_table"] and words[("xyz", "Ann")]["counted"] == []
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["history", "--config", str(config), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [row["by_table"] for row in rows] == ["pivo", "pivo"]  # Ann's, and Cy's
    english = tmp_path / "english.toml"  # the same store on a box set to English
    english.write_text(config.read_text().replace("[store]", "[box]\nlanguage = 'en'\n[store]"))
    assert "Match 1: Czech Boggle" in printed("--config", str(english))
