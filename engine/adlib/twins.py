"""Twin crosswords: the same but for the letter a joker stands for, searched only once.

A joker scores nothing whatever letter it stands for. Where two crosswords differ only in
a joker's letter, and that letter is one that only a joker can stand for, they score
alike; the search keeps the twin whose jokers stand for the earliest such letters and
cuts the others as soon as their lines through the joker are decided. A joker in one word
only may also stand in for a letter that has cubes: that letter is then on more cells than
it has cubes, the joker goes where it counts least (`engine.adlib.finish`), and the twin
with a joker-only letter there scores alike too.
"""

from __future__ import annotations

from engine.adlib.layout import Layout


def alone(layout: Layout, cell: int, direction: int) -> bool:
    """Would leaving the cube at `cell` alone that way make it a joker with a twin? It is
    then in one word only, the fewest a cell is in, so a joker there counts least.

    A letter on more cells than it has cubes stays so as the crossword grows: the answer
    holds for every crossword grown from here.
    """
    joker_only = layout.joker_only
    if not joker_only:
        return False
    code = layout.letter[cell]
    if joker_only >> code & 1:
        earlier = joker_only & ((1 << code) - 1)
    elif layout.need[code] > layout.have[code]:
        earlier = joker_only
    else:
        return False
    step = layout.stride if direction == 0 else 1  # along its word, the other way
    return _spelt_earlier(layout, cell, earlier, step, step)


def crossed(layout: Layout, start: int, step: int, length: int) -> bool:
    """Has the word just laid from `start` crossed a joker that has a twin, one with an
    earlier joker-only letter that spells both its words?"""
    joker_only = layout.joker_only
    if not joker_only or not layout.short:
        return False
    letter = layout.letter
    across = step == 1
    crossing = layout.state[across]  # the lines across the word's
    other = layout.stride if across else 1
    for cell in range(start, start + length * step, step):
        code = letter[cell]
        if (
            crossing[cell] == 2
            and joker_only >> code & 1
            and _spelt_earlier(layout, cell, joker_only & ((1 << code) - 1), step, other)
        ):
            return True
    return False


def _spelt_earlier(layout: Layout, cell: int, earlier: int, step: int, other: int) -> bool:
    """Does one of the letters `earlier` (a mask) at `cell` spell the runs of letters
    through it along `step` and along `other` (the same step for one run) as words?"""
    while earlier:
        lowest = earlier & -earlier
        earlier ^= lowest
        code = lowest.bit_length() - 1
        if _spells(layout, cell, step, code) and (
            other == step or _spells(layout, cell, other, code)
        ):
            return True
    return False


def _spells(layout: Layout, cell: int, step: int, code: int) -> bool:
    """Is the run of letters through `cell` along `step` a word with `code` at `cell`?"""
    letter = layout.letter
    first = cell
    while letter[first - step] >= 0:
        first -= step
    word = bytearray()
    here = first
    while letter[here] >= 0:
        word.append(code if here == cell else letter[here])
        here += step
    return bytes(word) in layout.spelling.known
