"""The table's own rulings: the words a table has agreed to allow or to refuse.

A box keeps one house list per language (the device's store holds it); every round the
referee asks it before the lexicon, so a ruling made once holds in every later round.

>>> house = HouseList("en").refuse("gonna").allow("qi")
>>> house.ruling("gonna"), house.ruling("qi"), house.ruling("cat")
(False, True, None)
>>> house.forget("gonna").ruling("gonna") is None
True
>>> HouseList("en").offensive, HouseList("en", offensive=True).offensive
(False, True)

A round keeps the rulings its words were scored with, to be scored the same again:

>>> czech = HouseList("cs").allow("sedí").refuse("kolo").allow("pivo")
>>> kept = czech.bearing_on(["sedi", "kolo"]); kept
(('kolo', False), ('sedí', True))
>>> HouseList("cs").with_rulings(kept).ruling("sedí")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.lexicon import fold

#: A table's ruling on one word: the word, and whether the table allowed it.
Ruling = tuple[str, bool]

#: What the screen, the phones and ``cuberef check`` say of a word the table ruled on.
ALLOWED_BY_TABLE = "allowed by this table"
REFUSED_BY_TABLE = "refused by this table"


@dataclass(frozen=True, slots=True)
class HouseList:
    """The words one table has ruled on, in one language."""

    language: str
    allowed: frozenset[str] = frozenset()
    refused: frozenset[str] = frozenset()
    #: Whether the table counts the words the list refuses as offensive (slurs, vulgar
    #: words): the box's ``[words] offensive = "allow"``.
    offensive: bool = False

    def ruling(self, word: str) -> bool | None:
        """True where the table allowed the word, False where it refused it, else None."""
        if word in self.allowed:
            return True
        if word in self.refused:
            return False
        return None

    def allow(self, word: str) -> HouseList:
        return replace(self, allowed=self.allowed | {word}, refused=self.refused - {word})

    def refuse(self, word: str) -> HouseList:
        return replace(self, allowed=self.allowed - {word}, refused=self.refused | {word})

    def forget(self, word: str) -> HouseList:
        return replace(self, allowed=self.allowed - {word}, refused=self.refused - {word})

    def bearing_on(self, words: Iterable[str]) -> tuple[Ruling, ...]:
        """The rulings that decide ``words``: on each, or on a spelling it may count as
        (written without its diacritics), in order."""
        folded = {fold(word) for word in words}
        rulings = [(word, True) for word in self.allowed] + [(w, False) for w in self.refused]
        return tuple(sorted(ruling for ruling in rulings if fold(ruling[0]) in folded))

    def with_rulings(self, rulings: Iterable[Ruling]) -> HouseList:
        """This list with ``rulings`` made on top of it."""
        house = self
        for word, allowed in rulings:
            house = house.allow(word) if allowed else house.refuse(word)
        return house
