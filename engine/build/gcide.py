"""The GNU Collaborative International Dictionary of English (Debian ``dict-gcide``):
which words it has as headwords of entries in present use.

GCIDE is Webster's 1913 dictionary with later additions, a source independent of SCOWL
and WordNet. Its dictd index lists every headword with the place of its entry in the
compressed text; an entry begins with its headwords written with syllable marks
(``Ma"ny \\Ma"ny\\``). A word counts as GCIDE's when an entry names it as a headword
and the entry's first sense is not marked obsolete (``[Obs.]``): the index also points a
word at another word's entry (``multi`` at ``Many``), and ``Stor`` is Chaucer's.

>>> sorted(_headwords('Stoor \\\\Stoor\\\\, Stor \\\\Stor\\\\, a.'))
['stoor', 'stor']
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

DICTD = Path("/usr/share/dictd")
DEBIAN_PACKAGE = "dict-gcide"
SOURCE = "GCIDE 0.48.5 (Debian package dict-gcide 0.48.5+nmu2)"
LICENCE = "GPL-3+: GCIDE, see /usr/share/doc/dict-gcide/copyright"
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_HEADWORD = re.compile(r"\\([^\\]+)\\")
_MARKS = str.maketrans("", "", "\"`*'")


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 64 + _B64.index(char)
    return value


def _headwords(first_line: str) -> set[str]:
    return {word.translate(_MARKS).lower() for word in _HEADWORD.findall(first_line)}


def prefixes(folder: Path = DICTD) -> set[str]:
    """The prefixes GCIDE has entries for (``Multi-``, ``Paleo-``), lowercase, without
    their hyphen."""
    found = set()
    for line in (folder / "gcide.index").read_text(encoding="utf-8").splitlines():
        word = line.split("\t", 1)[0]
        if word.endswith("-") and word[:-1].isalpha():
            found.add(word[:-1].lower())
    return found


def current_words(folder: Path = DICTD) -> set[str]:
    """The lowercase words GCIDE has as headwords of an entry not wholly obsolete."""
    text = gzip.decompress((folder / "gcide.dict.dz").read_bytes())  # offsets count bytes
    found: set[str] = set()
    for line in (folder / "gcide.index").read_text(encoding="utf-8").splitlines():
        word, offset, length = line.split("\t")
        word = word.lower()
        if not word.isalpha() or word in found:
            continue
        start = _number(offset)
        entry = text[start : start + _number(length)].decode("utf-8", "replace")
        first = entry.split("[1913 Webster]", 1)[0]  # the headword and its first sense
        if word in _headwords(first.split("\n", 1)[0]) and "[Obs." not in first:
            found.add(word)
    return found
