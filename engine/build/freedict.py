"""FreeDict's English-Czech dictionary (Debian ``dict-freedict-eng-ces``): the Czech
words it gives for the senses it marks vulgar or obscene.

The dictionary gives each English headword its Czech translations, one a line; a line
that begins ``[vulg]`` or ``[obsc]`` translates a vulgar or obscene sense (``shit`` ->
``[vulg] hovno``). The mark is the English sense's, so a Czech word it gives is not
vulgar by that alone (``bitch`` -> ``[vulg] kráva (velmi nepříjemná žena)``):
:mod:`engine.build.czech` counts a word offensive only where a second list has it too.

>>> sorted(marked_words("shit\\n [vulg] hovno\\nass\\nprdel\\n [obsc] kunda (vulgárně)\\n"))
['hovno', 'kunda', 'vulgárně']
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

DICTD = Path("/usr/share/dictd")
DEBIAN_PACKAGE = "dict-freedict-eng-ces"
DICTIONARY = DICTD / "freedict-eng-ces.dict.dz"
SOURCE = "FreeDict eng-ces 0.1.3 (Debian package dict-freedict-eng-ces 2022.04.21-1)"
LICENCE = (
    "GPL-2+: FreeDict contributors, see /usr/share/doc/dict-freedict-eng-ces/copyright "
    "(consulted only: none of its text is shipped)"
)
_MARK = re.compile(r"\s*\[(vulg|obsc)\]")
_WORD = re.compile(r"[^\W\d_]+")


def marked_words(text: str) -> set[str]:
    """The lowercase words of the translations marked vulgar or obscene in ``text``."""
    found: set[str] = set()
    for line in text.splitlines():
        mark = _MARK.match(line)
        if mark:
            found.update(w for w in _WORD.findall(line[mark.end() :]) if w.islower())
    return found


def vulgar_words(path: Path = DICTIONARY) -> set[str]:
    """The Czech words FreeDict gives for a vulgar or obscene sense (dictzip is gzip)."""
    return marked_words(gzip.decompress(path.read_bytes()).decode("utf-8"))
