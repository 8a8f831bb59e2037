"""Measure the reader on the independent scenes through the public commands only.

    python -m tests.independent.measure --seed N --count K [--kinds crossword,single] [--json]

Renders ``K`` scenes of each kind for seed ``N`` into a temporary folder (``--keep DIR``
keeps them), reads each with ``cuberef score PHOTO --game adlib --json`` (crosswords) or
``cuberef read PHOTO --game G --json`` (the rest), run in this process through
``device.cli.main``, and prints the figures and the wrong cases. The truth is the
renderer's alone.

A Boggle cube alone (a throw, a close-up) is read with ``--game boggle``; where that
refuses the photo (it looks for a tray) it is read again with ``--game adlib``, the
only loose-cube reader there is, and the figures say how many took that second try.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .scenes import KINDS, BestCrossword, Scene, Seen, render

SURE_AT = 0.9
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cuberef-independent"


@dataclass
class Answer:
    code: int
    document: dict[str, object] | None
    stderr: str


def cuberef(*argv: str) -> Answer:
    """One ``cuberef`` command run in this process: its exit code, JSON and stderr."""
    from device.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as stop:  # argparse's refusals
            code = int(stop.code or 0)
    try:
        document = json.loads(out.getvalue()) if out.getvalue().strip() else None
    except json.JSONDecodeError:
        document = None
    return Answer(code, document, " | ".join(err.getvalue().strip().splitlines()))


@dataclass
class Tally:
    counts: dict[str, int] = field(default_factory=dict)
    joker_confidence: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def add(self, key: str, yes: bool = True) -> None:
        self.counts[key] = self.counts.get(key, 0) + int(yes)


def read_faces(document: dict[str, object] | None) -> list[dict[str, object]]:
    if not document:
        return []
    reading = document.get("reading", document)
    faces = reading.get("faces", []) if isinstance(reading, dict) else []
    return [face for face in faces if isinstance(face, dict)]


def nearest(faces: list[dict[str, object]], seen: Seen) -> dict[str, object] | None:
    """The read face whose middle lies within half a top of ``seen``'s middle."""
    best, best_distance = None, 0.5 * seen.size
    for face in faces:
        distance = ((float(face["x"]) - seen.x) ** 2 + (float(face["y"]) - seen.y) ** 2) ** 0.5  # type: ignore[arg-type]
        if distance <= best_distance:
            best, best_distance = face, distance
    return best


def count_jokers(tally: Tally, scene: Scene, faces: list[dict[str, object]], name: str) -> None:
    for seen in scene.truth.faces:
        if seen.face != "*":
            continue
        tally.add("jokers")
        found = nearest(faces, seen)
        if found is not None and found.get("face") == "*":
            tally.add("jokers read")
            tally.joker_confidence.append(float(found.get("confidence", 0.0)))  # type: ignore[arg-type]
        else:
            what = found.get("face") if found else "nothing"
            tally.wrong.append(f"{name}: joker read as {what}")


def sure_of(document: dict[str, object]) -> bool:
    """The reading's own "sure" where it gives one; before that key existed: no warning
    but the note saying which way round the crossword was read."""
    if "sure" in document:
        return bool(document["sure"])
    reading = document.get("reading", {})
    warnings = reading.get("warnings", []) if isinstance(reading, dict) else []
    doubts = [w for w in warnings if not ("turn" in w and "right way up" in w)]
    return not doubts and not document.get("errors")


def measure_crossword(tally: Tally, scene: Scene, photo: Path, name: str) -> None:
    answer = cuberef("score", str(photo), "--game", "adlib", "--json")
    tally.add("crosswords")
    joker_laid = any(ch.islower() for row in scene.truth.grid or () for ch in row)
    tally.add("crosswords with a joker laid", joker_laid)
    document = answer.document
    if answer.code != 0 or document is None:
        tally.wrong.append(f"{name}: refused: {answer.stderr[:160]}")
        # the score is refused, but the reading may still show how each joker was read
        read = cuberef("read", str(photo), "--game", "adlib", "--json")
        count_jokers(tally, scene, read_faces(read.document) if read.code == 0 else [], name)
        return
    right = document.get("score") == scene.truth.score
    sure = sure_of(document)
    tally.add("crosswords right", right)
    tally.add("crosswords right and sure", right and sure)
    tally.add("crosswords wrong but sure", not right and sure)
    if joker_laid:
        tally.add("crosswords with a joker laid right and sure", right and sure)
    if not (right and sure):
        reading = document.get("reading", {})
        grid = reading.get("grid") if isinstance(reading, dict) else None
        doubts = document.get("doubts") or (
            reading.get("warnings") if isinstance(reading, dict) else []
        )
        tally.wrong.append(
            f"{name}: score {document.get('score')} (truth {scene.truth.score}), "
            f"sure={sure}, grid {grid} (truth {list(scene.truth.grid or [])}); {doubts}"[:400]
        )
    count_jokers(tally, scene, read_faces(document), name)


