"""The word tables of one roll, as the best-crossword search looks words up.

Words are letter codes (a=0 ... z=25). A `Spelling` holds them spelt one way, forwards or
backwards, and finds the words that can hold a letter at a position of a line; the first
words are the roll's words in the order the search lays them from its first cell.

>>> from engine.adlib.roll import Roll
>>> from engine.adlib.words import formable_words
>>> from engine.lexicon import Lexicon
>>> words = formable_words(Roll.parse("A T", "scribbage"), Lexicon.open("en"))
>>> words.text, first_words(words)
(('at', 'ta'), [(1, 0), (1, 1), (0, 0), (0, 1)])
>>> Spelling(words.codes).fitting(0, free=1 | 1 << 19, missing=0)  # where an A has a T to spare
[[(2, 0)], [(2, 1)]]
"""

from __future__ import annotations

from engine.adlib.words import VALUES, RollWords

#: How many filtered word lists `Spelling.fitting` keeps before it starts afresh.
FITS_KEPT = 50000

#: A first word: (word number, direction), 0 across from the first cell or 1 down from it.
Move = tuple[int, int]


class Spelling:
    """The roll's words spelt one way, forwards or backwards, and the tables that find the
    words fitting a line."""

    def __init__(self, codes: tuple[bytes, ...], backwards: bool = False) -> None:
        self.codes = codes
        self.backwards = backwards
        # Per letter and position: (length, word number, set of letters as a mask) of the
        # words with that letter there, shortest first.
        longest = max(map(len, codes), default=0)
        self.by_position: list[list[list[tuple[int, int, int]]]] = [
            [[] for _ in range(longest)] for _ in range(26)
        ]
        for number, coded in enumerate(codes):
            mask = letter_mask(coded)
            for position, code in enumerate(coded):
                self.by_position[code][position].append((len(coded), number, mask))
        for positions in self.by_position:
            for entries in positions:
                entries.sort()
        # `fitting`'s memo: per (letter, free letters, jokers to spare).
        self.fits: dict[tuple[int, int, int], list[list[tuple[int, int]]]] = {}

    def fitting(self, code: int, free: int, missing: int) -> list[list[tuple[int, int]]]:
        """Per position of `code`: (length, word number) of the words with that letter there
        whose other letters are `free` or among `missing` jokers, shortest first (memoised)."""
        key = (code, free, missing)
        fits = self.fits
        found = fits.get(key)
        if found is None:
            if len(fits) > FITS_KEPT:
                fits.clear()
            outside = ~free
            if missing:
                found = [
                    [
                        (length, number)
                        for length, number, mask in entries
                        if (mask & outside).bit_count() <= missing
                    ]
                    for entries in self.by_position[code]
                ]
            else:  # the usual case, no joker to spare: no letters to count
                found = [
                    [(length, number) for length, number, mask in entries if not mask & outside]
                    for entries in self.by_position[code]
                ]
            while found and not found[-1]:
                found.pop()
            fits[key] = found
        return found


def spellings(words: RollWords) -> tuple[Spelling, Spelling]:
    """The words forwards, and backwards: the same search with every word spelt backwards
    builds each crossword turned half round, from its other corner."""
    return Spelling(words.codes), Spelling(tuple(coded[::-1] for coded in words.codes), True)


def letter_mask(coded: bytes) -> int:
    """The set of letters of a word, as a mask of letter codes.

    >>> bin(letter_mask(bytes([0, 2, 0])))
    '0b101'
    """
    return sum(1 << code for code in set(coded))


def letter_counts(words: RollWords) -> list[list[int]]:
    """Per word, how many of each letter it holds."""
    counts = [[0] * 26 for _ in words.codes]
    for coded, counted in zip(words.codes, counts, strict=True):
        for code in coded:
            counted[code] += 1
    return counts


def first_words(words: RollWords, share: tuple[int, int] = (0, 1)) -> list[Move]:
    """Worker k of n's first words, across or down from the first cell, the dearest per
    letter first: the best crosswords are dense blocks of dear letters, often topped by a
    short word. Worker k of n takes every n-th word from the k-th, so each gets dear ones."""
    have = words.have
    ranked = []
    for number, coded in enumerate(words.codes):
        counts: dict[int, int] = {}
        value = 0
        for code in coded:
            counts[code] = counts.get(code, 0) + 1
            if counts[code] <= have[code]:
                value += VALUES[code]
        ranked.append((value / len(coded), value, len(coded), number))
    ranked.sort(reverse=True)
    worker, workers = share
    mine = ranked[worker::workers]
    return [(number, direction) for *_, number in mine for direction in (0, 1)]
