"""The words a roll can spell: the solver's dictionary for one throw.

A word is formable when the roll's cubes cover its letters, each joker standing in for
one missing letter. Words are kept as letter codes (a=0 ... z=25) for the solver.

>>> from engine.adlib.roll import Roll
>>> from engine.lexicon import Lexicon
>>> words = formable_words(Roll.parse("M O N E Y S T E B U J O Q", "adlib"), Lexicon.open("en"))
>>> "money" in words.text, "zoo" in words.text, "job" in words.text
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.adlib.roll import Roll, letter_value
from engine.lexicon import FINAL, Lexicon

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


#: Maps the codes 0-25 to the bytes of a-z.
_LETTERS = bytes.maketrans(bytes(range(26)), LETTERS.encode())


def formable_words(roll: Roll, lexicon: Lexicon) -> RollWords:
    """Every word of two or more letters that this roll's cubes and jokers can spell.

    The lexicon's DAWG is walked letter by letter, going on only while the roll can still
    pay for the letters, so a throw costs milliseconds and not a pass over every word.
    """
    have = [0] * 26
    for letter, count in roll.letters.items():
        have[ord(letter) - 97] += count
    jokers, size = roll.jokers, len(roll)
    masks, first, targets = lexicon.masks, lexicon.first, lexicon.targets
    # (bit, code) of the lexicon's plain letters a-z, in the lexicon's order.
    edges = [
        (2 << k, ord(letter) - 97)
        for k, letter in enumerate(lexicon.alphabet)
        if "a" <= letter <= "z"
    ]
    used = [0] * 26
    spelt: list[int] = []
    codes: list[bytes] = []

    def walk(state: int, short: int) -> None:
        mask = masks[state]
        if mask & FINAL and len(spelt) >= 2:
            codes.append(bytes(spelt))
        if len(spelt) == size:
            return
        base = first[state]
        for bit, code in edges:
            if mask & bit:
                over = used[code] >= have[code]
                if over and short == jokers:
                    continue
                used[code] += 1
                spelt.append(code)
                walk(targets[base + (mask & (bit - 2)).bit_count()], short + over)
                spelt.pop()
                used[code] -= 1

    walk(lexicon.root, 0)
    text = tuple(coded.translate(_LETTERS).decode() for coded in codes)
    return RollWords(tuple(have), jokers, text, tuple(codes))
