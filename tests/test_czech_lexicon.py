"""The committed Czech lexicon, its expansion from hunspell-cs, and the Czech cube set."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from device.cli import main
from engine.build import czech, czech_cubes, freedict
from engine.build.hunspell import AffixFile, expand_entry
from engine.build.wordnet import Sense, WordNet
from engine.cubes import CubeSet
from engine.games import find_game
from engine.house import HouseList
from engine.lexicon import Lexicon, fold
from engine.notes import Notes
from engine.referee import check

CS_AFF = czech.HUNSPELL / "cs_CZ.aff"

# Every case of kočka (hand-checked against a Czech grammar and accepted by hunspell).
KOCKA = "kočka kočky kočce kočku kočko kočkou kočkám kočkách kočkami koček"


@pytest.fixture(scope="module")
def cs() -> Lexicon:
    return Lexicon.open("cs")


def test_the_card_records_size_source_and_licence(cs: Lexicon) -> None:
    assert cs.card.language == "cs"
    assert 3_000_000 < len(cs) < 3_600_000
    assert "hunspell-cs" in cs.card.source
    assert cs.card.licence.startswith("GPL-2") and "Pavel Janík" in cs.card.licence


def test_inflected_forms_with_diacritics_are_there(cs: Lexicon) -> None:
    for word in KOCKA.split():
        assert word in cs, word
    for word in ["nejnovější", "otcova", "otcových", "kůň", "koně", "být", "byt", "příliš"]:
        assert word in cs, word
    assert {"byt", "být", "byť"} == set(cs.spellings("byt"))
    assert "kočka" in cs.spellings(fold("kočka"))


def test_forms_hunspell_rejects_are_not(cs: Lexicon) -> None:
    # Checked with `hunspell -l -d cs_CZ`: wrong endings, nej- without a comparative,
    # a prefix the stem does not take, forms the .aff marks FORBIDDENWORD.
    for word in ["kočkamy", "kočkoví", "nekočka", "nejnový", "nenovější", "hrušk", "huleme"]:
        assert word not in cs, word


def test_proper_names_abbreviations_and_foreign_letters_are_left_out(cs: Lexicon) -> None:
    names = ["praha", "praze", "prahou", "novák", "nováka", "karel", "karla", "brno", "brnem"]
    for word in [*names, "aacr", "atd", "km", "kg", "tbc"]:
        assert word not in cs, word
    assert "Praha" not in cs and "Kočka" not in cs


def test_keep_rules() -> None:
    assert [czech.keep(w) for w in ["vlk", "smrt", "km", "Brno", "a-b", "ne.", "x2", "ölo"]] == [
        True,
        True,
        False,
        False,
        False,
        False,
        False,
        False,
    ]


@pytest.mark.skipif(not CS_AFF.is_file(), reason="hunspell-cs is not installed")
def test_real_rules_on_hand_checked_stems() -> None:
    aff = AffixFile.read(CS_AFF)
    assert expand_entry("kočka/ZQ", aff) == set(KOCKA.split())
    otec = expand_entry("otec/U", aff)
    assert {"otec", "otce", "otci", "otče", "otcem", "otců", "otcům", "otcích"} <= otec
    assert {"otcův", "otcova", "otcovu", "otcových", "otcovými"} <= otec  # possessive, twofold
    assert expand_entry("být/IN", aff) == {"být", "býti", "nebýt", "nebýti"}
    nový = expand_entry("nový/YKR", aff)
    assert {"nový", "nová", "nového", "novými", "novost", "novostmi"} <= nový
    assert not any(word.startswith("nej") for word in nový)  # no y flag, so no nej-


# --- the Czech cube set ---------------------------------------------------------


@pytest.fixture(scope="module")
def dice() -> CubeSet:
    return CubeSet.load("czech-boggle")


def test_the_committed_set_is_what_the_script_makes() -> None:
    committed = Path(czech_cubes.__file__).parents[1] / "data" / "cubes" / "czech-boggle.txt"
    assert committed.read_text(encoding="utf-8") == czech_cubes.cube_set_text()


def test_sixteen_dice_of_six_different_letters(dice: CubeSet) -> None:
    assert find_game("czech-boggle").cube_set() == dice
    assert len(dice.dice) == 16
    for die in dice:
        letters = [face.symbol for face in die.faces]
        assert len(letters) == 6 and len(set(letters)) == 6
        assert not {"C", "H"} <= set(letters)  # CH is traced across two cubes
        assert 2 <= sum(letter in "AEIOUY" for letter in letters) <= 3
    assert dice.title and "Králík" in dice.source


def test_faces_follow_the_frequency_table_within_rounding(dice: CubeSet) -> None:
    faces = Counter(face.symbol for die in dice for face in die.faces)
    assert sum(faces.values()) == 96
    quotas = czech_cubes.quotas()
    assert set(faces) == set(quotas)  # every letter that matters, and no Q, W, X
    assert not {"Q", "W", "X"} & set(faces)
    for letter, quota in quotas.items():
        assert faces[letter] in (math.floor(quota), math.ceil(quota)), letter
    # The quotas are the folded table's proportions (F and G, the rare ones, get one).
    share = czech_cubes.folded_percent()
    assert share["C"] == pytest.approx(1.6067 + 0.9490 + 1.1709)  # c + č + ch
    assert share["E"] == pytest.approx(7.6952 + 1.3346 + 1.6453)  # e + é + ě
    common = {letter: q for letter, q in quotas.items() if letter not in "FG"}
    ratio = {letter: q / share[letter] for letter, q in common.items()}
    assert max(ratio.values()) == pytest.approx(min(ratio.values()))
    assert faces["E"] > faces["O"] >= faces["A"] > faces["N"] > faces["B"]


def test_no_two_dice_share_more_than_three_letters(dice: CubeSet) -> None:
    sets = [{face.symbol for face in die.faces} for die in dice]
    assert max(len(a & b) for a, b in combinations(sets, 2)) <= 3
    assert len({frozenset(s) for s in sets}) == 16


def _czech_rows() -> list[tuple[str, str, str]]:
    lines = (Path(__file__).with_name("czech_words.tsv")).read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


@pytest.mark.parametrize(("word", "ruling", "kind"), _czech_rows())
def test_each_czech_word_is_ruled_as_the_rulebook_says(
    cs: Lexicon, word: str, ruling: str, kind: str
) -> None:
    result = check(word, None, find_game("czech-boggle"), cs, min_length=1)
    got = "counts" if result.valid else result.refusal
    assert got == ruling, (word, kind, result.reason)


def test_both_forms_and_spellings_come_from_general_rules() -> None:
    words = {"mažou", "mažu", "mažeš", "maže", "růžou", "teozofie"}
    assert czech.second_forms(words) == {"maží", "maži"}
    assert czech.variant_spellings(words) == {"teosofie"}


def test_a_stem_is_offensive_only_where_both_sources_say_so() -> None:
    listed = czech.offensive_list()
    assert {"hovno", "kurva", "žrát"} <= listed and not any(" " in w for w in listed)
    marked = freedict.marked_words("shit\n [vulg] hovno\nbitch <n>\n [vulg] kráva (žena)\n")
    assert marked == {"hovno", "kráva", "žena"}
    assert czech.offensive({"hovno", "hovna"}, listed, marked)
    assert not czech.offensive({"kráva", "krávy"}, listed, marked)  # FreeDict alone
    assert not czech.offensive({"žrát", "žere"}, listed, marked)  # LDNOOBW alone


def test_a_slur_is_what_freedict_marks_vulgar_for_an_english_slur() -> None:
    slur = Sense(
        "n", "x", frozenset({"06718862"}), "(ethnic slur) offensive term for a Black person"
    )
    vulgar = Sense("n", "x", frozenset(), "obscene terms for female genitals")
    cat = Sense("n", "x", frozenset(), "a domestic cat")
    wordnet = WordNet.__new__(WordNet)
    wordnet.senses = {"nigger": [slur], "pussy": [vulgar, cat]}
    found = czech.slurs({"nigger": {"negr"}, "pussy": {"vagína", "pochva"}}, wordnet)
    assert found == {"negr"}
    assert czech.offensive({"negr", "negři"}, set(), set(), found)  # one list is enough here
    assert not czech.offensive({"vagína"}, set(), {"vagína"}, found)


@pytest.mark.skipif(
    not freedict.CZECH_DICTIONARY.is_file(), reason="dict-freedict-eng-ces is missing"
)
def test_freedict_marks_the_translations_of_english_words() -> None:
    translations = freedict.marked_translations()
    assert translations["nigger"] == {"negr"} and {"hovno", "sračka"} <= translations["shit"]
    assert "kráva" in translations["bitch"] and "fena" not in translations["bitch"]


@pytest.mark.skipif(
    not freedict.CZECH_DICTIONARY.is_file(), reason="dict-freedict-eng-ces is missing"
)
def test_freedict_marks_the_vulgar_senses_of_english_words() -> None:
    vulgar = freedict.vulgar_words()
    assert {"hovno", "prdele", "kunda", "šoustat", "kráva", "vagína"} <= vulgar
    assert not {"prdel", "osel", "fena"} & vulgar  # ass, bitch: translations not marked


def test_offensive_czech_words_are_refused_unless_the_table_allows_them(
    cs: Lexicon,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = find_game("czech-boggle")
    refused = check("hovno", None, game, cs)
    assert refused.refusal == "offensive" and "hovno" not in cs and "hovnem" not in cs
    allowed = check("hovno", None, game, cs, house=HouseList("cs", offensive=True))
    assert allowed.valid and allowed.by_table
    assert not check("praha", None, game, cs, house=HouseList("cs", offensive=True)).valid
    card = Notes.open(cs).card
    assert card["refused_in_plain_letters"]["offensive"] >= 50  # type: ignore[index]
    assert "FreeDict" in cs.card.source and "LDNOOBW" in cs.card.source
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    config = tmp_path / "box.toml"
    config.write_text('[words]\noffensive = "allow"\n', encoding="utf-8")
    argv = ["check", "kunda", "--game", "czech-boggle", "--house", "--config", str(config)]
    assert main(argv) == 0
    assert capsys.readouterr().out == "kunda: valid, 2 points (allowed by this table)\n"
