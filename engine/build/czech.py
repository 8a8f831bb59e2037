"""The Czech lexicon: every inflected form of the Czech hunspell dictionary.

The Debian package ``hunspell-cs`` ships ``cs_CZ.dic`` (about 261,000 stems with affix
flags) and ``cs_CZ.aff`` (the declension, conjugation, ``ne-``/``nej-`` and comparison
rules). :mod:`engine.build.hunspell` expands every stem through those rules; this
module keeps what a word game counts as a word:

- lowercase forms only: a capitalised stem is a proper name (``Praha``, ``Novák``) and
  an all-capital one an abbreviation (``AACR``), so every form of them goes;
- letters of the Czech alphabet only (diacritics kept): anything with a digit, a dot
  (``atd.``), a hyphen or a foreign letter (``ü``, ``ľ``) goes;
- a word with no vowel and no ``r`` or ``l`` (which can carry a Czech syllable, as in
  ``vlk``, ``smrt``) is an abbreviation written small (``km``, ``kg``, ``tbc``) and goes;
- words the dictionary marks ``FORBIDDENWORD`` go.

>>> keep("kočkami"), keep("Praha"), keep("atd."), keep("km"), keep("smrt"), keep("müsli")
(True, False, False, False, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from engine.build.hunspell import AffixFile, expand, parse_entry, read_dic

HUNSPELL = Path("/usr/share/hunspell")
DEBIAN_PACKAGE = "hunspell-cs"
SOURCE = (
    "hunspell-cs 1:7.5.0-1 (Debian package hunspell-cs, cs_CZ.dic and cs_CZ.aff from "
    "LibreOffice dictionaries 7.5.0), every lowercase form expanded through its affix rules"
)
LICENCE = (
    "GPL-2: cs_CZ dictionary copyright 2003 Pavel Janík <Pavel@Janik.cz>, "
    "see /usr/share/doc/hunspell-cs/copyright"
)

CZECH_LETTERS = "aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž"
_WORD = re.compile(f"[{CZECH_LETTERS}]+")
_SYLLABLE = re.compile("[aáeéěiíoóuúůyýrl]")


def keep(word: str) -> bool:
    """Whether a form of the dictionary is a word for the game."""
    return _WORD.fullmatch(word) is not None and _SYLLABLE.search(word) is not None


def words(folder: Path = HUNSPELL) -> Iterator[str]:
    """Every Czech word form, each once, in no particular order."""
    aff = AffixFile.read(folder / "cs_CZ.aff")
    seen: set[str] = set()
    forbidden: set[str] = set()
    for line in read_dic(folder / "cs_CZ.dic", aff):
        stem, flags = parse_entry(line, aff)
        if aff.forbidden is not None and aff.forbidden in flags:
            forbidden.add(stem)
        elif stem[:1].islower():  # capitalised stems are names, upper-case ones abbreviations
            seen.update(word for word in expand(stem, flags, aff) if keep(word))
    yield from seen - forbidden
