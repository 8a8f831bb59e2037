"""Speed of the solver, the lexicons' opening and the memory they take, beside the PyPI
solvers ``boggler`` and ``boggle-solver`` on the same boards and the same word list.

Run: ``python tests/benchmarks/bench_solver.py [--boards N]``. The two PyPI solvers are
not project dependencies; install them into the venv to compare
(``pip install boggler boggle-solver``); each is skipped with a message when absent.

Each board is solved ``--repeat`` times and its best time kept (the usual timeit
practice: the minimum is the run least disturbed by other processes); the figure
printed is the median of those over the boards, with the median of single runs beside
it. Boards are rolled from the real cube sets with fixed seeds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.board import Board  # noqa: E402
from engine.games import Game, find_game  # noqa: E402
from engine.lexicon import Lexicon, _open_file, fold, lexicon_path  # noqa: E402
from engine.solver import solve  # noqa: E402

#: boggler is timed on up to three boards, fewer if they take longer than this.
BOGGLER_BUDGET_S = 30.0
#: How long boggle-solver may take on one board before it is stopped.
BOGGLE_SOLVER_LIMIT_S = 30.0


def rolled(game: Game, seed: int) -> Board:
    return Board.from_faces(game.cube_set().roll(random.Random(seed)), game.size)


def timed(
    function: Callable[[Board], object], boards: list[Board], repeat: int
) -> tuple[float, float]:
    """(median over boards of the best of ``repeat`` runs, median of first runs), in ms."""
    best, first = [], []
    for board in boards:
        runs = []
        for _ in range(repeat):
            started = time.perf_counter()
            function(board)
            runs.append(time.perf_counter() - started)
        best.append(min(runs))
        first.append(runs[0])
    return statistics.median(best) * 1e3, statistics.median(first) * 1e3


def open_times(name: str, times: int = 20) -> float:
    """Median ms of opening the lexicon afresh (the cache cleared each time)."""
    runs = []
    for _ in range(times):
        _open_file.cache_clear()
        started = time.perf_counter()
        Lexicon.open(name)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs) * 1e3


def fresh_process_figures() -> dict[str, float]:
    """In a new process, as `cuberef` would be: import the command line, open both
    lexicons (timing each first open), solve boards of both games, read the RSS."""
    script = """
import json, random, time, resource
from device.cli import build_parser
build_parser()
from engine.lexicon import Lexicon
figures = {}
for name in ("en", "cs"):
    started = time.perf_counter()
    Lexicon.open(name)
    figures[f"open_{name}_ms"] = (time.perf_counter() - started) * 1e3
from engine.board import Board
from engine.games import find_game
from engine.solver import solve
for game_id in ("big-boggle", "czech-boggle", "boggle", "super-big-boggle"):
    game = find_game(game_id)
    for seed in range(30):
        faces = game.cube_set().roll(random.Random(seed))
        n = game.size
        solve(Board(tuple(tuple(faces[r*n:(r+1)*n]) for r in range(n))), game)
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
figures["rss_mb"] = int(status["VmRSS"].split()[0]) / 1024
figures["peak_rss_mb"] = int(status["VmHWM"].split()[0]) / 1024
print(json.dumps(figures))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout))


# --- boggler (PyPI) ------------------------------------------------------------------


def boggler_solver(words: list[str], size: int) -> Callable[[Board], object] | None:
    """boggler's own per-board work: its word trees for the board's letters (built from
    the word list split by first letter, as its words_X.txt files are) and its search,
    cell by cell in this process (its own Pool would only add start-up time)."""
    try:
        from boggler import boggler_utils as bu
    except ImportError:
        print("  boggler: not installed (pip install boggler); skipped")
        return None
    by_letter: dict[str, list[str]] = {}
    for word in words:
        by_letter.setdefault(word[0], []).append(word)

    def run(board: Board) -> object:
        rows = [[face.letters for face in row] for row in board.rows]
        boggle = bu.BoggleBoard(rows, size * size)
        alphabet = sorted({cell.letters for cell in boggle.board.values()})
        found = []
        for cell in boggle.board.values():
            if not cell.letters:
                continue
            args = (alphabet, boggle, cell, by_letter.get(cell.letters[0], []))
            found.extend(bu.build_boggle_tree(args).word_paths)
        return found

    return run


def boggler_search_only(words: list[str], size: int) -> Callable[[Board], object] | None:
    """boggler's search alone, its word trees built once beforehand for every letter
    (the fairest match for our lexicon being open already; English only, as its trees
    for three million Czech forms would not fit in memory)."""
    try:
        from boggler import boggler_utils as bu
    except ImportError:
        return None
    alphabet = [*"abcdefghijklmnopqrstuvwxyz", "qu", "an", "er", "he", "in", "th"]
    by_start: dict[str, list[str]] = {}
    for word in words:
        for start in (word[:2], word[:1]):
            if start in alphabet:
                by_start.setdefault(start, []).append(word)
    trees = {
        start: bu.WordTree(alphabet, bu.WordNode(start), by_start.get(start, []))
        for start in alphabet
    }

    def run(board: Board) -> object:
        rows = [[face.letters for face in row] for row in board.rows]
        boggle = bu.BoggleBoard(rows, size * size)
        found = []
        for cell in boggle.board.values():
            if not cell.letters:
                continue
            tree = trees[cell.letters]
            tree.active_node = tree.root
            sub = bu.WordTree(alphabet, bu.WordNode(cell.letters, False, board_pos=cell.pos))
            found.extend(tree.build_boggle_tree(boggle, cell, sub).word_paths)
        return found

    return run


