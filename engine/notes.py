"""A lexicon's notes: why a word is refused, and what a word means.

Beside a bundled lexicon ``<name>.dawg`` its build writes a folder ``<name>/`` with
``refused.dawg`` (each word the rulebook refuses that a player may write in plain
letters, keyed with its class: ``gonna1`` for slang), ``definitions.tsv.gz`` (each word's
short definition, or the words it is a form of) and ``notes.json`` (their sources, licences and
counts). They are read only when a word is refused or disputed, so opening a lexicon costs
nothing more. A lexicon without notes (a player's own, the Czech one's definitions) has
none to give, and says so.

>>> notes = Notes.open(Lexicon.open("en"))
>>> notes.refusal("gonna"), notes.refusal("cat")
('slang', None)
>>> notes.define("cats").text.startswith("CATS: a form of CAT (noun): feline mammal")
True
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from engine.lexicon import SUFFIX, Lexicon, compile_lexicon

REFUSED = "refused.dawg"
#: Each refused class's letter in the refused DAWG's keys: ``gonna`` + ``1``.
CODES = {
    "slang": "1",
    "contraction": "2",
    "fragment": "3",
    "abbreviation": "4",
    "proper-noun": "5",
    "offensive": "6",
    "foreign": "7",
    "phrase": "8",
    "prefix": "9",
}
DEFINITIONS = "definitions.tsv.gz"
CARD = "notes.json"
PARTS = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}


@dataclass(frozen=True, slots=True)
class Sense:
    """One short definition: the word it defines, its part of speech and the gloss."""

    word: str
    part: str
    gloss: str

    @property
    def text(self) -> str:
        return f"{self.word.upper()} ({PARTS.get(self.part, self.part)}): {self.gloss}"


@dataclass(frozen=True, slots=True)
class Definition:
    """What a word means: its own senses, and those of the words it is a form of."""

    word: str
    senses: tuple[Sense, ...]
    source: str

    @property
    def text(self) -> str:
        """One paragraph for a screen or a phone: the word's own senses, then the words
        it is a form of with theirs.

        >>> Definition("ran", (Sense("run", "v", "move fast"),), "WordNet").text
        'RAN: a form of RUN (verb): move fast'
        """
        own = [sense.text for sense in self.senses if sense.word == self.word]
        forms = [sense.text for sense in self.senses if sense.word != self.word]
        if not forms:
            return "; ".join(own)
        lead = "; also" if own else f"{self.word.upper()}:"
        return "; ".join(own) + f"{lead} a form of " + "; ".join(forms)


class Notes:
    """The notes of one lexicon, loaded from its folder the first time they are asked."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def open(cls, lexicon: Lexicon) -> Notes:
        return _notes(lexicon.path.with_suffix(""))

    @cached_property
    def card(self) -> dict[str, object]:
        try:
            card: dict[str, object] = json.loads((self.folder / CARD).read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return card

    @cached_property
    def _refused(self) -> Lexicon | None:
        path = self.folder / REFUSED
        return Lexicon.open(str(path)) if path.is_file() else None

    @cached_property
    def _definitions(self) -> dict[str, str]:
        return _table(self.folder / DEFINITIONS)

    @property
    def has_definitions(self) -> bool:
        return (self.folder / DEFINITIONS).is_file()

    def refusal(self, word: str) -> str | None:
        """The class of a word the rulebook refuses (``slang``, ``contraction``,
        ``fragment``, ``abbreviation``, ``proper-noun``), or None."""
        refused = self._refused
        if refused is None:
            return None
        return next((kind for kind, code in CODES.items() if word + code in refused), None)

    def define(self, word: str) -> Definition | None:
        """The word's short definition, or None where the source has none."""
        entry = self._definitions.get(word)
        if entry is None:
            return None
        senses = [sense for sense in _senses(word, entry)]
        for piece in entry.split(" | "):
            if piece.startswith("="):
                lemma, _, parts = piece[1:].partition(":")
                own = _senses(lemma, self._definitions.get(lemma, ""))
                senses.extend(sense for sense in own if sense.part in parts)
        if not senses:
            return None
        return Definition(word, tuple(senses), str(self.card.get("definitions_source", "")))

    def meaning(self, word: str) -> str:
        """The definition's paragraph, or the sentence saying why there is none.

        >>> Notes.open(Lexicon.open("en")).meaning("gonna")
        'WordNet 3.0 has no definition of GONNA.'
        >>> Notes.open(Lexicon.open("cs")).meaning("kočka").startswith("cuberef has no Czech")
        True
        """
        definition = self.define(word)
        if definition is not None:
            return definition.text
        note = self.card.get("definitions_note")
        if isinstance(note, str):
            return note + "."
        if not self.has_definitions:
            return f"The word list {self.folder.name} has no definitions."
        return f"{_source_name(self.card)} has no definition of {word.upper()}."


def _source_name(card: dict[str, object]) -> str:
    source = str(card.get("definitions_source", "The source"))
    return source.split(" (", 1)[0]


def _senses(word: str, entry: str) -> list[Sense]:
    return [
        Sense(word, part, gloss)
        for piece in entry.split(" | ")
        if not piece.startswith("=") and piece
        for part, _, gloss in [piece.partition(":")]
    ]


@cache
def _notes(folder: Path) -> Notes:
    return Notes(folder)


def _table(path: Path) -> dict[str, str]:
    """A gzipped file of ``key<TAB>value`` lines; empty where there is none."""
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, ValueError):
        return {}
    return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)


def write_table(path: Path, table: dict[str, str]) -> None:
    """Write a table the way :func:`_table` reads it, sorted and byte for byte the same
    on every rebuild (no time stamp in the gzip header)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(f"{key}\t{value}\n" for key, value in sorted(table.items()))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def write_refused(folder: Path, refused: dict[str, str], language: str, source: str) -> None:
    """Compile the refused words, each keyed with its class's code, into ``folder``."""
    keys = (word + CODES[kind] for word, kind in refused.items())
    compile_lexicon(keys, folder, REFUSED.removesuffix(SUFFIX), language, source, "as its source")


def write_card(path: Path, card: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
