"""The compiled lexicon format: a minimal DAWG over real spellings, memory-mapped."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.lexicon import SUFFIX, Lexicon, compile_lexicon

CZECH = ["byt", "být", "byť", "kočka", "kočky", "kocour", "kůň", "koně", "a"]


def compiled(tmp_path: Path, words: list[str], name: str = "t") -> Lexicon:
    compile_lexicon(words, tmp_path, name, "cs", "test", "test")
    return Lexicon(tmp_path / f"{name}{SUFFIX}", Lexicon.open("en").card)


def test_real_spellings_are_kept_and_folded_ones_found(tmp_path: Path) -> None:
    lexicon = compiled(tmp_path, CZECH)
    assert lexicon.spellings("byt") == ["byt", "byť", "být"]
    assert lexicon.spellings("kocka") == ["kočka"] and lexicon.spellings("kock") == []
    assert "kůň" in lexicon and "kun" not in lexicon and "Kůň" not in lexicon
    assert lexicon.has_prefix("koc") and not lexicon.has_prefix("kx")
    assert set(lexicon.starting("ko")) == {"kocour", "kočka", "kočky", "koně"}


def test_iteration_gives_every_word_once_plain_letters_first(tmp_path: Path) -> None:
    lexicon = compiled(tmp_path, [*CZECH, "kočka", "kočka"])
    words = list(lexicon)
    assert sorted(words) == sorted(set(CZECH)) and len(words) == len(set(CZECH))
    assert words.index("byt") < words.index("byť") < words.index("být")


def test_equal_suffixes_are_merged(tmp_path: Path) -> None:
    # Forty words that share their endings need few states: the DAWG is minimal.
    stems = [f"{a}{b}" for a in "bcdfghjklm" for b in "aeio"]
    words = [stem + ending for stem in stems for ending in ("", "ing", "ed")]
    compile_lexicon(words, tmp_path, "m", "en", "test", "test")
    header = (tmp_path / f"m{SUFFIX}").read_bytes()[:36]
    _, _, states, edges, _, _, count = struct.unpack("<8sIIIIIQ", header)
    assert count == len(words)
    assert states < 15 and edges < 30


def test_too_many_letters_is_one_sentence(tmp_path: Path) -> None:
    letters = [chr(0x100 + i) for i in range(70)]
    with pytest.raises(NotationError, match="letters"):
        compile_lexicon(letters, tmp_path, "x", "xx", "test", "test")


@settings(max_examples=30, deadline=None)
@given(st.sets(st.text("abcčdeéěz", min_size=1, max_size=6), min_size=1, max_size=40))
def test_a_compiled_list_holds_exactly_its_words(words: set[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        lexicon = compiled(Path(folder), sorted(words))
        assert set(lexicon) == words
        assert all(word in lexicon for word in words)
        assert "zzzzzzz" not in lexicon
