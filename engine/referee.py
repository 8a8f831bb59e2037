"""Is a word good on this board, and if not, why: the referee's ruling on one word.

>>> from engine.board import Board
>>> from engine.games import find_game
>>> board, game = Board.parse("TNTB/GDAR/ELTE/SISH"), find_game("boggle")
>>> ruling = check("dart", board, game)
>>> ruling.valid, ruling.points, ruling.path
(True, 1, ((1, 1), (1, 2), (1, 3), (0, 2)))
>>> check("zeal", board, game).reason
'not on the board: the board has no Z'
>>> check("trash", board, game).reason
'not on the board: after TRA the board has no S next to the A'
>>> check("be", board, game).status
'too-short'
>>> check("gonna", Board.parse("GONN/XXXA/XXXX/XXXX"), game).reason
'not a word: GONNA is slang, which the rulebook does not allow'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from engine.board import Board, Cell
from engine.errors import NotationError
from engine.games import Game
from engine.house import ALLOWED_BY_TABLE, REFUSED_BY_TABLE, HouseList
from engine.lexicon import Lexicon, fold
from engine.notes import Notes
from engine.solver import neighbours

#: The statuses of a ruling, best first.
VALID, TOO_SHORT, NOT_ON_BOARD, NOT_A_WORD = "valid", "too-short", "not-on-board", "not-a-word"
LANGUAGES = {"en": "English", "cs": "Czech"}
#: What each class of refused word is, as a reason says it (``Ruling.refusal``).
REFUSALS = {
    "slang": "is slang",
    "contraction": "is a contraction",
    "fragment": "is part of a contraction",
    "abbreviation": "is an abbreviation",
    "proper-noun": "is a proper noun",
    "offensive": "is offensive",
    "foreign": "is a foreign word",
    "phrase": "is only part of a phrase",
    "prefix": "is only a prefix",
    "apostrophe": "needs an apostrophe",
    "hyphen": "has a hyphen",
}
#: The other reasons a written line is no word: no class of the rulebook's, just not one.
NOT_IN_LIST, TABLE, NOT_LETTERS = "not-in-list", "table", "not-letters"
#: How many partial paths a trace may try before it settles for what it has.
_TRACE_LIMIT = 200_000


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's answer for one word as a player wrote it."""

    word: str
    #: The real spelling the word counts as ("" when it is not a word here).
    spelling: str
    status: str
    #: Why not, or for a valid word a note (the spelling its diacritics were read as).
    reason: str
    points: int
    path: tuple[Cell, ...]
    #: Every real spelling it counts as: one, or for a Czech word written without its
    #: diacritics that fits several of equal points, each of them (crossed off by any).
    spellings: tuple[str, ...] = ()
    #: Why it is no word: a class of :data:`REFUSALS`, ``not-in-list``, ``table`` (the
    #: table refused it) or ``not-letters``; "" for any other ruling.
    refusal: str = ""
    #: Whether the table's own ruling decided it (allowed or refused by this table).
    by_table: bool = False

    @property
    def valid(self) -> bool:
        return self.status == VALID


def refusal_reason(word: str, refusal: str) -> str:
    """The sentence for a word refused as one of the rulebook's classes.

    >>> refusal_reason("gonna", "slang")
    'not a word: GONNA is slang, which the rulebook does not allow'
    """
    return f"not a word: {word.upper()} {REFUSALS[refusal]}, which the rulebook does not allow"


def written_problem(text: str) -> tuple[str, str]:
    """Why a written line is not a word at all, and its class (("", "") when it is
    letters only).

    >>> written_problem("don't")
    ("not a word: DON'T is a contraction, which the rulebook does not allow", 'contraction')
    >>> written_problem("snob-nose")[0]
    'not a word: SNOB-NOSE has a hyphen, which the rulebook does not allow'
    >>> written_problem("Kočka")
    ('', '')
    """
    word = text.strip()
    if not word:
        return "not a word: the line is empty", NOT_LETTERS
    if word.isalpha():
        return "", ""
    if any(mark in word for mark in "'’ʼ`"):
        return refusal_reason(word, "contraction"), "contraction"
    if any(mark in word for mark in "-‐‑–—"):
        return refusal_reason(word, "hyphen"), "hyphen"
    if any(char.isdigit() for char in word):
        return f"not a word: {word} has digits, and words are letters only", NOT_LETTERS
    if any(char.isspace() for char in word):
        return f"not a word: {word} is more than one word; write one word a line", NOT_LETTERS
    return (
        f"not a word: {word} has signs that are not letters, and words are letters only",
        NOT_LETTERS,
    )


