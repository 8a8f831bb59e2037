"""How the bundled English list rules on common words and on known non-words.

Run: ``python tests/benchmarks/measure_words.py [--top 10000] [--boards 300]``.

- **Common words refused**: the ``--top`` most frequent English words of wordfreq 3.1.1
  (PyPI ``wordfreq``, code Apache-2.0, data CC-BY-SA 4.0: Wikipedia, subtitles, news,
  books, web text, Twitter, Reddit), letters only, two or more, that a dictionary lists
  (WordNet 3.0 knows them as common words, themselves or inflected, or GCIDE has
  them and WordNet does not know them as names or abbreviations); each refused is
  printed with its reason, names apart. ``--listed-in FILE`` takes "a dictionary lists" from
  a word list instead (ENABLE's, or a tournament list), as an outside measure would.
  wordfreq is not a project dependency: ``pip install wordfreq`` into the venv.
- **Known words and non-words ruled wrongly**: every row of ``tests/english_words.tsv`` (and
  ``tests/czech_words.tsv``) whose ruling the list does not give.
- **Boards**: ``--boards`` boards of ``--game`` (default Boggle's 4x4) rolled with seeds
  1..N, as ``cuberef roll --game boggle --seed N``, solved; each word the solver lists that
  english_words.tsv refuses, or that neither WordNet nor GCIDE knows (and of those, the
  ones FreeDict's English headwords lack too), is counted, with the boards holding one.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.board import Board  # noqa: E402
from engine.build import gcide  # noqa: E402
from engine.build.freedict import FreeDict  # noqa: E402
from engine.build.wordnet import WordNet  # noqa: E402
from engine.games import find_game  # noqa: E402
from engine.lexicon import Lexicon  # noqa: E402
from engine.notes import Notes  # noqa: E402
from engine.referee import check  # noqa: E402
from engine.solver import solve  # noqa: E402

TESTS = ROOT / "tests"


def rows(name: str) -> list[tuple[str, str, str]]:
    lines = (TESTS / name).read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


def wrongly_ruled(name: str, game: str) -> list[str]:
    """The rows of a test list the lexicon does not rule as the list says."""
    wrong = []
    lexicon = Lexicon.open(find_game(game).lexicon)
    for word, ruling, _ in rows(name):
        result = check(word, None, find_game(game), lexicon, min_length=1)
        got = "counts" if result.valid else result.refusal
        if got != ruling:
            wrong.append(f"{word} ({ruling}, ruled {got})")
    return wrong


def common_words(
    top: int, known: set[str], wordnet: WordNet, dictionary: set[str] | None = None
) -> None:
    try:
        from wordfreq import top_n_list
    except ImportError:
        print("common words: wordfreq is not installed (pip install wordfreq); skipped")
        return
    en = Lexicon.open("en")
    notes = Notes.open(en)

    def lists(word: str) -> bool:  # WordNet or GCIDE has it as a common word
        return bool(wordnet.common(word)) or (word in known and not wordnet.bases(word))

    listed = [
        word
        for word in top_n_list("en", top)
        if word.isascii() and word.isalpha() and len(word) > 1
        if (word in dictionary if dictionary is not None else lists(word))
    ]
    refused = {word: notes.refusal(word) or "not-in-list" for word in listed if word not in en}
    names = [word for word, why in refused.items() if why == "proper-noun"]
    others = {word: why for word, why in refused.items() if why != "proper-noun"}
    share = 100 * len(others) / len(listed)
    print(
        f"common words: of wordfreq's {top:,} commonest, {len(listed):,} are letters a dictionary "
        f"lists; refused {len(refused)}: {len(names)} as names, {len(others)} else "
        f"({share:.2f} %)"
    )
    by_design = {"abbreviation", "offensive"}  # refused by the rulebooks and the table
    rest = {word: why for word, why in others.items() if why not in by_design}
    print(
        f"  names, abbreviations and offensive words aside: {len(rest)} refused "
        f"({100 * len(rest) / len(listed):.2f} %): "
        + " ".join(f"{w}:{why}" for w, why in sorted(rest.items()))
    )
    by_reason = Counter(others.values())
    print("  by reason: " + ", ".join(f"{why} {n}" for why, n in by_reason.most_common()))
    print("  refused: " + " ".join(f"{w}:{why}" for w, why in sorted(others.items())))
    print("  names: " + " ".join(sorted(names)))


def boards(
    count: int,
    known: set[str],
    wordnet: WordNet,
    name: str = "boggle",
    more: frozenset[str] = frozenset(),
) -> None:
    game = find_game(name)
    en = Lexicon.open(game.lexicon)
    refused = {word for word, ruling, _ in rows("english_words.tsv") if ruling != "counts"}
    listed: Counter[str] = Counter()
    unknown: Counter[str] = Counter()
    holding = with_refused = nowhere = 0
    for seed in range(1, count + 1):
        faces = game.cube_set(None).roll(random.Random(seed))
        board = Board.from_faces(faces, game.size)
        found = [entry.word for entry in solve(board, game, en)]
        strange = [word for word in found if word not in known and not wordnet.bases(word)]
        unknown.update(strange)
        holding += bool(strange)
        nowhere += any(word not in more for word in strange)
        wrong = [word for word in found if word in refused]
        listed.update(wrong)
        with_refused += bool(wrong)
    print(
        f"boards: {with_refused} of {count} seeded {name} boards list a word english_words.tsv "
        f"refuses: " + " ".join(f"{word}:{n}" for word, n in listed.most_common())
    )
    print(
        f"boards: {holding} of {count} seeded {name} boards list a word neither WordNet nor "
        f"GCIDE knows ({len(unknown)} such words)"
    )
    print("  " + " ".join(f"{word}:{n}" for word, n in unknown.most_common(80)))
    print(
        f"boards: {nowhere} of {count} list a word FreeDict's English headwords lack too "
        f"({sum(1 for word in unknown if word not in more)} such words)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--top", type=int, default=10_000)
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--game", default="boggle", help="the game whose boards are rolled")
    parser.add_argument(
        "--listed-in",
        metavar="FILE",
        type=Path,
        help="a word list, one word a line (ENABLE's word.lst, say), that stands for 'a "
        "dictionary lists' among the common words, in place of WordNet and GCIDE",
    )
    args = parser.parse_args()
    for name, game in (("english_words.tsv", "adlib"), ("czech_words.tsv", "czech-boggle")):
        if (TESTS / name).is_file():
            wrong = wrongly_ruled(name, game)
            print(f"{name}: {len(rows(name))} rows, {len(wrong)} ruled wrongly")
            if wrong:
                print("  " + ", ".join(wrong))
    wordnet = WordNet()
    known = gcide.current_words()
    dictionary = None
    if args.listed_in:
        dictionary = set(args.listed_in.read_text(encoding="utf-8").lower().split())
    common_words(args.top, known, wordnet, dictionary)
    boards(args.boards, known, wordnet, args.game, frozenset(FreeDict().sources))
    return 0


if __name__ == "__main__":
    sys.exit(main())
