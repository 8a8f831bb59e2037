"""Derive cuberef's Czech 16-cube set from Czech letter frequencies.

No Czech Boggle set has been published, so the 96 faces follow the letter frequencies
of written Czech, with háček, čárka and kroužek folded away (the cubes show plain
letters, a word may add them back). The table is Jan Králík's count of 3,139,926
graphemes in 540,000 words of Czech non-fiction (the Czech Language Institute's
corpus; Králík, *Statistika českých grafémů s využitím moderní výpočetní techniky*,
Slovo a slovesnost, http://sas.ujc.cas.cz/archiv.php?art=2913; the percentages as
published in Králík, *Czech Alphabet*, The Czech Language, 2001,
http://www.czech-language.cz/alphabet/alph-prehled.html).

Method, run by ``python -m engine.build.czech_cubes``:

1. Fold: add each accented letter's share to its plain letter (á to a, ů to u, ...).
   The digraph CH counts as one grapheme in the table; cubes show C and H as plain
   letters on separate cubes, so its share goes to both C and H.
2. Letters under 0.1 % (Q, W, X: foreign words only) get no face. Letters between
   0.1 % and one face's worth (F, G) get exactly one face, so every native letter
   can appear.
3. The other faces go to the other letters by largest remainder (Hamilton) in
   proportion to their share.
4. Faces are dealt onto 16 dice, vowels first, most frequent letter first: each
   face goes to the die with room that does not yet have that letter (and for C or
   H, not the other), with the fewest vowels (for a vowel), then where it meets the
   letters already there least often on other dice. Then consonants are swapped
   between dice while that makes letter pairs meet less often. So no die repeats a
   letter, C and H never share a die, every die has two or three vowels, and no two
   dice are alike. So no die repeats a letter,
   C and H never share a die, and every die has two or three vowels.

>>> counts = face_counts()
>>> sum(counts.values()), counts["E"], counts["F"], "Q" in counts
(96, 10, 1, False)
"""

from __future__ import annotations

import math
import sys
import unicodedata
from collections import Counter
from itertools import combinations, product
from pathlib import Path

#: Králík's table: percent of all graphemes (CH is one grapheme).
KRALIK_PERCENT: dict[str, float] = {
    "a": 6.2193, "á": 2.2355, "b": 1.5582, "c": 1.6067, "č": 0.9490, "d": 3.6019,
    "ď": 0.0222, "e": 7.6952, "é": 1.3346, "ě": 1.6453, "f": 0.2732, "g": 0.2729,
    "h": 1.2712, "ch": 1.1709, "i": 4.3528, "í": 3.2699, "j": 2.1194, "k": 3.7367,
    "l": 3.8424, "m": 3.2267, "n": 6.5353, "ň": 0.0814, "o": 8.6664, "ó": 0.0313,
    "p": 3.4127, "q": 0.0013, "r": 3.6970, "ř": 1.2166, "s": 4.5160, "š": 0.8052,
    "t": 5.7268, "ť": 0.0426, "u": 3.1443, "ú": 0.1031, "ů": 0.6948, "v": 4.6616,
    "w": 0.0088, "x": 0.0755, "y": 1.9093, "ý": 1.0721, "z": 2.1987, "ž": 0.9952,
}  # fmt: skip

FACES = 96
DICE = 16
FACES_PER_DIE = 6
#: Below this share (percent, folded) a letter gets no face.
NO_FACE_BELOW = 0.1
VOWELS = frozenset("AEIOUY")
TITLE = "Czech Boggle (cuberef's own set, from Czech letter frequencies)"
SOURCE = (
    "derived by engine/build/czech_cubes.py from Králík's Czech grapheme frequencies "
    "(Slovo a slovesnost; czech-language.cz/alphabet/alph-prehled.html), diacritics folded, "
    "CH as C + H; method in czech-boggle.md"
)


