"""A box at a club's table: its ``[club]`` settings brought to life. The screen's state
goes to the reporter as the screen changes; each scored round of the box's store goes to
the outbox and the broker, read back from the store as ``cuberef history --json`` reads it
(so a round scored just before a crash is sent after the restart); the table's seat from
the director is shown on the box's screen.

Only the box's main thread calls ``shown`` and ``poll``; the store is read by the
reporter's side in a thread of its own, through a connection of its own."""

from __future__ import annotations

import logging
import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from device.club.credentials import read_secret
from device.club.outbox import Outbox
from device.club.reporter import Club, Reporter, Seat

if TYPE_CHECKING:
    from device.config.sections import Settings
    from device.referee.referee import Referee

log = logging.getLogger("cuberef.club")

#: How often the store is looked at for a newly scored round when the screen has not
#: said so (a round scored just before a restart, a store the box could not read).
POLL_SECONDS = 5.0
#: The screens on which a round has just been scored.
SCORED_STATES = ("scored", "match")


def club_of(settings: Settings) -> Club | None:
    """The box's ``[club]``, its secret read; None without one (a one-table box)."""
    section = settings.club
    if not section.broker:
        return None
    return Club(
        section.broker, section.event, section.table, read_secret(Path(section.secret_file))
    )


def screen_state(referee: Referee) -> dict[str, Any]:
    """What the scoreboard shows of the box: its phase, clock, match, players, scores."""
    match = referee.match
    scores = dict(match.standings()) if match is not None else {}
    if match is not None:
        players = [side.name for side in match.sides()] if match.seats or match.model else []
    else:
        players = list(referee.settings.players)
    return {
        "phase": str(referee.state),
        "clock": round(referee.seconds_left) if str(referee.state) == "timing" else None,
        "match": match.number if match is not None else None,
        "players": players or list(scores),
        "scores": scores,
    }


class ClubTable:
    def __init__(self, settings: Settings, club: Club, store_folder: Path) -> None:
        self.settings, self.store_folder = settings, store_folder
        self.seats: queue.SimpleQueue[Seat | None] = queue.SimpleQueue()
        self.reporter = Reporter(club, Outbox(store_folder / "club-outbox.db"), self.seats.put)
        self.stopping = threading.Event()
        self.look = threading.Event()  # a round may have been scored: look at the store
        self.phase = ""
        self.sent: tuple[int, int] | None = None  # (match, its scored rounds) sent last
        self.watcher = threading.Thread(target=self._watch, name="cuberef-club-store", daemon=True)

    def start(self) -> None:
        self.reporter.start()
        self.watcher.start()

    def stop(self) -> None:
        self.stopping.set()
        self.look.set()
        if self.watcher.is_alive():
            self.watcher.join(2.0)
        self.reporter.stop()
        self.reporter.outbox.close()

    # The box's main thread -------------------------------------------------------------

    def shown(self, referee: Referee) -> None:
        """After each step of the box: a new seat on its screen, and the screen's state
        to the scoreboard (sent only when it changed)."""
        self.poll(referee)
        phase = str(referee.state)
        if phase != self.phase:
            self.phase = phase
            if phase in SCORED_STATES:
                self.look.set()
        try:
            self.reporter.state(screen_state(referee))
        except Exception as error:  # the table's own refereeing goes on whatever this does
            log.warning("table state not sent: %s", error)

    def poll(self, referee: Referee) -> None:
        while True:
            try:
                seat = self.seats.get_nowait()
            except queue.Empty:
                return
            referee.seat_line = seat.line if seat is not None else ""
            referee.seated = seat.players if seat is not None else ()

    def settled(self) -> bool:
        """Whether every scored round of the store's latest match has been taken by the
        broker (for a box that is about to stop on purpose, and for tests)."""
        from device.store.events import Scored
        from device.store.store import Store

        store = Store(self.store_folder, read_only=True)
        try:
            latest = store.latest_match()
            scored = sum(isinstance(e.payload, Scored) for e in store.events(latest))
        finally:
            store.close()
        return self.sent == (latest, scored) and not self.reporter.outbox.pending()

    # The store's watcher ------------------------------------------------------------------

    def _watch(self) -> None:
        while not self.stopping.is_set():
            try:
                self._send_new_rounds()
            except Exception as error:  # a store being written, or damaged: try again
                log.warning("club results not read from the store: %s", error)
            self.look.wait(POLL_SECONDS)
            self.look.clear()

    def _send_new_rounds(self) -> None:
        from device.referee import history
        from device.referee.history_formats import document
        from device.store.events import Scored
        from device.store.store import Store

        if not (self.store_folder / "matches.db").exists():
            return
        store = Store(self.store_folder, read_only=True)
        try:
            latest = store.latest_match()
            if latest == 0:
                return
            events = store.events(latest)
            scored = sum(isinstance(e.payload, Scored) for e in events)
            if self.sent == (latest, scored):
                return
            since = events[0].at if events else 0.0
            matches = [
                m for m in history.read_matches(store, self.settings, since) if m.number == latest
            ]
        finally:
            store.close()
        for past in document(matches)["matches"]:
            for done in past["rounds"]:
                self.reporter.result(
                    {
                        "match": past["id"],
                        "round": done["round"],
                        "final": past["ended"] is not None,
                        "players": done["sides"],
                    }
                )
        self.sent = (latest, scored)
