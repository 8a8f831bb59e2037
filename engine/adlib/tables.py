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
>>> spelling = Spelling(words.codes)  # where an A has a T to spare: AT, and TA
>>> slots = spelling.fitting(free=1 | 1 << 19, missing=0)
>>> [spelling.fitting_at(0, position, 1 | 1 << 19, 0, slots) for position in (0, 1)]
[[(2, 0)], [(2, 1)]]
"""

from __future__ import annotations

from array import array
from typing import TypeAlias

from engine.adlib.words import VALUES, RollWords

#: How many filtered word lists `Spelling.fitting` keeps before it starts afresh.
FITS_KEPT = 20000

#: A first word: (word number, direction), 0 across from the first cell or 1 down from it.
Move = tuple[int, int]
#: Two crossing words: (direction, row, column, letter codes) each, the first at (0, 0).
Pair = tuple[tuple[int, int, int, bytes], tuple[int, int, int, bytes]]
#: What a line through a cube can be, worked out once per shape (`layout.Layout.line`),
#: flat and small, as many thousand lines are: how many of its options are words
#: (`layout.WORDS`), twice the letters' value of the richest of them, the most that laying
#: a word here can add (0 when none: `layout.RICHEST`), then per option, the words that add
#: most per cube first, its start as cells from the cube and its word number (-1: the cube
#: alone).
Line: TypeAlias = "array[int]"


class Spelling:
    """The roll's words spelt one way, forwards or backwards, and the tables that find the
    words fitting a line."""

    def __init__(self, codes: tuple[bytes, ...], backwards: bool = False) -> None:
        self.codes = codes
        self.backwards = backwards
        self.known = set(codes)  # to ask whether some letters spell a word
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
        # Per letter, the letters that follow it at the start of a word, that come before it
        # at the end of one, and that stand next to it anywhere in one (masks): a cube alone
        # on its line takes a word only with one of them beside it.
        self.starts, self.ends, self.beside = [0] * 26, [0] * 26, [0] * 26
        for coded in codes:
            self.starts[coded[0]] |= 1 << coded[1]
            self.ends[coded[-1]] |= 1 << coded[-2]
            for one, other in zip(coded, coded[1:], strict=False):
                self.beside[one] |= 1 << other
                self.beside[other] |= 1 << one
        # Which words hold a letter twice: only they need their cubes counted as they go.
        self.repeats = [len(set(coded)) < len(coded) for coded in codes]
        self.positions = longest
        # `fitting`'s memo: per (free letters, jokers to spare), a slot per letter and
        # position, filled in when it is first asked for.
        self.fits: dict[tuple[int, int], list[list[tuple[int, int]] | None]] = {}
        # `Layout.line`'s memo: per shape of a line, what it can be (`Line`).
        self.lines: dict[bytes, Line] = {}

    def fitting(self, free: int, missing: int) -> list[list[tuple[int, int]] | None]:
        """Per letter and position (slot ``code * positions + position``): None until
        `fitting_at` fills it in (memoised)."""
        key = (free, missing)
        found = self.fits.get(key)
        if found is None:
            if len(self.fits) > FITS_KEPT:
                self.fits.clear()
            found = self.fits[key] = [None] * (26 * self.positions)
        return found

    def fitting_at(
        self,
        code: int,
        position: int,
        free: int,
        missing: int,
        slots: list[list[tuple[int, int]] | None],
    ) -> list[tuple[int, int]]:
        """(length, word number) of the words with `code` at `position` whose other letters
        are `free` or among `missing` jokers, shortest first; kept in `slots`, which
        `fitting(free, missing)` gave."""
        entries = self.by_position[code][position]
        outside = ~free
        if missing:
            found = [
                (length, number)
                for length, number, mask in entries
                if (mask & outside).bit_count() <= missing
            ]
        else:  # the usual case, no joker to spare: no letters to count
            found = [(length, number) for length, number, mask in entries if not mask & outside]
        slots[code * self.positions + position] = found
        return found


class Joins:
    """Which letters can join a word spelt from some letters and jokers: for the bound,
    which cubes can still be laid, and for a line, whether any word can fill it."""

    def __init__(self, words: RollWords) -> None:
        # The words' distinct sets of letters, and per letter, which of those sets hold it
        # (as bits of an int): a question is answered for all the sets at once.
        sets = sorted({letter_mask(coded) for coded in words.codes})
        self.holding = [0] * 26
        for number, mask in enumerate(sets):
            for code in range(26):
                if mask >> code & 1:
                    self.holding[code] |= 1 << number
        self.every = (1 << len(sets)) - 1
        self.spelt = sum(1 << code for code in range(26) if self.holding[code])
        self.memo: dict[tuple[int, int], int] = {}

    def __call__(self, free: int, missing: int) -> int:
        """The mask of letters that can join some word spelt from `free` letters and `missing`
        jokers (memoised).

        >>> from engine.adlib.roll import Roll
        >>> from engine.adlib.words import formable_words
        >>> from engine.lexicon import Lexicon
        >>> joins = Joins(formable_words(Roll.parse("A T *", "scribbage"), Lexicon.open("en")))
        >>> a, t = 1, 1 << 19
        >>> joins(a | t, 0) == a | t, joins(a, 0), joins(a, 1) & t == t
        (True, 0, True)
        """
        key = (free, missing)
        found = self.memo.get(key)
        if found is None:
            holding = self.holding
            lacking = self.spelt & ~free  # letters of some word, not to be had
            outside = [holding[code] for code in range(26) if lacking >> code & 1]
            if missing >= len(outside):
                spelt = self.every  # jokers enough for every letter outside
            else:
                # beyond[k] holds the sets with more than k letters outside, counted letter
                # by letter.
                beyond = [0] * (missing + 1)
                for sets in outside:
                    for k in range(missing, 0, -1):
                        beyond[k] |= beyond[k - 1] & sets
                    beyond[0] |= sets
                spelt = self.every & ~beyond[missing]
            found = 0
            for code in range(26):
                if holding[code] & spelt:
                    found |= 1 << code
            self.memo[key] = found
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


def doubled_values(words: RollWords) -> list[int]:
    """Per word, twice its letters' value: the most that laying it can add."""
    return [2 * sum(VALUES[code] for code in coded) for coded in words.codes]