def folded_percent() -> dict[str, float]:
    """Each plain letter's share, accents folded in and CH counted as C and as H."""
    folded: dict[str, float] = {}
    for grapheme, percent in KRALIK_PERCENT.items():
        for letter in grapheme:
            plain = unicodedata.normalize("NFD", letter)[0].upper()
            folded[plain] = folded.get(plain, 0.0) + percent
    return dict(sorted(folded.items(), key=lambda item: (-item[1], item[0])))


def quotas(total: int = FACES) -> dict[str, float]:
    """Each letter's fair number of faces: exactly 1 for the rare letters, the others'
    share of the faces left (see the module's method, steps 2 and 3)."""
    shares = {letter: p for letter, p in folded_percent().items() if p >= NO_FACE_BELOW}
    whole = sum(shares.values())
    rare = {letter: 1.0 for letter, p in shares.items() if p / whole * total < 1}
    rest = {letter: p for letter, p in shares.items() if letter not in rare}
    rest_sum = sum(rest.values())
    left = total - len(rare)
    return {**{letter: p / rest_sum * left for letter, p in rest.items()}, **rare}


def face_counts(total: int = FACES) -> dict[str, int]:
    """How many faces each letter gets: its quota rounded by largest remainder."""
    fair = quotas(total)
    counts = {letter: math.floor(q) for letter, q in fair.items()}
    short = total - sum(counts.values())
    for letter in sorted(fair, key=lambda letter: (-(fair[letter] % 1), letter))[:short]:
        counts[letter] += 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _pairs(cubes: list[list[str]]) -> Counter[tuple[str, str]]:
    return Counter((a, b) for cube in cubes for a, b in combinations(sorted(cube), 2))


def _penalty(cubes: list[list[str]]) -> int:
    """How often letter pairs meet again on another die (0 when every pair is unique)."""
    return sum(n * (n - 1) // 2 for n in _pairs(cubes).values())


def _allowed(cube: list[str]) -> bool:
    return len(set(cube)) == len(cube) and not {"C", "H"} <= set(cube)


def deal(counts: dict[str, int], dice: int = DICE) -> list[list[str]]:
    """Put the faces on the dice (see the module's method, step 4)."""
    share = folded_percent()
    cubes: list[list[str]] = [[] for _ in range(dice)]
    order = sorted(counts, key=lambda letter: (letter not in VOWELS, -counts[letter], letter))
    for letter in order:
        vowel = letter in VOWELS
        for _ in range(counts[letter]):
            met = _pairs(cubes)

            def cost(
                i: int,
                letter: str = letter,
                vowel: bool = vowel,
                met: Counter[tuple[str, str]] = met,
            ) -> tuple[int, ...]:
                vowels = sum(face in VOWELS for face in cubes[i]) if vowel else 0
                clash = int(not _allowed([*cubes[i], letter]))
                meets = sum(met[(min(letter, f), max(letter, f))] for f in cubes[i])
                return (clash, vowels, meets, i)

            room = [i for i in range(dice) if len(cubes[i]) < FACES_PER_DIE]
            cubes[min(room, key=cost)].append(letter)
    # Swap consonants between dice while that makes letter pairs meet less often.
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(dice), 2):
            for x, y in product(range(FACES_PER_DIE), repeat=2):
                one, two = cubes[a][x], cubes[b][y]
                if one == two or one in VOWELS or two in VOWELS:
                    continue
                trial = [list(cube) for cube in cubes]
                trial[a][x], trial[b][y] = two, one
                if _allowed(trial[a]) and _allowed(trial[b]) and _penalty(trial) < _penalty(cubes):
                    cubes, improved = trial, True
    weight = {letter: share[letter] for letter in counts}
    return [sorted(cube, key=lambda face: (face not in VOWELS, -weight[face])) for cube in cubes]


def cube_set_text() -> str:
    lines = [f"# title: {TITLE}", f"# source: {SOURCE}"]
    lines += [" ".join(cube) for cube in deal(face_counts())]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).parents[1] / "data/cubes/czech-boggle.txt"
    out.write_text(cube_set_text(), encoding="utf-8")
    fair = quotas()
    for letter, count in face_counts().items():
        print(f"{letter} {folded_percent()[letter]:7.4f} % quota {fair[letter]:5.2f} -> {count}")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
