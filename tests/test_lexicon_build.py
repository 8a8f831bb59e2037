"""Building lexicons: hunspell affix expansion on tiny fixtures, and `cuberef lexicon`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from device.commands import lexicon as command
from engine.build.hunspell import AffixFile, _condition, expand_dictionary, expand_entry
from engine.lexicon import SUFFIX, Lexicon, available_lexicons, user_lexicon_folder

# Tiny rules in the shape of cs_CZ.aff, each line there for one tricky case.
CZECH_LIKE = """
SET UTF-8
FORBIDDENWORD !
NEEDAFFIX ?
PFX N Y 1
PFX N 0 ne .
PFX E Y 1
PFX E 0 nej .
PFX X N 1
PFX X 0 pra .
SFX K Y 2
SFX K ka ce ka
SFX K a ou a
SFX V Y 2
SFX V ý ější/E [bdmnptv]ý
SFX V ý ejší/E [lsz]ý
SFX P Y 1
SFX P ec cův/Y ec
SFX Y Y 2
SFX Y ův ova ův
SFX Y ův ovi ův
SFX T N 1
SFX T 0 s .
"""


@pytest.fixture(scope="module")
def aff() -> AffixFile:
    return AffixFile.parse(CZECH_LIKE)


def test_strip_and_condition(aff: AffixFile) -> None:
    assert expand_entry("kočka/K", aff) == {"kočka", "kočce", "kočkou"}


def test_a_rule_needs_some_stem_left_after_stripping(aff: AffixFile) -> None:
    # "ka" minus the strip "ka" leaves nothing, so no "ce"; "k" + "ou" is fine.
    assert expand_entry("ka/K", aff) == {"ka", "kou"}


def test_bracket_conditions_choose_the_rule(aff: AffixFile) -> None:
    assert expand_entry("malý/V", aff) == {"malý", "malejší", "nejmalejší"}
    assert expand_entry("dobrý/V", aff) == {"dobrý"}  # r is in neither bracket


def test_a_suffix_continuation_licenses_a_prefix_only_on_that_suffix(aff: AffixFile) -> None:
    forms = expand_entry("nový/VN", aff)
    assert forms == {"nový", "novější", "nejnovější", "nenový", "nenovější"}
    assert "nejnový" not in forms


def test_twofold_suffixes_through_a_continuation_class(aff: AffixFile) -> None:
    assert expand_entry("otec/P", aff) == {"otec", "otcův", "otcova", "otcovi"}


def test_no_prefix_with_a_suffix_unless_both_cross(aff: AffixFile) -> None:
    assert expand_entry("les/XT", aff) == {"les", "prales", "less"}
    assert expand_entry("dům/NT", aff) == {"dům", "nedům", "důms"}


def test_forbidden_words_and_needaffix(aff: AffixFile) -> None:
    words, forbidden = expand_dictionary(["kočka/K", "kočkou/!", "mačka/?K"], aff)
    assert forbidden == {"kočkou"}
    assert words == {"kočka", "kočce", "mačce", "mačkou"}


def test_circumfix_needaffix_and_onlyincompound_on_continuations() -> None:
    # Hunspell's own circumfix test: the superlative needs both leg- and -obb.
    hungarian = AffixFile.parse(
        "CIRCUMFIX X\nPFX A Y 1\nPFX A 0 leg/X .\nPFX B Y 1\nPFX B 0 legesleg/X .\n"
        "SFX C Y 3\nSFX C 0 obb .\nSFX C 0 obb/AX .\nSFX C 0 obb/BX .\n"
    )
    assert expand_entry("nagy/C", hungarian) == {"nagy", "nagyobb", "legnagyobb", "legeslegnagyobb"}
    needs = AffixFile.parse(
        "NEEDAFFIX N\nONLYINCOMPOUND O\nSFX S Y 2\nSFX S 0 s/NT .\nSFX S 0 z/O .\n"
        "SFX T Y 1\nSFX T 0 x .\n"
    )
    assert expand_entry("cat/S", needs) == {"cat", "catsx"}


def test_long_and_numeric_flags_and_aliases() -> None:
    long = AffixFile.parse("FLAG long\nAF 1\nAF AaBb\nSFX Aa Y 1\nSFX Aa 0 s .\n")
    assert expand_entry("cat/AaBb", long) == {"cat", "cats"}
    assert expand_entry("cat/1", long) == {"cat", "cats"}
    assert expand_entry("cat/BbCc", long) == {"cat"}
    numeric = AffixFile.parse("FLAG num\nSFX 101 Y 1\nSFX 101 0 s .\n")
    assert expand_entry("dog/7,101", numeric) == {"dog", "dogs"}
    assert expand_entry("dog/10", numeric) == {"dog"}


def test_default_flags_are_bytes_as_in_hunspell() -> None:
    # cs_CZ.aff names two rules "í" and "é"; hunspell reads a flag by its first byte,
    # which the two share, so a stem marked with either gets both.
    aff = AffixFile.parse("SET UTF-8\nSFX í Y 1\nSFX í 0 x .\nSFX é Y 1\nSFX é 0 y .\n")
    assert expand_entry("ab/é", aff) == {"ab", "abx", "aby"}
    utf8 = AffixFile.parse(
        "SET UTF-8\nFLAG UTF-8\nSFX í Y 1\nSFX í 0 x .\nSFX é Y 1\nSFX é 0 y .\n"
    )
    assert expand_entry("ab/é", utf8) == {"ab", "aby"}


def test_compounding_is_refused() -> None:
    with pytest.raises(ValueError, match="COMPOUNDFLAG"):
        AffixFile.parse("COMPOUNDFLAG Z\n")


def _manual_suffix_match(condition: list[str], word: str) -> bool:
    """An independent reading of a hunspell condition: one group per letter from the end."""
    if len(word) < len(condition):
        return False
    for group, letter in zip(reversed(condition), reversed(word), strict=False):
        if group == ".":
            continue
        if group.startswith("[^"):
            if letter in group[2:-1]:
                return False
        elif group.startswith("["):
            if letter not in group[1:-1]:
                return False
        elif letter != group:
            return False
    return True


_GROUP = st.one_of(
    st.sampled_from("abcě."),
    st.text("abcě", min_size=1, max_size=3).map(lambda s: f"[{s}]"),
    st.text("abcě", min_size=1, max_size=3).map(lambda s: f"[^{s}]"),
)


@given(st.lists(_GROUP, min_size=1, max_size=4), st.text("abcě", max_size=6))
def test_conditions_match_like_hunspell_reads_them(groups: list[str], word: str) -> None:
    pattern = _condition("".join(groups), prefix=False)
    assert (pattern.search(word) is not None) == _manual_suffix_match(groups, word)


# --- cuberef lexicon build --from / list / dump ---------------------------------


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path / "data"))
    return tmp_path


def test_own_list_round_trip(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = data / "tournament.txt"
    source.write_text("# club list\nKočka\n\nbýt  # a verb\nbyt\nkočka\n", encoding="utf-8")
    assert (
        main(["lexicon", "build", "--from", str(source), "--name", "club", "--language", "cs"]) == 0
    )
    assert (user_lexicon_folder() / f"club{SUFFIX}").is_file()
    assert user_lexicon_folder() == data / "data" / "lexicons"
    club = Lexicon.open("club")
    assert (len(club), "kočka" in club, "byt" in club, "být" in club, "pes" in club) == (
        3,
        True,
        True,
        True,
        False,
    )
    assert sorted(club.spellings("byt")) == ["byt", "být"]
    assert "club" in available_lexicons()
    capsys.readouterr()
    assert main(["lexicon", "dump", "club"]) == 0
    assert sorted(capsys.readouterr().out.split()) == ["byt", "být", "kočka"]
    assert main(["lexicon", "list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["lexicons"]}
    assert rows["club"]["words"] == 3 and rows["club"]["bundled"] is False
    assert rows["club"]["language"] == "cs" and rows["club"]["bytes"] > 0
    assert rows["en"]["bundled"] is True and rows["en"]["licence"]


@pytest.mark.parametrize(
    ("content", "sentence"),
    [
        (b"cat\ndog\nab\xe9c\n", "list.txt is not UTF-8"),
        (b"cat\n\ndog2\n", "Line 3 of list.txt has 'dog2', which is not a word"),
        (b"cat\ndon't\n", 'Line 2 of list.txt has "don\'t", which is not a word'),
        (b"cat\nice cream\n", "Line 2 of list.txt has 'ice cream'"),
        ("kočka\n".encode(), "Line 1 of list.txt has 'kočka'"),  # not English letters
        (b"# nothing\n\n", "list.txt has no words"),
    ],
)
def test_bad_word_lists_are_one_sentence_and_write_nothing(
    data: Path, capsys: pytest.CaptureFixture[str], content: bytes, sentence: str
) -> None:
    source = data / "list.txt"
    source.write_bytes(content)
    assert main(["lexicon", "build", "--from", str(source), "--name", "mine"]) == 2
    err = capsys.readouterr().err
    assert sentence in err and err.count("\n") == 1 and err.rstrip().endswith(".")
    assert not user_lexicon_folder().exists() or not any(user_lexicon_folder().iterdir())


def test_missing_file_and_bad_names(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "build", "--from", str(data / "nope.txt"), "--name", "x"]) == 2
    assert "There is no file" in capsys.readouterr().err
    source = data / "ok.txt"
    source.write_text("cat\n", encoding="utf-8")
    assert main(["lexicon", "build", "--from", str(source), "--name", "en"]) == 2
    assert "bundled lexicon's name" in capsys.readouterr().err
    assert main(["lexicon", "build", "--from", str(source), "--name", "../x"]) == 2
    assert main(["lexicon", "build", "--name", "x"]) == 2
    assert "--from" in capsys.readouterr().err


def test_build_without_sources_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = command.Source("en", ("scowl",), (tmp_path / "absent",), lambda _: [], "s", "l")
    monkeypatch.setitem(command.SOURCES, "en", gone)
    monkeypatch.setattr(command.shutil, "which", lambda name: None)
    assert main(["lexicon", "build", "--language", "en"]) == 2
    err = capsys.readouterr().err
    assert "sudo apt-get install scowl" in err and err.count("\n") == 1