def read_single(photo: Path, game: str, tally: Tally, kind: str) -> Answer:
    answer = cuberef("read", str(photo), "--game", game, "--json")
    if answer.code != 0 and game != "adlib":
        tally.add(f"{kind} read again as adlib")
        answer = cuberef("read", str(photo), "--game", "adlib", "--json")
    return answer


def measure_one_cube(tally: Tally, scene: Scene, photo: Path, name: str) -> None:
    kind = scene.truth.kind
    label = "singles" if kind == "single" else "closeups"
    answer = read_single(photo, scene.truth.game, tally, label)
    tally.add(label)
    tally.add(f"{label} ({scene.truth.game})")
    faces = read_faces(answer.document)
    truth = scene.truth.faces[0].face
    right = answer.code == 0 and [f.get("face") for f in faces] == [truth]
    tally.add(f"{label} right", right)
    tally.add(f"{label} right ({scene.truth.game})", right)
    tally.add(f"{label} read as two or more faces", len(faces) > 1)
    if not right:
        said = [(f.get("face"), f.get("confidence")) for f in faces]
        tally.wrong.append(f"{name}: {truth} read as {said or answer.stderr[:160]}")
    if truth == "*":
        count_jokers(tally, scene, faces if answer.code == 0 else [], name)


def measure_tray(tally: Tally, scene: Scene, photo: Path, name: str) -> None:
    kind = scene.truth.kind
    label = "trays" if kind == "tray" else "condensed trays"
    answer = cuberef("read", str(photo), "--game", "boggle", "--json")
    tally.add(label)
    truth = [list(row) for row in scene.truth.rows or ()]
    rows = answer.document.get("rows") if answer.document and answer.code == 0 else None
    right = rows == truth
    tally.add(f"{label} right", right)
    for r, row in enumerate(truth):
        for c, face in enumerate(row):
            said = (
                rows[r][c]
                if isinstance(rows, list) and r < len(rows) and c < len(rows[r])
                else None
            )
            tally.add(f"{label} cells")
            tally.add(f"{label} cells right", said == face)
            if face == "O":
                tally.add(f"{label} O")
                tally.add(f"{label} O read as O", said == "O")
    if not right:
        tally.wrong.append(f"{name}: rows {rows or answer.stderr[:160]} (truth {truth})")


MEASURES = {
    "crossword": measure_crossword,
    "single": measure_one_cube,
    "closeup": measure_one_cube,
    "tray": measure_tray,
    "condensed": measure_tray,
}


def run(
    seed: int, count: int, kinds: list[str], folder: Path, seconds: float, quiet: bool
) -> Tally:
    tally = Tally()
    crosswords = BestCrossword(seconds=seconds, cache=CACHE / "crosswords.json")
    for kind in kinds:
        for index in range(count):
            scene_seed = seed * 1000 + index
            scene = render(kind, scene_seed, crosswords)
            photo = scene.save(folder)
            started = time.process_time()
            MEASURES[kind](tally, scene, photo, photo.name)
            tally.seconds.append(time.process_time() - started)
            if not quiet:
                print(f"{photo.name} done", file=sys.stderr)
    return tally


def figures(tally: Tally) -> dict[str, object]:
    confidence = tally.joker_confidence
    return {
        **tally.counts,
        "joker confidence median": round(statistics.median(confidence), 3) if confidence else None,
        "joker confidence min": round(min(confidence), 3) if confidence else None,
        f"jokers read at >= {SURE_AT}": sum(c >= SURE_AT for c in confidence),
        "read CPU seconds median": round(statistics.median(tally.seconds), 2)
        if tally.seconds
        else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.independent.measure", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=10, help="scenes of each kind")
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help="comma-separated: " + ", ".join(KINDS)
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="the best search's time for a crossword"
    )
    parser.add_argument("--keep", type=Path, help="keep the photos and their truths in this folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"no scene kind {unknown[0]!r}; the kinds are {', '.join(KINDS)}")
    with tempfile.TemporaryDirectory(prefix="cuberef-independent-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        tally = run(args.seed, args.count, kinds, folder, args.seconds, quiet=args.json)
    result = figures(tally)
    if args.json:
        print(
            json.dumps(
                {"seed": args.seed, "count": args.count, "figures": result, "wrong": tally.wrong},
                indent=1,
            )
        )
        return 0
    print(f"seed {args.seed}, {args.count} scenes of each kind ({', '.join(kinds)})")
    for key, value in result.items():
        print(f"  {key}: {value}")
    if tally.wrong:
        print("wrong:")
        for line in tally.wrong:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