def jokers_to_cross(have: tuple[int, ...], first: list[int], second: list[int], code: int) -> int:
    """How many jokers two words (their letter counts) need beyond the cubes `have` to
    cross at a cube of letter `code`, which they share."""
    short = 0
    for letter in range(26):
        need = first[letter] + second[letter] - (letter == code)
        if need > have[letter]:
            short += need - have[letter]
    return short


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


def crossing_pairs_at(words: RollWords, code: int, most: int) -> list[Pair] | None:
    """Every two words the roll can lay crossing at a cube of letter `code`, the across
    word first, or None if that takes more than `most` checks. Of a pair and the same
    mirrored on its diagonal (its down word across), only one is given: a crossword and
    the same mirrored score alike.

    >>> from engine.adlib.roll import Roll
    >>> from engine.adlib.words import formable_words
    >>> from engine.lexicon import Lexicon
    >>> words = formable_words(Roll.parse("Q A T I *", "scribbage"), Lexicon.open("en"))
    >>> text = dict(zip(words.codes, words.text))
    >>> pairs = crossing_pairs_at(words, ord("q") - 97, 100)
    >>> [(text[across[3]], text[down[3]], down[1:3]) for across, down in pairs]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('qat', 'qi', (0, 0)), ('qat', 'qis', (0, 0)), ('qats', 'qi', (0, 0)),
     ('qi', 'qi', (0, 0)), ('qi', 'qua', (0, 0)), ('qi', 'quat', (0, 0))]
    """
    have, jokers = words.have, words.jokers
    places = [
        (number, position)
        for number, coded in enumerate(words.codes)
        for position, found in enumerate(coded)
        if found == code
    ]
    if len(places) * (len(places) + 1) // 2 > most:
        return None
    counts = letter_counts(words)
    pairs: list[Pair] = []
    for index, (first, at) in enumerate(places):
        across = counts[first]
        for second, down_at in places[index:]:
            if jokers_to_cross(have, across, counts[second], code) <= jokers:
                down_word = (1, -down_at, at, words.codes[second])
                pairs.append(((0, 0, 0, words.codes[first]), down_word))
    return pairs
