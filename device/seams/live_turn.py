"""The live reading of an Ad-Lib turn on the box: while the timer runs, a frame of the
camera's low-resolution stream every ``EVERY`` seconds, read by ``vision.live`` and
refereed for the screen (``device.seams.live``); at 0:00, the crossword to score.

At 0:00 the last stable reading is scored, confirmed by a still at full resolution: where
the still reads a crossword and nothing but cubes changed since that reading (no hand over
them), the still's reading is scored, its letters read at full resolution and each
cube's confidence that of every frame that read it too (``vision.evidence``); where a hand is
in the still, or it reads no crossword, the last stable live reading is, and the players
are told. Reading runs on a thread of its own (``start``), so that the button, the clock
and the buzzer never wait for a frame (the box draws the newest ``view`` as it draws any
screen); ``step`` reads one frame, for tests.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import numpy as np

from device.base.strings import say
from device.seams.live import LiveView, live_view
from device.seams.readings import Reading
from device.seams.seams import NoCrossword, Reader
from engine.adlib import Roll
from engine.errors import CuberefError, MachineError
from engine.games import Game
from vision.live import LiveReader, Read
from vision.reading import LooseReading

log = logging.getLogger("cuberef.live")

#: Seconds from one live frame to the next: 2.5 readings a second.
EVERY = 0.4
#: After the camera failed, the seconds before it is asked again.
AFTER_FAILURE = 5.0


def rolled(reading: Reading | None) -> Roll | None:
    """The roll a turn's reading shows; None where it is no crossword game's, or its
    faces make no roll of the game (live reading then takes the cubes on the table)."""
    try:
        return reading.roll if isinstance(reading, LooseReading) else None
    except CuberefError:
        return None


class LiveTurn:
    """The live reading of one turn: ``view`` is what the screen shows (None until the
    table was first read stably). ``roll`` gives the roll as it stands (the players may
    correct a cube of it), None to take the cubes read on the table."""

    def __init__(
        self,
        frame: Callable[[], np.ndarray],
        read: Read,
        game: Game,
        roll: Callable[[], Roll | None],
        lexicon: str = "",
        *,
        every: float = EVERY,
    ) -> None:
        self.frame = frame
        self.reader = LiveReader(read)
        self.game = game
        self.roll = roll
        self.lexicon = lexicon
        self.every = every
        self.view: LiveView | None = None
        #: Why the last frame could not be taken ("" when it was).
        self.failure = ""
        #: Whether the turn's crossword was scored from it at 0:00 (once: a retry waits
        #: for a press).
        self.used = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def watching(
        cls,
        frame: Callable[[], np.ndarray],
        reader: Reader,
        game: Game,
        roll: Callable[[], Roll | None],
        lexicon: str = "",
    ) -> LiveTurn:
        """A turn read with ``reader``'s ``read_table``, reading already."""
        turn = cls(
            frame, lambda image: reader.read_table(image, game, lexicon), game, roll, lexicon
        )
        turn.start()
        return turn

    @property
    def stable(self) -> LooseReading | None:
        """The last stable reading (None: none yet, or a bare table)."""
        with self._lock:
            return self.reader.stable

    def step(self) -> bool:
        """Take one frame and read it; whether what the screen shows changed."""
        try:
            image = self.frame()
        except (MachineError, CuberefError) as error:
            changed = self.failure != str(error)
            self.failure = str(error)
            log.warning("live reading: %s", error)
            return changed
        with self._lock:
            seen = self.reader.update(image)
        view = live_view(seen, self.game, self.roll(), self.lexicon) if seen else self.view
        changed = view != self.view or bool(self.failure)
        self.view, self.failure = view, ""
        return changed

    def start(self) -> None:
        """Read frame after frame on a thread of its own until ``stop``."""
        self._thread = threading.Thread(target=self._run, daemon=True, name="cuberef-live")
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()  # the box's screen shows the new view at its next drawing
            except Exception:  # a fault in reading one frame: the turn goes on without it
                log.exception("live reading failed")
            self._stop.wait(AFTER_FAILURE if self.failure else self.every)

    def stop(self, seconds: float = 5.0) -> None:
        """Stop reading, waiting at most ``seconds`` for the frame being read."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(seconds)

    def final(
        self, still: np.ndarray, read: Callable[[np.ndarray], LooseReading]
    ) -> tuple[LooseReading, str]:
        """The crossword to score at 0:00, given the full-resolution ``still`` and how to
        read it, and a sentence for the players where it is not simply the still's."""
        seen: LooseReading | None = None
        failure: CuberefError | None = None
        try:
            seen = read(still)
        except CuberefError as error:  # no crossword, or no cubes, in the photo
            failure = error
        with self._lock:
            last = self.reader.stable
            # Asked even where the still read nothing whole: a hand may be what split it.
            covered = self.reader.covered(still, seen)
            if seen is not None and not covered:  # what the frames said of its cubes too
                seen = self.reader.confirmed(still, seen)
        if seen is not None and seen.grid and not covered:
            return seen, ""
        if last is not None and last.grid:
            why = say("hand-over" if covered else "read-no-crossword")
            return last, say("photo-not-used", why=why)  # in English: the screen says it
        if failure is not None:
            raise failure
        if seen is None or not seen.grid:
            raise NoCrossword()
        return seen, ""
