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
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
