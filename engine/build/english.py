"""The English lexicon from SCOWL (Debian package ``scowl``).

Sizes up to 70, every English spelling category (english, american, british, british_z,
canadian, australian), the ``words`` sub-category only: no proper names, abbreviations,
contractions or upper-case words. Only lowercase a-z words are kept, so nothing with an
apostrophe, a hyphen or an accent gets in.

SCOWL's word lists still carry single letters, their plurals (``cs``, ``ss``) and unit
abbreviations (``kb``, ``mb``, ``lx``, ``csch``), which no game allows. They are the
entries without a vowel, so those go, except the handful of real vowelless words below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

SCOWL = Path("/usr/share/dict/scowl")
SPELLINGS = ("english", "american", "british", "british_z", "canadian", "australian")
MAX_SIZE = 70
SOURCE = (
    "SCOWL 2020.12.07 (Debian package scowl, wordlist.aspell.net), sizes up to 70, "
    "categories english, american, british, british_z, canadian, australian; words only"
)
LICENCE = (
    "SCOWL copyright Kevin Atkinson and others; permissive (MIT-like), "
    "see /usr/share/doc/scowl/copyright"
)
DEBIAN_PACKAGE = "scowl"

_WORD = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")
#: Real words with no vowel: interjections and Welsh loans that dictionaries list.
VOWELLESS_WORDS = frozenset({"brr", "crwth", "cwm", "cwms", "hmm", "nth", "psst", "sh", "shh"})


def is_word(entry: str) -> bool:
    """Whether a SCOWL entry is a word a player may use.

    >>> [is_word(e) for e in ("cat", "cwm", "kb", "ss", "x", "don't", "Paris")]
    [True, True, False, False, False, False, False]
    """
    if not _WORD.fullmatch(entry):
        return False
    return bool(_VOWEL.search(entry)) or entry in VOWELLESS_WORDS


def words(folder: Path = SCOWL) -> Iterator[str]:
    for path in sorted(folder.glob("*-words.*")):
        spelling, _, size = path.name.partition("-words.")
        if spelling in SPELLINGS and int(size) <= MAX_SIZE:
            for line in path.read_text(encoding="latin-1").splitlines():
                if is_word(line):
                    yield line
