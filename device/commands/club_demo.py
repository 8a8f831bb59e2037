"""``cuberef demo --club``: a short club evening on this machine. The director serves an
event (its own mosquitto, on loopback) of two tables, eight players and two rounds of
king of the hill; two scripted boxes, each with its [club] section, show their seat,
seat the players on phones (HTTP clients of each box's real players' page), read the
bundled tray, take the phones' words and score. It writes ``club/standings.json`` (as
``cuberef club standings --json`` prints it) and each table's ``club/table-N/history.json``
(as ``cuberef history --json`` prints the box's own store).

``ClubBox`` is that scripted box; the club tests play their evenings with it too."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import MachineError

if TYPE_CHECKING:
    pass

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
TABLES, ROUNDS = 2, 2
#: How long the demo waits for what travels through the broker.
WAIT_SECONDS = 20.0


def wait_for(done: Callable[[], object], what: str, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise MachineError(f"The club demo waited {seconds:g} s in vain for {what}.")
        time.sleep(0.02)


class FrontPhone:
    """A phone at the box's page front itself, without HTTP: what ``Phone`` asks the page,
    asked in this process (the club tests' many phones)."""

    def __init__(self, front: Any, name: str) -> None:
        self.front, self.name = front, name
        self.token = str(front.join(name, "", "")[0])

    def type(self, word: str) -> str:
        return str(self.front.hand_in(self.token, word, remove=False))

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        assert path == "leave"
        self.front.leave(self.token)
        return {"ok": True}


class ClubBox:
    """A table's box on a fake clock: the real referee, store and players' page (on
    127.0.0.1), a dummy screen, its [club] section from ``club``."""

    def __init__(
        self,
        folder: Path,
        club: dict[str, Any],
        photos: Path,
        reader: Any = None,
        http: bool = True,
    ) -> None:
        from device.base.clock import FakeClock
        from device.box.assemble import assemble
        from device.config import settings as config
        from device.parts.buzzer import Buzzer, PrintedSound

        self.folder, self.clock = folder, FakeClock()
        chosen = {
            "game": "boggle",
            "rounds": 1,
            "store": {"folder": str(folder / "store")},
            "screen": {"backend": "dummy", "fullscreen": False},
            "button": {"backend": "keys"},
            "buzzer": {"type": "silent"},
            "page": {"enabled": True, "port": 0},
            "camera": {"backend": "folder", "folder": str(photos)},
            "club": club,
        }
        self.settings = config.overlay(config.defaults(), chosen)
        self.box = assemble(
            self.settings,
            self.clock,
            reader=reader,
            buzzer=Buzzer(PrintedSound(lambda _line: None)),
            page_host="127.0.0.1",
        )
        # One process holds one pygame display, and each box opens it anew: each of the
        # demo's boxes draws on a picture of its own instead.
        import pygame

        screen = self.box.box.screen
        screen.display = screen.surface = pygame.Surface(screen.size)
        self.phones: dict[str, Any] = {}
        self.http = http

    def screen_text(self) -> str:
        """Every line the box's screen shows now (after a step of its loop)."""
        self.box.box.step()
        layout = self.box.box.screen.layout
        return " ".join(text.text for text in layout.texts) if layout else ""

    def seat(self, players: Sequence[str]) -> None:
        """The seated players' phones: those gone leave the page, the new ones join it."""
        from device.commands.phone import Phone
        from device.page.phones import Phones

        referee = self.box.referee
        for name in list(self.phones):
            if name not in players:
                gone = self.phones.pop(name)
                gone.post("leave", {"token": gone.token})
        for name in players:
            if name not in self.phones and self.http:
                self.phones[name] = Phone(referee.page_address, referee.join_code, name)
            elif name not in self.phones:
                self.phones[name] = FrontPhone(Phones(referee), name)
        self.box.box.step()

    def press(self) -> None:
        from device.parts.button import Press
        from device.referee.flow import SETTLE_SECONDS

        self.clock.advance(SETTLE_SECONDS)
        self.box.box.events.put(Press.TAP)
        self.box.box.step()

    def play_match(self, words: dict[str, int]) -> None:
        """A match of one round: ``start_round``, then ``finish_match``."""
        self.start_round(words)
        self.finish_match()

    def start_round(self, words: dict[str, int]) -> None:
        """Press for the round: the tray is read and the timer runs; each phone types its
        count of the tray's words (from its own place in the solver's list, so that some
        are crossed off)."""
        from device.referee.flow import State
        from device.seams.readings import board_of
        from device.seams.seams import Scorer

        referee = self.box.referee
        self.press()
        reading = referee.round.reading if referee.round is not None else None
        board = board_of(reading) if reading is not None else None
        if referee.state is not State.TIMING or board is None:
            raise MachineError(f"The box did not start a round: {referee.message}")
        found = Scorer().solve(board, referee.game)
        ranked = sorted((w.word for w in found), key=lambda w: (-len(w), w))
        for index, (name, phone) in enumerate(self.phones.items()):
            for word in ranked[index * 3 : index * 3 + words.get(name, 0)]:
                phone.type(word)

    def finish_match(self) -> None:
        """The clock runs out, the round is scored, presses on to the match table."""
        from device.referee.flow import State

        referee = self.box.referee
        while referee.state is State.TIMING:
            self.clock.advance(max(1.0, referee.seconds_left))
            self.box.box.step()
        for _press in range(20):
            if referee.state is State.MATCH and referee.match and referee.match.ended:
                return
            self.press()
        raise MachineError(f"The box's match did not end: {referee.message}")

    def close(self) -> None:
        self.box.close()


def play(out: Path, say: Callable[[str], None]) -> dict[str, Any]:
    """The evening, in ``out/club``; its standings document."""
    from device.club import broker, credentials, director, rounds
    from device.club.event import load
    from device.club.serve import serving

    if not broker.available():
        raise MachineError(
            "The club demo runs the director's broker, mosquitto, which is not installed "
            f"here; {broker.HOW_TO_GET}"
        )
    folder = out / "club"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        'event = "demo"',
        'game = "boggle"',
        f"rounds = {ROUNDS}",
        'pairing = "king-of-the-hill"',
        "table_size = 4",
        f"players = {json.dumps(PLAYERS)}",
        f"port = {broker.free_port()}",
        'bind = "127.0.0.1"',
    ]
    (folder / "club.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    chosen = load(folder / "club.toml")
    credentials.make_tables(chosen.folder, TABLES)
    photos = resources.files("device") / "data" / "demo" / "boggle"
    with resources.as_file(photos) as real_photos, serving(chosen, 0, "127.0.0.1") as running:
        say(f"director: {running.mosquitto.url if running.mosquitto else chosen.broker}, "
            f"scoreboard http://127.0.0.1:{running.scoreboard.port}/")  # fmt: skip
        boxes = []
        try:
            for number in range(1, TABLES + 1):
                secret = credentials.secret_path(chosen.folder, f"table-{number}")
                club: dict[str, Any] = {"broker": director.broker_url(chosen), "event": chosen.name}
                club.update(table=number, secret_file=str(secret))
                boxes.append(ClubBox(folder / f"table-{number}", club, Path(real_photos)))
            play_rounds(chosen, running.director.ledger, boxes, say)
            document = rounds.document(chosen, running.director.ledger)
        finally:
            for box in boxes:
                box.close()
    (folder / "standings.json").write_text(json.dumps(document, indent=2) + "\n", "utf-8")
    for box in boxes:
        kept = json.dumps(history(box.folder), indent=2)
        (box.folder / "history.json").write_text(kept + "\n", "utf-8")
    for place, row in enumerate(document["standings"], 1):
        say(f"{place}. {row['name']}: won {row['won']} of {row['played']}, "
            f"{row['points']} points, spread {row['spread']:+d}")  # fmt: skip
    return document


def play_rounds(
    chosen: Any, ledger: Any, boxes: Sequence[ClubBox], say: Callable[[str], None]
) -> None:
    """Every round of the event: seated, shown on each box, played, every result in."""
    from device.club import director, rounds

    for number in range(1, chosen.rounds + 1):
        seating = rounds.next_seating(chosen, ledger)
        director.publish_seating(chosen, seating)
        for table, (box, players) in enumerate(zip(boxes, seating.tables, strict=False), 1):
            line = rounds.seating_line(table, number, players)
            wait_for(lambda: line in box.screen_text(), f"table {table}'s seat")  # noqa: B023
            say(f"box {table} shows: {line}")
            box.seat(players)
            box.play_match({name: 2 + (index + number) % 4 for index, name in enumerate(players)})
            match = box.box.referee.match
            scores = match.standings() if match is not None else []
            say(f"table {table}: {', '.join(f'{name} {points}' for name, points in scores)}")

        def reported(n: int = number, tables: int = len(seating.tables)) -> bool:
            return len({r.table for r in ledger.results() if r.event_round == n}) == tables

        wait_for(reported, f"round {number}'s results")


def history(folder: Path) -> dict[str, Any]:
    """``cuberef history --json`` of a Boggle box's own store in ``folder/store``."""
    from device.config import settings as config
    from device.referee import history as past
    from device.referee.history_formats import document
    from device.store.store import Store

    store = Store(folder / "store", read_only=True)
    try:
        return document(past.read_matches(store, config.defaults()))
    finally:
        store.close()
