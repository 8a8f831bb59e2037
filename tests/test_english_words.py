"""The English list keeps the rulebooks: a test list of words that must count and words
that must not, each with the reason it is refused; the list's build; its notes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from device.cli import main
from engine.build import english
from engine.build.wordnet import Sense
from engine.games import find_game
from engine.house import HouseList
from engine.lexicon import Lexicon
from engine.notes import Notes
from engine.referee import NOT_IN_LIST, REFUSALS, check, refusal_reason

WORDS = Path(__file__).with_name("english_words.tsv")


def _rows() -> list[tuple[str, str, str]]:
    lines = WORDS.read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


@pytest.fixture(scope="module")
def en() -> Lexicon:
    return Lexicon.open("en")


def test_the_list_is_big_enough_and_covers_every_kind() -> None:
    rows = _rows()
    rulings = Counter(ruling for _, ruling, _ in rows)
    assert rulings["counts"] >= 150 and sum(rulings.values()) - rulings["counts"] >= 150
    assert set(rulings) - {"counts"} == {
        "slang", "contraction", "fragment", "abbreviation", "proper-noun", "hyphen",
        "offensive", "foreign", "phrase", "prefix", "not-in-list",
    }  # fmt: skip
    kinds = {kind for _, ruling, kind in rows if ruling == "counts"}
    parts = "plurals, verb tenses, comparatives, nouns, verbs, adjectives, adverbs, pronouns"
    for part in [*parts.split(", "), "prepositions", "conjunctions", "interjections"]:
        assert any(kind.startswith(part) for kind in kinds), part
    assert len({word for word, _, _ in rows}) == len(rows)


@pytest.mark.parametrize(("word", "ruling", "kind"), _rows())
def test_each_word_is_ruled_as_the_rulebook_says(
    en: Lexicon, word: str, ruling: str, kind: str
) -> None:
    result = check(word, None, find_game("adlib"), en, min_length=1)
    if ruling == "counts":
        assert result.valid and result.reason == "", (word, result.reason)
    elif ruling == NOT_IN_LIST:
        assert not result.valid and result.refusal == NOT_IN_LIST, (word, result.reason)
    else:
        assert not result.valid and result.status == "not-a-word"
        assert result.refusal == ruling, (word, result.reason)
        assert result.reason == refusal_reason(word, ruling)
        assert REFUSALS[ruling] in result.reason


def test_the_issues_measured_words_are_gone_with_their_reasons(en: Lexicon) -> None:
    board_free = find_game("boggle")
    for word in ("gonna", "wanna", "dunno", "ain"):
        assert word not in en
    assert check("gonna", None, board_free, en).reason == (
        "not a word: GONNA is slang, which the rulebook does not allow"
    )
    assert check("ain", None, board_free, en).reason.endswith(
        "AIN is part of a contraction, which the rulebook does not allow"
    )
    assert check("qzxv", None, board_free, en).reason == (
        "not a word: QZXV is not in the English word list"
    )


def test_the_tables_ruling_comes_before_the_list(en: Lexicon) -> None:
    game = find_game("boggle")
    house = HouseList("en").allow("gonna").refuse("cats")
    allowed = check("gonna", None, game, en, house=house)
    assert allowed.valid and allowed.reason == "allowed by this table" and allowed.by_table
    refused = check("cats", None, game, en, house=house)
    assert not refused.valid and refused.refusal == "table" and refused.by_table
    assert refused.reason == "not a word: CATS is refused by this table"
    assert check("cats", None, game, en, house=house.forget("cats")).valid


def test_the_card_counts_each_excluded_class(en: Lexicon) -> None:
    card = Notes.open(en).card
    assert card["after"] == len(en) and 127_000 < card["before"] < 130_000
    excluded = {row["class"]: row["words"] for row in card["excluded"]}  # type: ignore[attr-defined]
    assert set(excluded) == set(english.CLASSES) and excluded["slang"] >= 200
    assert excluded["offensive"] >= 100 and excluded["unconfirmed"] > 2_000
    assert card["after"] == card["before"] + card["inflections_added"] - card["removed_from_before"]
    removing = ("slang", "offensive", "abbreviation", "proper-noun", "fragment", "unconfirmed")
    assert sum(excluded[name] for name in removing) >= card["removed_from_before"] > 2_500
    assert "WordNet" in str(card["definitions_source"])
    folder = en.path.with_suffix("")
    assert "Princeton" in (folder / "wordnet-copyright.txt").read_text(encoding="utf-8")


def test_plurals_and_tenses_of_kept_words_are_in_even_from_scowls_rarer_sizes(
    en: Lexicon,
) -> None:
    for word in ("zymurgies", "abandonments", "acquitted", "alibis"):
        assert word in en, word
    for misspelt in ("acquited", "alibies"):  # SCOWL's size 80 has these beside the right ones
        assert misspelt not in en, misspelt


def test_inflections_of_the_reviewed_stems() -> None:
    assert english.inflected(["hoon"], ["hoons", "hooned", "hooning", "hook"]) == {
        "hoons",
        "hooned",
        "hooning",
    }
    assert "thru" in english.slang_list() and "thrust" not in english.inflected(
        ["thru"], ["thrust"]
    )


def test_definitions_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "cats", "gonna", "--define"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "cats: valid, 1 point"
    assert out[1].startswith("  CATS: a form of CAT (noun): feline mammal")
    assert out[2] == "gonna: not a word: GONNA is slang, which the rulebook does not allow"
    assert out[3] == "  WordNet 3.0 has no definition of GONNA."
    assert main(["check", "--game", "czech-boggle", "kočka", "--define", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert result["valid"] and result["definition"].startswith("cuberef has no Czech definitions")
    assert {"word", "valid", "reason", "points", "path"} <= set(result)


def test_house_list_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv("CUBEREF_CONFIG", str(tmp_path / "none.toml"))
    assert main(["lexicon", "house", "refuse", "Cats"]) == 0
    assert main(["lexicon", "house", "allow", "kocka", "--lang", "cs"]) == 0
    capsys.readouterr()
    assert main(["check", "cats", "--house", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert result["reason"] == "not a word: CATS is refused by this table"
    assert main(["lexicon", "house", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "language": "en",
        "allowed": [],
        "refused": ["cats"],
    }
    assert main(["lexicon", "house", "forget", "cats"]) == 0
    assert "it was refused by this table" in capsys.readouterr().out
    assert main(["check", "cats", "--house"]) == 0
    assert capsys.readouterr().out == "cats: valid, 1 point\n"
    assert main(["lexicon", "house", "list", "--lang", "cs"]) == 0
    assert "allowed by this table (cs): kocka" in capsys.readouterr().out
    for bad in (["allow"], ["allow", "c4t"], ["list", "cats"], ["allow", "kočka"]):
        assert main(["lexicon", "house", *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.rstrip().endswith(".")


def test_a_crosswords_refused_word_says_why(en: Lexicon) -> None:
    from engine.adlib import Grid, Roll, referee

    roll = Roll.parse("B G V A D L V W T T N I S", "adlib")
    verdict = referee(roll, Grid.from_rows([".GIB", "VAN.", ".W..", ".D.."]), en)
    assert verdict.errors == (
        "GAWD (down from row 1, column 2) is slang, which the rulebook does not allow.",
    )


def test_a_round_is_scored_with_the_tables_rulings() -> None:
    from engine.board import Board
    from engine.round import RoundRules, score_round

    board, game = Board.parse("TNTB/GDAR/ELTE/SISH"), find_game("boggle")
    lists = [("ann", ["dart", "slate"]), ("bob", ["rated", "zoo"])]
    house = HouseList("en").refuse("slate")
    result = score_round(board, game, lists, rules=RoundRules(house=house))
    ann = {entry.word: entry for entry in result.players[0].entries}
    assert ann["slate"].status == "not-a-word" and ann["slate"].points == 0
    assert ann["slate"].ruling.reason == "not a word: SLATE is refused by this table"
    assert result.players[0].score == 1


def test_offensive_words_are_refused_unless_the_table_allows_them(
    en: Lexicon,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = find_game("boggle")
    refused = check("kike", None, game, en)
    assert refused.refusal == "offensive" and "kike" not in en
    assert refused.reason == "not a word: KIKE is offensive, which the rulebook does not allow"
    allowed = check("kike", None, game, en, house=HouseList("en", offensive=True))
    assert allowed.valid and allowed.by_table
    assert not check("gonna", None, game, en, house=HouseList("en", offensive=True)).valid
    one = check("fuck", None, game, en, house=HouseList("en").allow("fuck"))
    assert one.valid and not check("kike", None, game, en, house=HouseList("en")).valid
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    config = tmp_path / "box.toml"
    config.write_text('[words]\noffensive = "allow"\n', encoding="utf-8")
    assert main(["check", "kike", "--house", "--config", str(config)]) == 0
    assert capsys.readouterr().out == "kike: valid, 1 point (allowed by this table)\n"
    config.write_text('[words]\noffensive = "maybe"\n', encoding="utf-8")
    assert main(["check", "kike", "--house", "--config", str(config)]) == 2
    assert "[words] offensive = 'maybe' must be one of refuse, allow." in capsys.readouterr().err


def test_a_word_and_its_forms_are_ruled_alike(en: Lexicon) -> None:
    for word, forms in {
        "app": "apps", "stat": "stats", "bio": "bios", "intro": "intros", "mag": "mags",
        "morph": "morphed morphs morphing", "math": "maths", "cafe": "cafes",
    }.items():  # fmt: skip
        assert word in en, word
        for form in forms.split():
            assert form in en, form


def test_accents_are_dropped_as_the_cubes_spell_a_word() -> None:
    assert english.unaccented("soufflé") == "souffle"
    assert english.unaccented("jalapeño's") == "jalapeno's"
    assert english.unaccented("Ångström") == "Ångström"  # a name keeps its capital


def test_the_rare_sizes_need_a_second_source(en: Lexicon) -> None:
    card = Notes.open(en).card
    assert "GCIDE" in str(card["confirmed_by"]) and "wfrench" in str(card["foreign_words_from"])
    folder = en.path.with_suffix("")
    for name in ("scowl", "wordnet", "gcide", "wfrench"):
        assert (folder / f"{name}-copyright.txt").is_file(), name
    # SCOWL's size 70 lists these; neither WordNet nor GCIDE does, so they went
    for word in ("stor", "gre", "sher", "dora", "oui", "quo"):
        assert word not in en, word
    # and these of the same size GCIDE has
    for word in ("stook", "ceorl"):
        assert word in en, word


_OBSCENE, _SLUR, _DISPARAGING = "07124340", "06718862", "06717170"


def _sense(gloss: str, *marks: str, file: str = "06") -> Sense:
    return Sense("n", "x", frozenset(marks), gloss, True, frozenset(), file)


def test_a_word_is_offensive_by_one_rule_over_wordnet_and_the_second_list() -> None:
    """Offensive where every sense is marked and one vulgar; or, where better_profanity's
    list has it, where its offensive senses are at least as many as its ordinary ones (an
    insult of a person being none); never on one source's word alone."""
    obscene = _sense("obscene terms for female genitals", _OBSCENE)
    insult = _sense("a man who is a stupid incompetent fool", file="18")
    ordinary = _sense("an irrigated or flooded field where rice is grown")
    slur = _sense("(ethnic slur) offensive term for a person of Irish descent", _SLUR)
    assert english.offensive_word([insult, obscene], listed=True)  # twat
    assert not english.offensive_word([insult, obscene], listed=False)
    assert english.offensive_word([obscene], listed=False)
    assert not english.offensive_word([slur, ordinary, ordinary], listed=True)  # paddy
    assert english.offensive_word([ordinary, slur], listed=True)  # gook
    assert not english.offensive_word([ordinary, insult], listed=True)  # bitch: no mark
    people = _sense("a disparaging term for a British person", _DISPARAGING)
    rustic = _sense("a disparaging term for an unsophisticated person", _DISPARAGING)
    assert people.offensive and not rustic.offensive  # pom is a slur, hillbilly is not
    assert english.offensive_word([people], listed=False)
    assert not english.offensive_word([rustic], listed=False)
