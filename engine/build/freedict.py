"""FreeDict's English headwords (Debian ``dict-freedict-eng-*``): a dictionary source
independent of SCOWL, WordNet and GCIDE, consulted only (none of its text is shipped).

Each package is a dictd database: an index of folded keys (``men's`` is indexed as
``mens``) pointing into the compressed text, where an entry's first line is its headword
as written, then its pronunciation, part of speech or notes (``gelato //dʒəˈlɑːtəʊ// <n>``,
``sheeny /ʃˈiːni/``). A word is a package's headword only where that first line names it
written small: a proper noun keeps its capital (``Aachen``), a phrase its spaces, and an
abbreviation in brackets after its phrase (``able-bodied seaman (AB)``) is no headword.

The packages come from three independent lineages, counted as three sources: Ding
(TU Chemnitz's English-German dictionary), dicts.info's English-Czech dictionary, and
Wiktionary through WikDict (its English-Finnish, -Bulgarian, -Indonesian, -Japanese and
-Norwegian dictionaries hold different parts of Wiktionary's English words). FreeDict's
older English-Hungarian dictionary writes every headword small, names too, and is left
out.

>>> headword("gelato //dʒəˈlɑːtəʊ// //d͡ʒəˈlɑtoʊ// <n>"), headword("able-bodied seaman /x/ (AB)")
('gelato', 'able-bodied seaman')

The English-Czech dictionary also serves the Czech list: the Czech words it gives for the
senses it marks vulgar or obscene (:func:`vulgar_words`).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

DICTD = Path("/usr/share/dictd")
#: Each package's lineage: the packages of one lineage are one source.
LINEAGES = {
    "dict-freedict-eng-deu": "Ding",
    "dict-freedict-eng-ces": "dicts.info",
    "dict-freedict-eng-fin": "Wiktionary",
    "dict-freedict-eng-bul": "Wiktionary",
    "dict-freedict-eng-ind": "Wiktionary",
    "dict-freedict-eng-jpn": "Wiktionary",
    "dict-freedict-eng-nor": "Wiktionary",
}
DEBIAN_PACKAGES = tuple(LINEAGES)
SOURCE = (
    "FreeDict's English headwords (Debian packages dict-freedict-eng-deu 2022.04.21-1: "
    "Ding 1.9-fd1; dict-freedict-eng-ces 2022.04.21-1: dicts.info 0.1.3; "
    "dict-freedict-eng-fin, -bul, -ind, -jpn, -nor 2022.12.07-2: WikDict 2022.11.18 "
    "from Wiktionary)"
)
LICENCE = (
    "Ding: GPL-3+ and AGPL-3; dicts.info: GPL-2+; WikDict: CC-BY-SA 3.0; consulted only, "
    "none of their text is copied; see /usr/share/doc/dict-freedict-eng-*/copyright"
)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_AFTER_HEADWORD = re.compile(r" (?:/|<|\(|\[)")
_WORD = re.compile(r"[a-z]+")


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 64 + _B64.index(char)
    return value


def headword(first_line: str) -> str:
    """An entry's headword: its first line up to the pronunciation, part of speech or
    notes."""
    return _AFTER_HEADWORD.split(first_line, 1)[0].strip()


def package_file(package: str, folder: Path = DICTD) -> Path:
    return folder / f"{package.removeprefix('dict-')}.index"


def entries(package: str, folder: Path = DICTD) -> dict[str, list[str]]:
    """A package's entries by their headword written small (words a-z only)."""
    index = package_file(package, folder)
    text = gzip.decompress(index.with_suffix(".dict.dz").read_bytes())  # offsets count bytes
    found: dict[str, list[str]] = {}
    seen = set()
    for line in index.read_text(encoding="utf-8").splitlines():
        _, offset, length = line.split("\t")
        if (offset, length) in seen:  # one entry under several keys
            continue
        seen.add((offset, length))
        start = _number(offset)
        entry = text[start : start + _number(length)].decode("utf-8", "replace")
        word = headword(entry.split("\n", 1)[0])
        if _WORD.fullmatch(word):
            found.setdefault(word, []).append(entry)
    return found


#: A mark of a word's use that makes it no plain word: Ding's ``[slang]`` and ``[vulg.]``,
#: Wiktionary's "(slang)", "(vulgar)", "(derogatory)". Ding's ``[coll.]`` and Wiktionary's
#: "informal" are no such mark: a colloquial word is a word.
_MARKED = re.compile(r"\b(?:slang|vulg|vulgar|offensive|derogatory)\b", re.IGNORECASE)
_GLOSS_WORD = re.compile(r"[^\W\d_]+")
_BRACKETED = re.compile(r"\(([^()]*)\)")