def word_problem(text: str) -> str:
    """Why a written line is not a word at all ("" when it is letters only).

    >>> word_problem("c4t"), word_problem("cat")
    ('not a word: c4t has digits, and words are letters only', '')
    """
    return written_problem(text)[0]


def normalize_word(text: str) -> str:
    """A written word as the referee compares it: trimmed, lowercase, letters only.

    For an input that refuses what is no word at once (a typed word); a list's lines go
    to :func:`check`, which rules on each instead.

    >>> normalize_word("  Kočka ")
    'kočka'
    >>> normalize_word("c4t")
    Traceback (most recent call last):
    ...
    engine.errors.NotationError: Not a word: c4t has digits, and words are letters only.
    """
    word = fold_case(text.strip())
    problem = word_problem(word)
    if problem:
        raise NotationError(problem[:1].upper() + problem[1:] + ".")
    return word


def fold_case(text: str) -> str:
    """Lowercase in composed form, so ``č`` typed as c + háček compares equal."""
    return unicodedata.normalize("NFC", text.lower())


def check(
    word: str,
    board: Board | None,
    game: Game,
    lexicon: Lexicon | None = None,
    min_length: int | None = None,
    through: Cell | None = None,
    house: HouseList | None = None,
) -> Ruling:
    """Rule on one word as written: not a word (a contraction, a hyphen, digits...), too
    short, not on the board, not in the lexicon, or valid with a path.

    ``through`` asks for a path through that cell where one exists (the challenge cube);
    ``house`` is the table's own rulings, which come before the lexicon's. Without a
    board the word is ruled as a word only (its path is empty).
    """
    lexicon = lexicon or Lexicon.open(game.lexicon)
    written = fold_case(word.strip())
    problem, refusal = written_problem(written)
    if problem:
        return Ruling(written, "", NOT_A_WORD, problem, 0, (), refusal=refusal)
    shortest = game.min_length if min_length is None else min_length
    if len(written) < shortest:
        return Ruling(
            written,
            "",
            TOO_SHORT,
            f"too short: {game.title} words need at least {shortest} letters",
            0,
            (),
        )
    folded = fold(written)
    path: tuple[int, ...] = ()
    if board is not None:
        traced, reach = trace(board, folded, through)
        if traced is None:
            why = "not on the board: " + _why(board, written, reach)
            return Ruling(written, "", NOT_ON_BOARD, why, 0, ())
        path = traced
    spellings, note, refusal = _spellings(written, folded, lexicon, game, house)
    by_table = refusal == TABLE or note == ALLOWED_BY_TABLE
    if not spellings:
        return Ruling(written, "", NOT_A_WORD, note, 0, (), refusal=refusal, by_table=by_table)
    coords = list(board.cells()) if board is not None else []
    return Ruling(
        written,
        spellings[0],
        VALID,
        note,
        game.points(spellings[0]),
        tuple(coords[c] for c in path),
        spellings,
        by_table=by_table,
    )


def _spellings(
    written: str, folded: str, lexicon: Lexicon, game: Game, house: HouseList | None
) -> tuple[tuple[str, ...], str, str]:
    """The real words a written one counts as, a note, and why not: ((), why, class)."""
    table = house.ruling(written) if house is not None else None
    if table is not None:
        if table:
            return (written,), ALLOWED_BY_TABLE, ""
        return (), f"not a word: {written.upper()} is {REFUSED_BY_TABLE}", TABLE
    if written in lexicon:
        return (written,), "", ""
    language = lexicon.card.language
    if written == folded:
        found = [s for s in lexicon.spellings(folded) if house is None or house.ruling(s) is None]
        if house is not None:
            found += [s for s in sorted(house.allowed) if fold(s) == folded and s not in found]
        spellings = tuple(found)
        if len(spellings) == 1:
            return spellings, f"written without diacritics; counted as {spellings[0]}", ""
        if len({game.points(spelling) for spelling in spellings}) == 1:
            return (
                spellings,
                (
                    f"written without diacritics; counted as any of {_or(spellings)}, "
                    "each worth the same"
                ),
                "",
            )
        if spellings:
            return (
                (),
                (f"not a word: it could be {_or(spellings)}, so write it with its diacritics"),
                NOT_IN_LIST,
            )
    refusal = Notes.open(lexicon).refusal(written)
    if refusal == "offensive" and house is not None and house.offensive:
        return (written,), ALLOWED_BY_TABLE, ""
    if refusal in REFUSALS:
        return (), refusal_reason(written, refusal), refusal
    name = LANGUAGES.get(language, language)
    return (), f"not a word: {written.upper()} is not in the {name} word list", NOT_IN_LIST


