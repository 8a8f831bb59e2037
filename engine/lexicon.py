"""Lexicons: compiled word lists, memory-mapped, never parsed at start.

A compiled lexicon is a ``marisa-trie`` file (``<name>.marisa``) and a small JSON card
(``<name>.json``: language, size, source, licence). Keys are the words as a board
spells them, with diacritics folded away (``kocka``); each key maps to the real
spellings (``kočka``). For English the two are the same.

>>> en = Lexicon.open("en")
>>> "quiet" in en, "qzx" in en, en.has_prefix("qui")
(True, False, True)
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import marisa_trie

from engine.errors import NotationError


def fold(word: str) -> str:
    """Take háček, čárka and kroužek off: the letters as the cubes show them.

    >>> fold("kůň"), fold("Příliš")
    ('kun', 'prilis')
    """
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True, slots=True)
class LexiconCard:
    """What a compiled lexicon is: its language, size and where its words came from."""

    name: str
    language: str
    words: int
    source: str
    licence: str


class Lexicon:
    """A word list for one language, opened by memory-mapping its compiled file."""

    def __init__(self, trie: marisa_trie.BytesTrie, card: LexiconCard) -> None:
        self._trie = trie
        self.card = card

    @classmethod
    def open(cls, name: str) -> Lexicon:
        """Open a bundled lexicon (``en``, ``cs``) or a player's own compiled one."""
        return _open_cached(name)

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def trie(self) -> marisa_trie.BytesTrie:
        """The folded-key trie, for solvers that walk it."""
        return self._trie

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        return word in self.spellings(fold(word))

    def spellings(self, folded: str) -> list[str]:
        """The real spellings of a folded word (``kocka`` -> ``['kočka']``)."""
        return [value.decode() or folded for value in self._trie.get(folded, ())]

    def has_prefix(self, folded: str) -> bool:
        return next(self._trie.iterkeys(folded), None) is not None

    def __iter__(self) -> Iterator[str]:
        for key, value in self._trie.iteritems():
            yield value.decode() or key

    def __len__(self) -> int:
        return self.card.words


def lexicon_folder() -> Path:
    return Path(str(resources.files("engine") / "data" / "lexicons"))


def user_lexicon_folder() -> Path:
    """Where a player's own compiled lexicons live: ``$CUBEREF_DATA/lexicons``, else
    ``$XDG_DATA_HOME/cuberef/lexicons`` (``~/.local/share/cuberef/lexicons``)."""
    data = os.environ.get("CUBEREF_DATA")
    if data:
        return Path(data) / "lexicons"
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "cuberef" / "lexicons"


def bundled_lexicons() -> list[str]:
    return sorted(path.stem for path in lexicon_folder().glob("*.marisa"))


def available_lexicons() -> list[str]:
    """The bundled lexicons, then the player's own (a bundled name hides a player's)."""
    bundled = bundled_lexicons()
    own = sorted(path.stem for path in user_lexicon_folder().glob("*.marisa"))
    return bundled + [name for name in own if name not in bundled]


def lexicon_path(name: str) -> Path | None:
    """The compiled file of a lexicon: the bundled folder first, then the player's."""
    path = Path(name)
    if path.suffix == ".marisa":
        return path if path.is_file() else None
    for folder in (lexicon_folder(), user_lexicon_folder()):
        if (folder / f"{name}.marisa").is_file():
            return folder / f"{name}.marisa"
    return None


def _open_cached(name: str) -> Lexicon:
    path = lexicon_path(name)
    if path is None:
        raise NotationError(
            f"There is no lexicon called {name!r}; the ones installed are "
            f"{', '.join(available_lexicons()) or 'none'}; "
            "run 'cuberef lexicon build' to rebuild them."
        )
    return _open_file(path)


@cache
def _open_file(path: Path) -> Lexicon:
    trie = marisa_trie.BytesTrie()
    trie.mmap(str(path))
    card = LexiconCard(**json.loads(path.with_suffix(".json").read_text(encoding="utf-8")))
    return Lexicon(trie, card)


def compile_lexicon(
    words: Iterable[str], folder: Path, name: str, language: str, source: str, licence: str
) -> LexiconCard:
    """Compile real spellings into ``<folder>/<name>.marisa`` and its card."""
    pairs: set[tuple[str, bytes]] = set()
    for word in words:
        folded = fold(word)
        pairs.add((folded, b"" if folded == word else word.encode()))
    trie = marisa_trie.BytesTrie(sorted(pairs))
    folder.mkdir(parents=True, exist_ok=True)
    trie.save(str(folder / f"{name}.marisa"))
    card = LexiconCard(name, language, len(pairs), source, licence)
    (folder / f"{name}.json").write_text(json.dumps(asdict(card), indent=1) + "\n")
    return card
