"""Lexicons: compiled word lists, memory-mapped, never parsed at start.

A compiled lexicon is a minimal DAWG (a trie with equal suffix trees merged) over the
words' real spellings, in one binary file ``<name>.dawg``, with a small JSON card
(``<name>.json``: language, size, source, licence). Opening maps the file and reads a
36-byte header, so it costs the same for 100 000 English words as for three million
Czech forms, and only the pages a search touches become resident.

Each state is a 64-bit mask and an index into the edge table: bit 0 says a word ends
here, bit ``k + 1`` that an edge leaves for the alphabet's ``k``-th letter. The edges of
a state are stored in letter order, so the edge for a letter is found by counting the
mask's bits below it. Letters are ordered by their folded form, then by spelling
(``c``, ``č``, ``d``, ``ď``), so a board's plain ``c`` reaches every variant.

>>> en = Lexicon.open("en")
>>> "quiet" in en, "qzx" in en, en.has_prefix("qui")
(True, False, True)
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import struct
import sys
import tempfile
import unicodedata
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO

from engine.errors import MachineError, NotationError

SUFFIX = ".dawg"
_MAGIC = b"CUBEDAWG"
_VERSION = 1
# magic, version, states, edges, root, alphabet byte length, words
_HEADER = struct.Struct("<8sIIIIIQ")
#: Bit 0 of a state's mask: a word ends here. Letter ``k`` is bit ``k + 1``.
FINAL = 1
#: A mask holds the end bit and one bit per letter.
MAX_LETTERS = 63
#: Keys are spelt in private characters from here on, so that sorting them sorts by code.
_KEY_BASE = 0x100


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
    """A word list for one language, opened by memory-mapping its compiled DAWG.

    Solvers walk it through :attr:`masks`, :attr:`first` and :attr:`targets` (see the
    module's notes) or through :meth:`step`; everything else asks :meth:`spellings`.

    >>> en = Lexicon.open("en")
    >>> en.spellings("cat"), en.spellings("qzx")
    (['cat'], [])
    >>> state = en.step(en.step(en.root, "a"), "n")
    >>> en.is_word(state), en.step(state, "q") is None
    (True, True)
    """

    def __init__(self, path: Path, card: LexiconCard) -> None:
        with path.open("rb") as file:
            self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        view = memoryview(self._map)
        magic, version, states, edges, root, alphabet_size, _ = _HEADER.unpack_from(view)
        if sys.byteorder != "little":
            raise MachineError("cuberef's compiled lexicons need a little-endian machine.")
        if magic != _MAGIC or version != _VERSION:
            raise MachineError(
                f"The lexicon file {path} is not a cuberef DAWG of version {_VERSION}; "
                "rebuild it with 'cuberef lexicon build'."
            )
        offset = _HEADER.size
        self.card = card
        #: The compiled file; its notes (:mod:`engine.notes`) are in the folder beside it.
        self.path = path
        #: The letters, in code order: letter ``k`` is ``alphabet[k]``.
        self.alphabet: str = bytes(view[offset : offset + alphabet_size]).decode()
        offset = _align(offset + alphabet_size)
        self.masks = view[offset : offset + 8 * states].cast("Q")
        offset += 8 * states
        self.first = view[offset : offset + 4 * states].cast("I")
        offset = _align(offset + 4 * states)
        if len(view) < offset + 4 * edges:
            raise ValueError(f"it holds {len(view)} bytes, fewer than its header promises")
        self.targets = view[offset : offset + 4 * edges].cast("I")
        #: The state before any letter.
        self.root: int = root
        #: Each letter's bit in a mask.
        self.bit: dict[str, int] = {ch: 2 << k for k, ch in enumerate(self.alphabet)}
        #: Each folded letter's spellings' bits (``c`` -> bits of ``c`` and ``č``).
        self.variants: dict[str, tuple[int, ...]] = {}
        #: The letter a bit stands for.
        self.letter: dict[int, str] = {bit: ch for ch, bit in self.bit.items()}
        for ch in self.alphabet:
            key = fold(ch)
            self.variants[key] = (*self.variants.get(key, ()), self.bit[ch])

    @classmethod
    def open(cls, name: str) -> Lexicon:
        """Open a bundled lexicon (``en``, ``cs``) or a player's own compiled one."""
        return _open_cached(name)

    @property
    def name(self) -> str:
        return self.card.name

    def child(self, state: int, bit: int) -> int:
        """The state after the letter whose bit is ``bit``, or -1."""
        mask = self.masks[state]
        if not mask & bit:
            return -1
        return int(self.targets[self.first[state] + (mask & (bit - 2)).bit_count()])

    def step(self, state: int | None, letter: str) -> int | None:
        """The state after one letter spelt exactly, or None where no word goes on."""
        bit = self.bit.get(letter)
        if state is None or bit is None:
            return None
        target = self.child(state, bit)
        return None if target < 0 else target

    def is_word(self, state: int | None) -> bool:
        """Whether a word ends at ``state``."""
        return state is not None and bool(self.masks[state] & FINAL)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        state: int | None = self.root
        for letter in word:
            state = self.step(state, letter)
        return self.is_word(state)

    def _fits(self, folded: str) -> list[tuple[int, str]]:
        """The states reached by every spelling of ``folded``, with those spellings."""
        frontier = [(self.root, "")]
        for letter in folded:
            bits = self.variants.get(letter, ())
            frontier = [
                (target, prefix + self.letter[bit])
                for state, prefix in frontier
                for bit in bits
                if (target := self.child(state, bit)) >= 0
            ]
        return frontier

    def spellings(self, folded: str) -> list[str]:
        """The real spellings of a folded word (``kocka`` -> ``['kočka']``)."""
        return [word for state, word in self._fits(folded) if self.masks[state] & FINAL]

    def has_prefix(self, folded: str) -> bool:
        """Whether some word starts with these letters, diacritics folded."""
        return bool(self._fits(folded))

    def __iter__(self) -> Iterator[str]:
        """Every word, in the alphabet's order (plain letters before their variants)."""
        return self._below(self.root, "")

    def starting(self, folded: str) -> Iterator[str]:
        """Every word that starts with these letters, diacritics folded.

        >>> list(Lexicon.open("en").starting("zymu"))
        ['zymurgies', 'zymurgy']
        """
        for state, prefix in self._fits(folded):
            yield from self._below(state, prefix)

    def _below(self, state: int, prefix: str) -> Iterator[str]:
        stack = [(state, prefix)]
        while stack:
            state, prefix = stack.pop()
            mask = self.masks[state]
            if mask & FINAL:
                yield prefix
            base = self.first[state]
            children: list[tuple[int, str]] = []
            for k, letter in enumerate(self.alphabet):
                if mask & (2 << k):
                    children.append((int(self.targets[base + len(children)]), prefix + letter))
            stack.extend(reversed(children))

    def __len__(self) -> int:
        return self.card.words


def _align(offset: int) -> int:
    return (offset + 7) // 8 * 8


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
    return sorted(path.stem for path in lexicon_folder().glob(f"*{SUFFIX}"))


def available_lexicons() -> list[str]:
    """The bundled lexicons, then the player's own (a bundled name hides a player's)."""
    bundled = bundled_lexicons()
    own = sorted(path.stem for path in user_lexicon_folder().glob(f"*{SUFFIX}"))
    return bundled + [name for name in own if name not in bundled]


def lexicon_path(name: str) -> Path | None:
    """The compiled file of a lexicon: the bundled folder first, then the player's.

    A name is looked up only as a name (no folders in it); a path ending in ``.dawg`` is
    taken as it is. Any other text, however long or odd, names no lexicon.

    >>> lexicon_path("../en") is None, lexicon_path("x" * 5000) is None
    (True, True)
    """
    path = Path(name)
    candidates = [path] if path.suffix == SUFFIX else []
    if "/" not in name and os.sep not in name and name not in ("", ".", ".."):
        candidates += [
            folder / f"{name}{SUFFIX}" for folder in (lexicon_folder(), user_lexicon_folder())
        ]
    for candidate in candidates:
        try:
            if candidate.is_file():
                return candidate
        except (OSError, ValueError):  # a name too long for the file system, a NUL in it
            continue
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
    card = read_card(path)
    try:
        return Lexicon(path, card)
    except (OSError, ValueError, TypeError, struct.error) as error:  # empty, short, unreadable
        raise _damaged(path, error) from None


def read_card(path: Path) -> LexiconCard:
    """The card beside a compiled lexicon ``path``, or the sentence that it is damaged."""
    try:
        fields = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        return LexiconCard(**fields)
    except (OSError, ValueError, TypeError) as error:
        raise _damaged(path.with_suffix(".json"), error) from None


def _damaged(path: Path, error: Exception) -> MachineError:
    reason = getattr(error, "strerror", None) or str(error)
    return MachineError(
        f"The lexicon file {path} is damaged ({reason}); build that lexicon again "
        "(cuberef lexicon build, or build --from for your own)."
    )


def compile_lexicon(
    words: Iterable[str], folder: Path, name: str, language: str, source: str, licence: str
) -> LexiconCard:
    """Compile real spellings into ``<folder>/<name>.dawg`` and its card.

    Words are taken in Unicode's composed form (NFC), so ``č`` is one letter whatever
    the source wrote.
    """
    spellings = {unicodedata.normalize("NFC", word) for word in words} - {""}
    alphabet = "".join(sorted({ch for word in spellings for ch in word}, key=_letter_order))
    if len(alphabet) > MAX_LETTERS:
        raise NotationError(
            f"The word list uses {len(alphabet)} different letters, more than the "
            f"{MAX_LETTERS} a lexicon can hold; remove the words with stray characters."
        )
    table = {ord(ch): chr(_KEY_BASE + k) for k, ch in enumerate(alphabet)}
    keys = sorted(word.translate(table) for word in spellings)
    del spellings
    masks, first, targets, root = _build_dawg(keys)
    folder.mkdir(parents=True, exist_ok=True)
    encoded = alphabet.encode()
    with _replacing(folder / f"{name}{SUFFIX}") as file:
        header = _HEADER.pack(
            _MAGIC, _VERSION, len(masks), len(targets), root, len(encoded), len(keys)
        )
        head = header + encoded
        file.write(head + bytes(_align(len(head)) - len(head)))
        _native(array("Q", masks)).tofile(file)
        body = array("I", first)
        _native(body).tofile(file)
        file.write(bytes(_align(4 * len(body)) - 4 * len(body)))
        _native(array("I", targets)).tofile(file)
    card = LexiconCard(name, language, len(keys), source, licence)
    with _replacing(folder / f"{name}.json") as file:
        file.write((json.dumps(asdict(card), indent=1) + "\n").encode())
    return card


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[IO[bytes]]:
    """A new file that takes ``path``'s place whole once written: a process that has the
    old lexicon mapped keeps reading the old one, never a half-written or shorter file."""
    with tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as file:
        try:
            yield file
        except BaseException:
            os.unlink(file.name)
            raise
    os.chmod(file.name, 0o644)  # as open() would have made it: the service reads it too
    os.replace(file.name, path)


def _letter_order(letter: str) -> tuple[str, str]:
    return fold(letter), letter


def _native(values: array[int]) -> array[int]:
    """The file is little-endian, written so even on a big-endian machine."""
    if sys.byteorder != "little":
        values.byteswap()
    return values


def _build_dawg(keys: list[str]) -> tuple[list[int], list[int], list[int], int]:
    """Build the minimal DAWG of sorted, distinct keys (Daciuk et al., 2000).

    Words come in order, so once a word leaves the previous one's path, the states of
    that path's tail will never change again: each is then looked up in a register of
    finished states by its finality and edges, and merged with an equal one if found.
    """
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
    masks: list[int] = []
    first: list[int] = []
    targets: list[int] = []

    def finish(final: bool, edges: list[tuple[int, int]]) -> int:
        signature = (final, tuple(edges))
        state = register.get(signature)
        if state is None:
            state = register[signature] = len(masks)
            mask = FINAL if final else 0
            for code, _ in edges:
                mask |= 2 << code
            masks.append(mask)
            first.append(len(targets))
            targets.extend(target for _, target in edges)
        return state

    finals = [False]
    edges: list[list[tuple[int, int]]] = [[]]
    previous = ""
    for key in keys:
        common = 0
        limit = min(len(key), len(previous))
        while common < limit and key[common] == previous[common]:
            common += 1
        for depth in range(len(previous), common, -1):
            state = finish(finals.pop(), edges.pop())
            edges[-1].append((ord(previous[depth - 1]) - _KEY_BASE, state))
        for _ in range(len(key) - common):
            finals.append(False)
            edges.append([])
        finals[-1] = True
        previous = key
    for depth in range(len(previous), 0, -1):
        state = finish(finals.pop(), edges.pop())
        edges[-1].append((ord(previous[depth - 1]) - _KEY_BASE, state))
    root = finish(finals.pop(), edges.pop())
    return masks, first, targets, root