def _or(words: tuple[str, ...]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1]


def trace(
    board: Board, folded: str, through: Cell | None = None
) -> tuple[tuple[int, ...] | None, tuple[int, int]]:
    """A path of cell numbers spelling ``folded``, preferring one through ``through``.

    Without a path, says how far the best attempt got: (letters placed, last cell).

    >>> trace(Board.parse("QuI/TE"), "quite")
    ((0, 1, 2, 3), (5, 3))
    >>> trace(Board.parse("QuI/TE"), "quest")
    (None, (3, 3))
    """
    size = board.size
    spelt = [face.letters for row in board.rows for face in row]
    around = neighbours(size)
    want = -1 if through is None else through[0] * size + through[1]
    best = [0, -1]
    found: list[tuple[int, ...]] = []
    wanted: list[tuple[int, ...]] = []
    budget = [_TRACE_LIMIT]

    def go(at: int, cell: int, used: int, path: tuple[int, ...]) -> bool:
        """True when the search may stop: a path through ``want`` (or any path, when
        none is wanted) has been found, or the budget is spent."""
        budget[0] -= 1
        if at > best[0]:
            best[:] = [at, cell]
        if at == len(folded):
            found.append(path)
            if want in path:
                wanted.append(path)
            return want < 0 or bool(wanted)
        if budget[0] < 0:
            return True
        for n in around[cell]:
            text = spelt[n]
            if (
                text
                and not used >> n & 1
                and folded.startswith(text, at)
                and go(at + len(text), n, used | 1 << n, (*path, n))
            ):
                return True
        return False

    for cell, text in enumerate(spelt):
        if text and folded.startswith(text) and go(len(text), cell, 1 << cell, (cell,)):
            break
    if found:
        path = (wanted or found)[0]
        return path, (len(folded), path[-1])
    return None, (best[0], best[1])


def _why(board: Board, written: str, reach: tuple[int, int]) -> str:
    """Which letter cannot be reached: the first that no path gets to."""
    placed, last = reach
    folded = fold(written)
    rest = folded[placed:]
    faces = [face for row in board.rows for face in row]
    wanted = rest[:2].upper() if rest.startswith("qu") else rest[:1].upper()
    if not any(face.letters and rest.startswith(face.letters) for face in faces):
        return f"the board has no {wanted}"
    size = board.size
    after = written[:placed].upper() if len(written) == len(folded) else folded[:placed].upper()
    near = [
        n for n in neighbours(size)[last] if faces[n].letters and rest.startswith(faces[n].letters)
    ]
    previous = faces[last].symbol.upper()
    if near:
        return f"after {after} every {wanted} next to the {previous} is already used"
    return f"after {after} the board has no {wanted} next to the {previous}"


@dataclass(frozen=True, slots=True)
class Dispute:
    """A word a player challenged, as the table sees it before it rules: what the word
    list (or an earlier ruling of the table) says, and what the word means."""

    word: str
    counts: bool
    #: Why it does not count, or the note on a word that does ("" for a plain word).
    reason: str
    #: Its short definition, or the sentence saying there is none.
    definition: str

    @property
    def verdict(self) -> str:
        """What the word list says, in one line for the screen and the phone.

        >>> Dispute("cats", True, "", "CATS: a form of CAT").verdict
        'CATS counts: it is in the word list'
        """
        if self.counts:
            return f"{self.word.upper()} counts: {self.reason or 'it is in the word list'}"
        return self.reason.removeprefix("not a word: ")


def dispute(word: str, game: Game, lexicon: Lexicon, house: HouseList | None = None) -> Dispute:
    """What the table is shown of a challenged word before it rules on it.

    >>> from engine.games import find_game
    >>> gonna = dispute("Gonna", find_game("boggle"), Lexicon.open("en"))
    >>> gonna.counts, gonna.verdict
    (False, 'GONNA is slang, which the rulebook does not allow')
    >>> gonna.definition
    'WordNet 3.0 has no definition of GONNA.'
    """
    ruling = check(word, None, game, lexicon, min_length=1, house=house)
    definition = Notes.open(lexicon).meaning(ruling.spelling or ruling.word)
    return Dispute(ruling.word, ruling.valid, ruling.reason, definition)
