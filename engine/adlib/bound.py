"""How much a crossword grown from a layout can still score: the best-crossword search's bound.

A crossword scores ``sum over placed cubes of value * (words it is in + 1) - roll total``.
The bound counts, letter by letter, each cube at the most words it can still be in: two if
that letter can sit in two words at once with this roll, one if it fits a word, none
otherwise, and none for a cube that no word can take any more. A word laid later is spelt
from cubes still to be had and from letters on the table whose line is still open (it can
cross the table nowhere else), so a cube whose every word needs a letter whose lines are
decided counts for nothing. Crossings on letters other than the hubs (letters that every
word holds one of, such as the vowels and Y) are capped by how many words the hub cubes can
serve (see `Bound.crossing_cap`): a roll short of vowels cannot cross all its consonants.

>>> from engine.adlib.layout import Layout
>>> from engine.adlib.roll import Roll
>>> from engine.adlib.words import formable_words
>>> from engine.lexicon import Lexicon
>>> roll = Roll.parse("A T", "scribbage")
>>> words = formable_words(roll, Lexicon.open("en"))
>>> Bound(words, roll.total)(Layout(roll, words))  # AT: each cube in one word, 2 + 2 - 2 + 1
3
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.adlib.layout import RICHEST
from engine.adlib.tables import Joins, doubled_values, jokers_to_cross, letter_counts, letter_mask
from engine.adlib.words import VALUES, RollWords

if TYPE_CHECKING:
    from engine.adlib.layout import Layout

#: The dearest letter's value.
_DEAREST = max(VALUES)
#: The vowels as a mask of letter codes: where the search for hub letters starts.
VOWELS = sum(1 << (ord(letter) - 97) for letter in "aeiou")


class Bound:
    """The bound for one roll's crosswords: its tables are worked out once, then
    `bound(layout)` answers for any layout of the roll."""

    def __init__(
        self,
        words: RollWords,
        total: int,
        joins: Joins | None = None,
        cross: list[int] | None = None,
    ) -> None:
        self.words = words
        self.total = total
        self.have = words.have
        self.jokers = words.jokers
        self.cubes = sum(self.have) + self.jokers
        counts = letter_counts(words)
        # Per letter, the most words a cube of it can be in (see `_crossable`).
        self.cross = self._crossable(counts) if cross is None else cross
        self.hub, self.crossings = self.crossing_cap(counts)
        self.base = -total + sum(
            VALUES[code] * count * (self.cross[code] + 1 if self.cross[code] else 0)
            for code, count in enumerate(self.have)
        )
        self.joins = joins if joins is not None else Joins(words)
        self.rolled = sum(1 << code for code in range(26) if self.have[code])
        self.crossable = [code for code in range(26) if self.cross[code]]
        self.hubs = [code for code in range(26) if self.hub >> code & 1]
        # The words' letter sets by twice their letters' value, dearest first, and per set
        # of letters the dearest word spelt from them alone (memoised).
        worths = doubled_values(words)
        self.by_value = sorted(zip(worths, map(letter_mask, words.codes), strict=True))[::-1]
        self.richest: dict[int, int] = {}
        # The dearest letter a word holds: the most a joker's cell can count for.
        self.dearest_letter = max(
            (VALUES[code] for coded in words.codes for code in coded), default=0
        )

    def uncrossed(self, code: int) -> Bound:
        """The bound for the crosswords in which no cube of letter `code` is in two words."""
        cross = list(self.cross)
        cross[code] = min(cross[code], 1)
        return Bound(self.words, self.total, self.joins, cross)

    def __call__(self, layout: Layout) -> int:
        """No crossword grown from `layout` scores more than this.

        From the bound of the empty table (every cube in as many words as its letter can
        be), take off what the cubes already laid can no longer reach.
        """
        letter, blocked, edge, stride = layout.letter, layout.blocked, layout.edge, layout.stride
        across, down = layout.state
        cross, have, need = self.cross, self.have, layout.need
        spare = self.cubes - len(layout.order)
        loss = 0
        over: dict[int, list[int]] = {}
        # The letters a new word could still use: those with a cube left, those on the table
        # where a line is still open (a word laid later crosses the table only there), and
        # up to `missing` more for the jokers left.
        free = layout.left
        for cell in layout.order:
            if not across[cell] or not down[cell]:
                free |= 1 << letter[cell]
        missing = self.jokers - layout.short
        joins = self.joins(free, missing)
        hub = self.hub
        jokered = layout.short  # some letter has more cells than cubes
        fixed = 0  # cells off the hub letters that already are crossings
        # Per value, how many crossings off the hub letters are still credited.
        maybe = [0] * (_DEAREST + 1)
        for code in self.crossable:
            left = have[code] - need[code]
            if left > 0:
                if not joins >> code & 1:
                    loss += VALUES[code] * left * (cross[code] + 1)  # such cubes cannot be laid
                elif cross[code] == 2 and not hub >> code & 1:
                    maybe[VALUES[code]] += left
        for cell in layout.order:
            code = letter[cell]
            top = cross[code]
            words = more = 0
            decided = across[cell]
            if decided == 2:
                words = 1
            elif not decided:
                if letter[cell - 1] >= 0 or letter[cell + 1] >= 0:
                    words = 1
                elif spare and (
                    not blocked[cell - 1] and cell - 1 >= edge or not blocked[cell + 1]
                ):
                    more = 1
            decided = down[cell]
            if decided == 2:
                words += 1
            elif not decided:
                if letter[cell - stride] >= 0 or letter[cell + stride] >= 0:
                    words += 1
                elif spare and (
                    not blocked[cell - stride]
                    and cell - stride >= edge
                    or not blocked[cell + stride]
                ):
                    more += 1
            reach = words
            if more and words < top and joins >> code & 1:
                reach = min(words + more, top)
            if jokered and need[code] > have[code]:
                over.setdefault(code, []).append(top - reach)
                continue
            if not hub >> code & 1:  # a joker is a hub cell: it was let through above
                if words == 2:
                    fixed += 1
                elif reach == 2:
                    maybe[VALUES[code]] += 1
            if reach < top:
                loss += VALUES[code] * (top - reach)
        for code, shortfalls in over.items():
            # More cells than cubes of this letter: the cubes go where they lose least.
            shortfalls.sort()
            loss += VALUES[code] * sum(shortfalls[: have[code]])
        excess = fixed + sum(maybe) - self.crossings
        # More crossings credited than a crossword can have: drop the cheapest.
        value = 0
        while excess > 0 and value < _DEAREST:
            value += 1
            dropped = min(excess, maybe[value])
            loss += value * dropped
            excess -= dropped
        return self.base - loss

    def anchored(self, layout: Layout, lines: list[int], enough: int) -> int:
        """No crossword grown from `layout` scores more than this; `lines` are its open lines
        (cell * 2 + direction). The answer is cut short once it reaches `enough`.

        A word laid later either crosses the table at an open line or is spelt from the
        cubes left and the jokers to spare alone (a decided line takes no other word). A
        line takes at most one word, which fits it now as well, and a word adds its letters'
        value once for being a word and its new cubes' value once more for being laid. So
        what is still to come is at most: the richest word of each line (letters once); the
        cubes laid, each once, which are no more than the cubes left and no more than the
        new letters of those words (their letters less their line's run of cubes, which
        they must cover; a run is one line, counted once, at its first cell) with the cubes
        of the words spelt from cubes alone; and those words' letters, each cube counting at
        most once for each word it can be in.
        """
        cross, have, need = self.cross, self.have, layout.need
        spare = self.jokers - layout.short
        alone = self.joins(layout.left, spare)  # letters of a word spelt from cubes alone
        # First as `__call__` credits each cube of those words, on the table and in words.
        gain = dearest = 0
        code = 0
        while alone >> code:
            if alone >> code & 1:
                worth = VALUES[code] * (cross[code] + 1)
                dearest = max(dearest, worth)
                if have[code] > need[code]:
                    gain += worth * (have[code] - need[code])
            code += 1
        gain += dearest * spare
        hubs = 0
        if alone and not spare:
            # With no joker to spare, each word spelt from cubes alone holds a hub cube
            # (see `crossing_cap`), and a cube is in at most two words: so many such words
            # at most, each adding at most twice its letters' value.
            hubs = sum(have[code] - need[code] for code in self.hubs if have[code] > need[code])
            gain = min(gain, 2 * hubs * self.richest_alone(layout.left))
        enough -= layout.value - layout.total
        words = new = 0  # the open lines' richest words: their letters, their new letters
        richest = self._richest_words(layout, lines)
        while words + new + gain < enough:
            found = next(richest, None)
            if found is None:
                return layout.value - layout.total + words + new + gain
            words, new = words + found[0], new + found[1]
        # Then with each cube laid once: the cubes left, or the new letters of the lines'
        # words and the cubes of the words spelt from cubes alone, whichever is less.
        laid, laid_alone, member = self._laid(layout, alone, spare)
        if hubs:
            member = min(member, hubs * self.richest_alone(layout.left))
        tight = words + min(laid, new + laid_alone) + member
        while tight < enough:
            found = next(richest, None)
            if found is None:
                break
            words, new = words + found[0], new + found[1]
            tight = words + min(laid, new + laid_alone) + member
        return layout.value - layout.total + min(tight, words + new + gain)

    @staticmethod
    def _richest_words(layout: Layout, lines: list[int]) -> Iterator[tuple[int, int]]:
        """Per open line that a word can fill (a run of cubes once, at its first cell): its
        richest word's letters' value, and that less its run's."""
        letter, stride = layout.letter, layout.stride
        for line in lines:
            cell, direction = line >> 1, line & 1
            step = 1 if direction == 0 else stride
            if letter[cell - step] >= 0:  # not the first cube of its run
                continue
            richest = layout.line(cell, direction)[RICHEST] // 2
            if richest:
                more = richest
                while letter[cell] >= 0:
                    more -= VALUES[letter[cell]]
                    cell += step
                yield richest, more

    def _laid(self, layout: Layout, alone: int, spare: int) -> tuple[int, int, int]:
        """The cubes left, each laid once; those of the words spelt from cubes alone (with
        `alone` their letters); and what those words' letters add as words."""
        have, need, cross = self.have, layout.need, self.cross
        laid = spare * self.dearest_letter  # a joker counts as the letter it stands for
        laid_alone = member = top_value = top_member = 0
        letters = layout.left | alone
        while letters:
            low = letters & -letters
            letters ^= low
            code = low.bit_length() - 1
            count = have[code] - need[code]
            value = VALUES[code]
            if count > 0:
                laid += value * count
            if alone & low:
                worth = value * cross[code]
                top_value, top_member = max(top_value, value), max(top_member, worth)
                if count > 0:
                    laid_alone += value * count
                    member += worth * count
        return laid, laid_alone + top_value * spare, member + top_member * spare

    def richest_alone(self, letters: int) -> int:
        """Twice the letters' value of the dearest word spelt from `letters` (a mask) alone."""
        found = self.richest.get(letters)
        if found is None:
            outside = ~letters
            found = next((value for value, mask in self.by_value if not mask & outside), 0)
            self.richest[letters] = found
        return found

    def crossing_cap(self, counts: list[list[int]]) -> tuple[int, int]:
        """Hub letters (a mask) that every word holds one of, and how many cells of other
        letters a crossword of this roll can have as crossings.

        Every run of two or more cells is a word, so the cells' adjacencies are the words'
        inner links: with N cells, W words and C crossings, the cell graph has N + C - W
        edges and H = C - W + 1 independent cycles (H = 0 for a tree of words). Each word
        holds a hub cell; a hub cell is in at most two words, so W <= s + c_hub with s the
        hub cells. Hence the crossings off the hubs, C - c_hub, are at most s - 1 + H and
        at most W*W/4 - (W - s) (an across and a down word cross at most once). H is at
        most N - ceil(2 sqrt N) + 1 (a polyomino of N cells has at most 2N - ceil(2 sqrt N)
        adjacencies). Jokers count as hub cells: a word that needs one holds one, so only
        the words spelt from cubes alone must hold a hub letter. Any set of letters that
        every such word holds will do; of those found, the one that caps hardest is kept.
        """
        have, words = self.have, self.words
        sets: set[int] = set()
        for coded, counted in zip(words.codes, counts, strict=True):
            if not words.excess(counted):
                sets.add(sum(1 << code for code in set(coded)))
        # A hub set that holds a letter of a word's set holds one of every wider set's.
        needed: list[int] = []
        for mask in sorted(sets, key=int.bit_count):
            if not any(inner & mask == inner for inner in needed):
                needed.append(mask)
        best = (-1, 0, 0)  # (what the cap cuts from the bound of the empty table, cap, hub)
        for hub in _hitting_sets(needed):
            hubs = sum(have[code] for code in range(26) if hub >> code & 1) + self.jokers
            cap = _off_hub_cap(hubs, self.cubes)
            values = sorted(
                VALUES[code]
                for code in range(26)
                if self.cross[code] == 2 and not hub >> code & 1
                for _ in range(have[code])
            )
            cut = sum(values[: max(0, len(values) - cap)])
            best = max(best, (cut, -cap, hub))
        return best[2], -best[1]

    def _crossable(self, counts: list[list[int]]) -> list[int]:
        """Per letter: 2 if two words can share a cube of it, 1 if it fits a word, else 0."""
        have, jokers = self.have, self.jokers
        with_letter: list[list[list[int]]] = [[] for _ in range(26)]
        for coded, counted in zip(self.words.codes, counts, strict=True):
            for code in set(coded):
                with_letter[code].append(counted)
        cross = [0] * 26
        budget = 20000  # pair checks per letter before it is simply assumed crossable
        for code in range(26):
            found = with_letter[code]
            if not have[code] or not found:
                continue
            cross[code] = 1
            found = sorted(found, key=sum)
            checks = 0
            for i, first in enumerate(found):
                for second in found[i:]:
                    checks += 1
                    if jokers_to_cross(have, first, second, code) <= jokers or checks > budget:
                        cross[code] = 2
                        break
                if cross[code] == 2:
                    break
        return cross


def _off_hub_cap(hubs: int, cells: int) -> int:
    """How many crossings off the hub letters a crossword of `cells` cubes with `hubs` hub
    cells can have (see `Bound.crossing_cap`)."""
    cycles = max(0, cells - (math.isqrt(4 * cells - 1) + 1) + 1) if cells else 0
    cap = 0
    for words in range(2, 2 * hubs + 1):
        crossings = min(words * words // 4, words - 1 + cycles)
        cap = max(cap, crossings - max(0, words - hubs))
    return cap


def _hitting_sets(needed: list[int], most: int = 2000) -> list[int]:
    """Sets of letters (masks) holding a letter of each of the `needed` masks, at most
    `most`: those grown from the vowels first, then those grown from nothing, each grown by
    adding, for the first mask not yet held, one of its letters."""
    found: list[int] = []

    def grow(held: int) -> None:
        if len(found) >= most:
            return
        for mask in needed:
            if not mask & held:
                break
        else:
            found.append(held)
            return
        for code in range(26):
            if mask >> code & 1:
                grow(held | 1 << code)

    grow(VOWELS)
    grow(0)
    return found
