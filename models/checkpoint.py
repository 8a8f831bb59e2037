"""Training in chunks, shared by ``models.train`` and ``models.train_tops``.

A chunk trains for ``--minutes`` (each chunk well under an hour) and then stops cleanly, its
checkpoint saved, and says on stderr how to continue; ``--resume`` continues from the
checkpoint exactly where it stopped. The checkpoint holds the net, the optimiser, the
scheduler, the steps done, the random states and the data order, so that chunks give the
weights one uninterrupted run gives. While a chunk runs it is saved every ``--save-every``
minutes as well, so that a killed run loses at most that. It lives in the git-ignored cache
folder (``build/model-data/checkpoints/``).

The bookkeeping (where a run stands, the chunk's clock, the loop, the sentences) needs no
torch; ``save`` and ``load`` import it when they are called.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# The exit status of a chunk that stopped before training was done (0: done, 2: bad input).
NOT_FINISHED = 3


@dataclasses.dataclass
class Standing:
    """Where a training run stands, over all its chunks."""

    options: dict[str, Any]  # what makes the run what it is: a resume must give the same
    steps: int  # training steps in all
    done: int = 0  # steps done
    trained_s: float = 0.0  # seconds trained, every chunk added up
    chunks: int = 0  # chunks begun
    judged: bool = False  # trained, evaluated and put through the gate: nothing left to do

    @property
    def finished(self) -> bool:
        return self.done >= self.steps


class Clock:
    """The time of one chunk: whether it is over, whether a checkpoint is due, and the
    seconds trained in all (``before_s`` from the earlier chunks)."""

    def __init__(
        self,
        minutes: float,
        save_every_minutes: float,
        before_s: float = 0.0,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.length_s, self.save_every_s = minutes * 60, save_every_minutes * 60
        self.before_s, self.now = before_s, now
        self.start = self.last_save = now()

    def over(self) -> bool:
        return self.now() - self.start >= self.length_s

    def save_due(self) -> bool:
        return self.now() - self.last_save >= self.save_every_s

    def saved(self) -> None:
        self.last_save = self.now()

    def trained_s(self) -> float:
        return self.before_s + self.now() - self.start


def run_chunk(
    standing: Standing, clock: Clock, step: Callable[[int], None], save: Callable[[], None]
) -> None:
    """Train one chunk: ``step(k)`` for the next steps until training is done or the chunk's
    time is over (at least one step, so that every chunk moves on), ``save()`` every few
    minutes and at the end. A finished run has nothing to train."""
    if standing.finished:
        return
    standing.chunks += 1
    while not standing.finished:
        step(standing.done)
        standing.done += 1
        standing.trained_s = clock.trained_s()
        if standing.finished or clock.over():
            break
        if clock.save_due():
            save()
            clock.saved()
    save()


def chunk_options(ap: argparse.ArgumentParser) -> None:
    """The options of every chunked training command."""
    ap.add_argument(
        "--minutes",
        type=float,
        default=20,
        help="train this long, then save a checkpoint and stop (resume with --resume)",
    )
    ap.add_argument(
        "--save-every", type=float, default=5, help="minutes between checkpoints within a chunk"
    )
    ap.add_argument(
        "--resume", action="store_true", help="continue from the checkpoint where it stopped"
    )


class Refused(Exception):
    """A resume that cannot be: its one sentence is for stderr, with its exit status."""

    status = 2


class AlreadyDone(Refused):
    """A resume of a run that has nothing left to do: not a fault."""

    status = 0


def begin(where: Path, resume: bool, options: dict[str, Any]) -> dict[str, Any] | None:
    """The checkpoint to resume (``load``'s payload), or None for a fresh run; refuses a
    resume without a checkpoint or with other options than it was trained with."""
    if not resume:
        return None
    if not where.is_file():
        raise Refused(f"There is no checkpoint to resume in {where}; start without --resume.")
    try:
        payload = load(where)
    except Exception as error:  # torch raises many kinds for a file that is not its own
        raise Refused(
            f"The checkpoint {where} cannot be read ({type(error).__name__}); "
            "start afresh without --resume."
        ) from error
    problem = mismatch(payload["standing"]["options"], options)
    if problem:
        raise Refused(problem)
    if payload["standing"].get("judged"):
        raise AlreadyDone(
            f"The run of {where} is trained and judged already; start afresh without --resume."
        )
    return payload


def standing(payload: dict[str, Any] | None, options: dict[str, Any], steps: int) -> Standing:
    """Where the run stands: the checkpoint's standing, or a fresh run of ``steps``."""
    if payload is None:
        return Standing(options, steps)
    saved = Standing(**payload["standing"])
    if saved.steps != steps:
        raise Refused(
            f"The checkpoint is of a run of {saved.steps:,} steps, this one has {steps:,} "
            "(its training data changed); start afresh without --resume."
        )
    return saved


def path(cache: Path, model: str) -> Path:
    """Where the checkpoint of ``model``'s training lives, in the git-ignored cache."""
    return cache / "checkpoints" / f"{model}.pt"


def mismatch(saved: dict[str, Any], given: dict[str, Any]) -> str | None:
    """The sentence that refuses a resume whose options differ from the checkpoint's."""
    differ = [k for k in sorted(saved.keys() | given.keys()) if saved.get(k) != given.get(k)]
    if not differ:
        return None
    shown = ", ".join(f"--{k.replace('_', '-')} {saved.get(k)}" for k in differ)
    return f"The checkpoint was trained with {shown}; give the same to resume it, or start afresh."


def how_to_continue(module: str, argv: Sequence[str], standing: Standing, where: Path) -> str:
    """The sentence of a chunk that stopped before training was done."""
    again = [a for a in argv if a != "--resume"]
    command = shlex.join(["python", "-m", module, "--resume", *again])
    return (
        f"Stopped after {standing.done:,} of {standing.steps:,} steps "
        f"({standing.trained_s / 60:.1f} minutes trained in {standing.chunks} chunk(s)), "
        f"checkpoint saved in {where}; continue with: {command}"
    )


def save(where: Path, standing: Standing, parts: dict[str, Any]) -> None:
    """Write the checkpoint: ``standing`` and each part's state (a module, optimiser or
    scheduler by its state_dict, a torch or numpy random generator by its state, anything
    else as it is) and torch's own random state. Written beside and moved over the last one,
    so that a run killed while saving keeps the last whole checkpoint."""
    import torch

    payload: dict[str, Any] = {
        "standing": dataclasses.asdict(standing),
        "torch_rng": torch.get_rng_state(),
        "parts": {name: _state(part) for name, part in parts.items()},
    }
    _write(where, payload)


def _write(where: Path, payload: dict[str, Any]) -> None:
    import torch

    where.parent.mkdir(parents=True, exist_ok=True)
    partial = where.with_suffix(".partial")
    torch.save(payload, partial)
    os.replace(partial, where)


def mark_judged(where: Path) -> None:
    """Record in the checkpoint that its run is trained, evaluated and judged."""
    payload = load(where)
    payload["standing"]["judged"] = True
    _write(where, payload)


def load(where: Path) -> dict[str, Any]:
    """A checkpoint as ``save`` wrote it: its standing and saved states, for ``restore``."""
    import torch

    payload: dict[str, Any] = torch.load(where, weights_only=True)
    return payload


def restore(payload: dict[str, Any], parts: dict[str, Any]) -> dict[str, Any]:
    """Put the saved states back into ``parts`` (as ``save`` took them) and torch's random
    state; returns the saved states, whose plain values the trainer takes back itself."""
    import numpy as np
    import torch

    states: dict[str, Any] = payload["parts"]
    for name, part in parts.items():
        if hasattr(part, "load_state_dict"):
            part.load_state_dict(states[name])
        elif isinstance(part, torch.Generator):
            part.set_state(states[name])
        elif isinstance(part, np.random.Generator):
            part.bit_generator.state = states[name]
    torch.set_rng_state(payload["torch_rng"])
    return states


def _state(part: Any) -> Any:
    import numpy as np
    import torch

    if hasattr(part, "state_dict"):
        return part.state_dict()
    if isinstance(part, torch.Generator):
        return part.get_state()
    if isinstance(part, np.random.Generator):
        return part.bit_generator.state
    return part


@dataclasses.dataclass
class Chunk:
    """One chunk of a run: its options, its length, where its checkpoint goes and the
    checkpoint it resumes (``begin``'s payload, None for a fresh run)."""

    where: Path
    options: dict[str, Any]
    minutes: float
    save_every: float
    resumed: dict[str, Any] | None = None

    @classmethod
    def open(cls, args: argparse.Namespace, model: str, options: dict[str, Any]) -> Chunk:
        """The chunk the command line asks for (``chunk_options``; the cache of
        ``models.train.run_options``): ``model``'s checkpoint resumed with ``--resume``."""
        where = path(args.cache, model)
        resumed = begin(where, args.resume, options)
        return cls(where, options, args.minutes, args.save_every, resumed)

    def start(self, steps: int, parts: dict[str, Any]) -> tuple[Standing, dict[str, Any]]:
        """Where the run stands, its parts restored from the checkpoint; the saved states,
        whose plain values (data order, running losses) the trainer takes back itself."""
        now = standing(self.resumed, self.options, steps)
        return now, restore(self.resumed, parts) if self.resumed else {}

    def run(
        self, now: Standing, step: Callable[[int], None], parts: Callable[[], dict[str, Any]]
    ) -> None:
        """Train this chunk (``run_chunk``), saving ``parts()`` as the checkpoint."""
        clock = Clock(self.minutes, self.save_every, now.trained_s)
        run_chunk(now, clock, step, lambda: save(self.where, now, parts()))

    def stop(self, module: str, argv: Sequence[str], now: Standing) -> int:
        """Say how to continue a run this chunk left unfinished; the exit status."""
        sys.stderr.write(f"\n{how_to_continue(module, argv, now, self.where)}\n")
        return NOT_FINISHED
