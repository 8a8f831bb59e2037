"""Concurrent writers of one match file (issue 22): N `cuberef score --match` processes
started at once, each trial on a fresh file, for a Boggle match and an Ad-Lib match.

Each writer's own report is what counts: a run that exits 0 prints the match as it
saved it (``--json``), so the rounds (Boggle) or turns (Ad-Lib) it reports must all be
in the file afterwards, each exactly once. A run that does not save must exit 2 with one
sentence on stderr. The figures: writers, saved (by their reports), in the file, lost,
refused with a sentence, tracebacks, and the wall time of the trial.

Run: ``python tests/benchmarks/bench_match_file.py [--writers 100] [--trials 2] [--json]``
with the venv's Python, so that the `cuberef` script beside it is the one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BOARD = "TNTB/GDAR/ELTE/SISH"
ROLL = "U O N T W V I G F E E A R T"
GRID = "...W.\nTIGER\nOF.A.\nN..V.\n...E.\n"


def command(game: str, folder: Path, file: Path) -> list[str]:
    """One writer's command line: a round of two lists, or a turn of a crossword."""
    cuberef = str(Path(sys.executable).with_name("cuberef"))
    common = ["--match", str(file), "--target", "100000", "--json"]  # never reached
    if game == "boggle":
        (folder / "a.txt").write_text("dart\nslate\n", encoding="utf-8")
        (folder / "b.txt").write_text("strange\n", encoding="utf-8")
        lists = [f"a={folder / 'a.txt'}", f"b={folder / 'b.txt'}"]
        return [cuberef, "score", "--game", "boggle", "--board", BOARD, *lists, *common]
    (folder / "grid.txt").write_text(GRID, encoding="utf-8")
    crossword = ["--roll", ROLL, "--grid", str(folder / "grid.txt"), "--players", "Ann,Bob,Cy"]
    return [cuberef, "score", "--game", "scribbage", *crossword, *common]


def trial(game: str, writers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        file = folder / "match.json"
        line = command(game, folder, file)
        started = time.perf_counter()
        runs = [
            subprocess.Popen(line, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(writers)
        ]
        finished = [(*run.communicate(), run.returncode) for run in runs]
        seconds = time.perf_counter() - started
        reported = []
        refused = tracebacks = wrong = 0
        for out, err, code in finished:
            tracebacks += "Traceback" in err
            if code == 0:
                match = json.loads(out)["match"]
                # What this run saw saved: the match's rounds (Boggle) or turns (Ad-Lib).
                reported.append(match["rounds"] if game == "boggle" else match["turns"])
            elif code == 2 and err.count("\n") == 1 and err.rstrip().endswith("."):
                refused += 1
            else:
                wrong += 1
        turns = len(json.loads(file.read_text(encoding="utf-8"))["turns"])
        in_file = turns // 2 if game == "boggle" else turns
        strays = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    return {
        "game": game,
        "writers": writers,
        "saved": len(reported),
        "in_file": in_file,
        # Every report names a different count, and the file holds them all.
        "lost": len(reported) - in_file,
        "reported_twice": len(reported) - len(set(reported)),
        "refused_with_a_sentence": refused,
        "wrong_exits": wrong,
        "tracebacks": tracebacks,
        "stray_temporary_files": len(strays),
        "seconds": round(seconds, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, default=100, help="writers at once (100)")
    parser.add_argument("--trials", type=int, default=2, help="trials of each game (2)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    rows = [trial(game, args.writers) for game in ("boggle", "adlib") for _ in range(args.trials)]
    if args.json:
        json.dump({"trials": rows}, sys.stdout, indent=2)
        print()
        return
    print(
        f"{'game':<8}{'writers':>8}{'saved':>7}{'in file':>9}{'lost':>6}{'twice':>7}"
        f"{'refused':>9}{'wrong':>7}{'tracebacks':>12}{'strays':>8}{'seconds':>9}"
    )
    for row in rows:
        print(
            f"{row['game']:<8}{row['writers']:>8}{row['saved']:>7}{row['in_file']:>9}"
            f"{row['lost']:>6}{row['reported_twice']:>7}{row['refused_with_a_sentence']:>9}"
            f"{row['wrong_exits']:>7}{row['tracebacks']:>12}{row['stray_temporary_files']:>8}"
            f"{row['seconds']:>9}"
        )


if __name__ == "__main__":
    main()