# --- boggle-solver (PyPI) --------------------------------------------------------------


def boggle_solver_seconds(words: list[str], board: Board) -> float | None:
    """Seconds boggle-solver takes on one board with our word list (it reads its word
    file on every test, so it runs in a child process under a time limit); None when
    it is not installed, inf when it did not finish."""
    try:
        import boggle_solver  # noqa: F401
    except ImportError:
        print("  boggle-solver: not installed (pip install boggle-solver); skipped")
        return None
    folder = Path(tempfile.mkdtemp(prefix="bench-boggle-solver-"))
    (folder / "words.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    # It accepts one capital letter a cell, so the Qu face goes in as Q.
    grid = [[face.symbol[0] for face in row] for row in board.rows]
    script = f"""
import time
import boggle_solver.grid as grid
grid.__file__ = {str(folder / "grid.py")!r}  # its word file is read beside this path
started = time.perf_counter()
grid.Grid({grid!r}).find_all_words()
print(time.perf_counter() - started)
"""
    try:
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=BOGGLE_SOLVER_LIMIT_S,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return float("inf")
    return float(out.stdout)


def compare(label: str, ours_ms: float, words: list[str], boards: list[Board], size: int) -> None:
    boggler = boggler_solver(words, size)
    if boggler is not None:
        runs: list[float] = []
        while len(runs) < len(boards) and (len(runs) < 3 and sum(runs) < BOGGLER_BUDGET_S):
            started = time.perf_counter()
            boggler(boards[len(runs)])
            runs.append(time.perf_counter() - started)
        theirs = statistics.median(runs) * 1e3
        print(
            f"  boggler       {theirs:9.1f} ms  (median of {len(runs)} boards)  "
            f"ours is {theirs / ours_ms:,.0f}x faster"
        )
    if size == 5:
        search = boggler_search_only(words, size)
        if search is not None:
            theirs, _ = timed(search, boards[:20], 1)
            print(
                f"  boggler search only {theirs:9.1f} ms  (trees prebuilt, 20 boards)  "
                f"ours is {theirs / ours_ms:,.0f}x faster"
            )
    seconds = boggle_solver_seconds(words, boards[0])
    if seconds is not None:
        if seconds == float("inf"):
            limit = BOGGLE_SOLVER_LIMIT_S * 1e3
            print(
                f"  boggle-solver  > {limit:,.0f} ms  (stopped after {BOGGLE_SOLVER_LIMIT_S:.0f} s "
                f"on 1 board)  ours is > {limit / ours_ms:,.0f}x faster"
            )
        else:
            theirs = seconds * 1e3
            print(
                f"  boggle-solver {theirs:9.1f} ms  (1 board)  "
                f"ours is {theirs / ours_ms:,.0f}x faster"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-compare", action="store_true", help="skip the PyPI solvers")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    for name in ("en", "cs"):
        path = lexicon_path(name)
        size = path.stat().st_size / 1e6 if path else 0
        print(f"open {name}: {open_times(name):.2f} ms median in process ({size:.1f} MB file)")
    fresh = fresh_process_figures()
    print(
        f"new process: open en {fresh['open_en_ms']:.1f} ms, open cs {fresh['open_cs_ms']:.1f} ms; "
        f"RSS with both open after 120 solves {fresh['rss_mb']:.1f} MB "
        f"(peak {fresh['peak_rss_mb']:.1f} MB)"
    )
    cases = [
        ("5x5 English (big-boggle)", find_game("big-boggle")),
        ("4x4 Czech (czech-boggle)", find_game("czech-boggle")),
        ("4x4 English (boggle)", find_game("boggle")),
        ("6x6 English (super-big-boggle)", find_game("super-big-boggle")),
    ]
    for label, game in cases:
        lexicon = Lexicon.open(game.lexicon)
        boards = [rolled(game, seed) for seed in range(args.boards)]
        best, single = timed(
            lambda board, game=game, lexicon=lexicon: solve(board, game, lexicon),
            boards,
            args.repeat,
        )
        counts = [len(solve(board, game, lexicon)) for board in boards[:50]]
        print(
            f"{label}: {best:.2f} ms median (best of {args.repeat}; single runs {single:.2f} ms), "
            f"{len(boards)} boards, {statistics.median(counts):.0f} words a board"
        )
        if not args.no_compare and label.startswith(("5x5", "4x4 Czech")):
            words = sorted({fold(word) for word in lexicon})
            compare(label, best, words, boards, game.size)


if __name__ == "__main__":
    main()