def spells_out(word: str, text: str) -> bool:
    """Whether a line of ``text``, or a part of it in brackets, gives words whose first
    letters spell ``word``, as an initialism's meaning does: ``aka`` "also known as". Such
    a word is read letter by letter, an abbreviation.

    >>> spells_out("aka", "alias (also known as)"), spells_out("med", "medizinisch, ärztlich")
    (True, False)
    """
    pieces = text.lower().splitlines() + _BRACKETED.findall(text.lower())
    return len(word) > 1 and any(
        "".join(found[0] for found in _GLOSS_WORD.findall(piece)) == word for piece in pieces
    )


class FreeDict:
    """Which lineages list each word as a headword, which of them mark it slang, vulgar or
    derogatory, which words an entry spells out as an initialism's letters, and which it
    gives as interjections."""

    def __init__(self, folder: Path = DICTD) -> None:
        self.sources: dict[str, set[str]] = {}
        self.marked: dict[str, set[str]] = {}
        self.spelt_out: set[str] = set()
        #: The words an entry gives as an interjection (``<interjection>``: ``sheesh``).
        self.interjections: set[str] = set()
        for package, lineage in LINEAGES.items():
            for word, texts in entries(package, folder).items():
                self.sources.setdefault(word, set()).add(lineage)
                if any("<interj" in text.split("\n", 1)[0] for text in texts):
                    self.interjections.add(word)
                if any(_MARKED.search(text) for text in texts):
                    self.marked.setdefault(word, set()).add(lineage)
                if any(spells_out(word, text.split("\n", 1)[-1]) for text in texts):
                    self.spelt_out.add(word)

    def listed(self, word: str, sources: int = 1) -> bool:
        """Whether at least ``sources`` lineages list the word as a headword."""
        return len(self.sources.get(word, ())) >= sources

    def plain_word(self, word: str, sources: int) -> bool:
        """Whether at least ``sources`` lineages list the word as a headword and none marks
        it slang, vulgar or derogatory, nor spells it out as an initialism: dictionaries
        take it as a word (``nope``, ``thru``, ``med``), an informal one at most."""
        return self.listed(word, sources) and word not in self.marked and word not in self.spelt_out


#: The English-Czech dictionary, read for its Czech side by :mod:`engine.build.czech`.
CZECH_PACKAGE = "dict-freedict-eng-ces"
CZECH_DICTIONARY = DICTD / "freedict-eng-ces.dict.dz"
CZECH_SOURCE = "FreeDict eng-ces 0.1.3 (Debian package dict-freedict-eng-ces 2022.04.21-1)"
CZECH_LICENCE = (
    "GPL-2+: FreeDict contributors, see /usr/share/doc/dict-freedict-eng-ces/copyright "
    "(consulted only: none of its text is shipped)"
)
_MARK = re.compile(r"\s*\[(vulg|obsc)\]")
_CZECH_WORD = re.compile(r"[^\W\d_]+")


def marked_words(text: str) -> set[str]:
    """The lowercase words of the translations marked vulgar or obscene in ``text``: each
    English headword is followed by its Czech translations, one a line, and a line that
    begins ``[vulg]`` or ``[obsc]`` translates a vulgar or obscene sense. The mark is the
    English sense's, so a Czech word it gives is not vulgar by that alone (``bitch`` ->
    ``[vulg] kráva``): the Czech build counts a word offensive only where a second list has
    it too.

    >>> sorted(marked_words("shit\\n [vulg] hovno\\nass\\nprdel\\n [obsc] kunda (vulgárně)\\n"))
    ['hovno', 'kunda', 'vulgárně']
    """
    found: set[str] = set()
    for line in text.splitlines():
        mark = _MARK.match(line)
        if mark:
            found.update(w for w in _CZECH_WORD.findall(line[mark.end() :]) if w.islower())
    return found


def vulgar_words(path: Path = CZECH_DICTIONARY) -> set[str]:
    """The Czech words FreeDict gives for a vulgar or obscene sense (dictzip is gzip)."""
    return marked_words(gzip.decompress(path.read_bytes()).decode("utf-8"))


def marked_translations(package: str = CZECH_PACKAGE, folder: Path = DICTD) -> dict[str, set[str]]:
    """Each English headword's Czech words that FreeDict gives alone on a line it marks
    vulgar or obscene, a bracketed note aside: ``nigger`` -> ``negr``, ``bitch`` ->
    ``kráva``. Which English word a mark is for decides what the Czech word is: the
    Czech build takes the translations of slurs (:func:`engine.build.czech.slurs`)."""
    found: dict[str, set[str]] = {}
    for head, texts in entries(package, folder).items():
        for text in texts:
            for line in text.splitlines()[1:]:
                mark = _MARK.match(line)
                words = _CZECH_WORD.findall(_BRACKETED.sub("", line[mark.end() :])) if mark else []
                if len(words) == 1 and words[0].islower():
                    found.setdefault(head, set()).add(words[0])
    return found
