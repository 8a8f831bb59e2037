"""The words a roll can spell: the solver's dictionary for one throw.

A word is formable when the roll's cubes cover its letters, each joker standing in for
one missing letter. The lexicon is read once per process and kept as letter codes.

>>> from engine.adlib.roll import Roll
>>> from engine.lexicon import Lexicon
>>> words = formable_words(Roll.parse("M O N E Y S T E B U J O Q", "adlib"), Lexicon.open("en"))
>>> "money" in words.text, "zoo" in words.text, "job" in words.text
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.adlib.roll import Roll, letter_value
from engine.lexicon import Lexicon

LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Each letter's Ad-Lib value, by code (a=0 ... z=25).
VALUES: tuple[int, ...] = tuple(letter_value(letter) for letter in LETTERS)


@dataclass(frozen=True, slots=True)
class RollWords:
    """The formable words of one roll, as text and as letter codes."""

    have: tuple[int, ...]
    jokers: int
    text: tuple[str, ...]
    codes: tuple[bytes, ...]

    def excess(self, counts: Sequence[int]) -> int:
        """How many jokers a multiset of letters needs beyond the cubes."""
        return sum(n - h for n, h in zip(counts, self.have, strict=True) if n > h)


#: Maps the bytes of a-z to the codes 0-25.
_CODES = bytes.maketrans(LETTERS.encode(), bytes(range(26)))


@cache
def _coded_lexicon(lexicon: Lexicon) -> tuple[tuple[str, bytes], ...]:
    return tuple(
        (word, word.encode().translate(_CODES))
        for word in lexicon
        if len(word) >= 2 and word.isascii() and word.isalpha() and word.islower()
    )


def formable_words(roll: Roll, lexicon: Lexicon) -> RollWords:
    """Every word of two or more letters that this roll's cubes and jokers can spell."""
    have = [0] * 26
    for letter, count in roll.letters.items():
        have[ord(letter) - 97] += count
    jokers = roll.jokers
    size = len(roll)
    text: list[str] = []
    codes: list[bytes] = []
    for word, coded in _coded_lexicon(lexicon):
        if len(coded) > size:
            continue
        counts = [0] * 26
        short = 0
        for code in coded:
            counts[code] += 1
            if counts[code] > have[code]:
                short += 1
                if short > jokers:
                    break
        else:
            text.append(word)
            codes.append(coded)
    return RollWords(tuple(have), jokers, tuple(text), tuple(codes))
