"""Play the box through on built-in defaults, with no hardware: two Boggle matches whose
players type their words on two simulated phones (they join once, and stay in for the
second match), a whole Ad-Lib match of two, and an Ad-Lib turn on the replay camera
whose table the box reads live as the crossword grows (``adlib-live``).

Bundled photos (rendered by the project's scene renderer) stand in for the camera, a
fast clock runs the 3-minute timer in a moment, the buzzer's cues are printed, and
every screen is saved as a PNG in the output folder, named as it is written. The phones
are HTTP clients of the box's real players' page, listening on 127.0.0.1 only: they
join with the code on the screen and type their words while the timer runs.

The folder (cuberef-demo in the current folder unless --out names another) is the
demo's own: it is created when missing, an earlier demo in it is replaced, and a folder
that holds anything else is refused and left as it is."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from device.commands import options
from device.commands.output import emit_json
from device.commands.own_folder import own_folder
from device.commands.phone import Phone
from engine.errors import MachineError

if TYPE_CHECKING:
    from device.base.clock import FakeClock
    from device.box.assemble import Assembled

#: Game family -> (game id, the folder of bundled photos).
FAMILIES = {"boggle": ("boggle", "boggle"), "adlib": ("adlib", "adlib")}
STEP_SECONDS = 0.25
#: How long a phone takes to type a word, on the demo's clock.
TYPING_SECONDS = 4.0
#: The Boggle round's phones and what each types (on the bundled tray DQuWT/EETN/CSSO/
#: EDBN): words of their own, one both find (crossed off), one not on the tray, one short.
PHONES = {
    "Ann": ["quested", "snobs", "notes", "tweed", "cat"],
    "Ben": ["quests", "notes", "stew", "weed", "ox"],
}
#: Boggle matches the phones play, one after another: they join once and stay in.
MATCHES = 2
#: The Ad-Lib match: who plays, in their seats (the bundled photos show their throws).
ADLIB_PLAYERS = ["Ann", "Ben"]
#: The Ad-Lib turn on the replay camera, played after the match (its own folder): a frame
#: of the bundled turn every 2 s, each read live several times, as a stage of a
#: crossword stays on a table while the next word is found.
LIVE_PART, REPLAY_FPS = "adlib-live", 0.5
#: Its turn's length: a minute, since reading each frame of the turn live takes the demo
#: about 20 ms of its own time a frame.
LIVE_SECONDS = 60


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        default="cuberef-demo",
        metavar="FOLDER",
        help="the demo's folder for its screens (PNG) and match stores: new, empty or an "
        "earlier demo's (default cuberef-demo)",
    )
    parser.add_argument(
        "--game", choices=sorted(FAMILIES), help="only this family: " + ", ".join(FAMILIES)
    )
    parser.add_argument(
        "--club",
        action="store_true",
        help="a club's evening instead: two tables, eight players, two rounds of king of the "
        "hill through the director's mosquitto (club/standings.json, each table's history)",
    )
    options.add_json(parser)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    say = (lambda _line: None) if args.json else print
    if args.club:
        from device.commands import club_demo

        with own_folder(Path(args.out)) as out:
            document = club_demo.play(out, say)
        if args.json:
            emit_json({"out": str(out), "club": document})
        else:
            print(f"Demo finished; the standings are in {out / 'club' / 'standings.json'}.")
        return 0
    played = []
    with own_folder(Path(args.out)) as out:
        for family in [args.game] if args.game else list(FAMILIES):
            for part in [family, LIVE_PART] if family == "adlib" else [family]:
                screens: list[str] = []
                problem = play(part, out / part, say, screens)
                played.append({"family": part, "screens": screens, "problem": problem})
    failures = [f"{p['family']}: {p['problem']}" for p in played if p["problem"]]
    if failures:
        raise MachineError("The demo could not finish every round (" + "; ".join(failures) + ").")
    if args.json:
        emit_json({"out": str(out), "rounds": played})
    else:
        print(f"Demo finished; the screens are in {out}/.")
    return 0


def play(family: str, out: Path, say: Callable[[str], None], screens: list[str]) -> str | None:
    """Play one family's part (or ``LIVE_PART``); returns why it stopped short, or None
    when it went all the way to the end of the match."""
    from device.base.clock import FakeClock
    from device.box.assemble import assemble
    from device.config import settings as config
    from device.parts.buzzer import Buzzer, PrintedSound

    live = family == LIVE_PART
    game, folder = ("adlib", "replay") if live else FAMILIES[family]
    clock = FakeClock()
    chosen: dict[str, Any] = {
        "game": game,
        "best_seconds": 2.0,
        "rounds": 1,
        "store": {"folder": str(out / "store")},
        "screen": {"backend": "dummy", "fullscreen": False},
        "button": {"backend": "keys"},
    }
    if family == "boggle":
        chosen["page"] = {"enabled": True, "port": 0}  # any free port
    else:
        chosen["players"] = ADLIB_PLAYERS[:1] if live else ADLIB_PLAYERS
    photos = resources.files("device") / "data" / "demo" / folder
    with resources.as_file(photos) as real_folder:
        chosen["camera"] = {"backend": "folder", "folder": str(real_folder)}
        if live:
            chosen["camera"] = {"backend": "replay", "source": str(real_folder)}
            chosen["camera"]["fps"] = REPLAY_FPS
            chosen["timer_seconds"] = LIVE_SECONDS
        settings = config.overlay(config.defaults(), chosen)
        say(f"== {family}: {'frames' if live else 'photos'} from {real_folder}")
        box = assemble(
            settings,
            clock,
            screenshots=out,
            buzzer=Buzzer(PrintedSound(say, clock=lambda: clock.monotonic() - 1000.0)),
            page_host="127.0.0.1",
        )

        def saved(path: Path) -> None:
            screens.append(str(path))
            say(f"screen: {path}")

        box.box.on_screenshot = saved
        try:
            phones = _join(box, say) if box.page is not None else []
            return _match(box, clock, say, phones)
        finally:
            box.close()


def _join(box: Assembled, say: Callable[[str], None]) -> list[Phone]:
    referee = box.referee
    box.box.draw()  # the idle screen: the page's address, its QR code and the join code
    say(f"players' page: {referee.page_address} code {referee.join_code}")
    phones = [Phone(referee.page_address, referee.join_code, name) for name in PHONES]
    for phone in phones:
        say(f"phone: {phone.name} joined")
    return phones


def _match(
    box: Assembled, clock: FakeClock, say: Callable[[str], None], phones: list[Phone]
) -> str | None:
    """Press the button through the match as players would, until its table says who
    won; the phones type while the timer runs."""
    from device.base.wording import winners_line
    from device.parts.button import Press
    from device.referee.flow import SETTLE_SECONDS, State
    from device.seams.readings import faces_of

    referee, main = box.referee, box.box
    main.draw()
    matches = MATCHES if phones else 1  # the phones stay in for the next match
    for _press in range(40 * matches):
        if referee.state is State.MATCH and referee.match and referee.match.ended:
            number = referee.match.number
            say(f"match {number}: {winners_line(referee.match.winners())}. {referee.message}")
            if number >= matches:
                return None
        before = referee.state
        clock.advance(SETTLE_SECONDS)  # a player presses once the screen has changed
        main.events.put(Press.TAP)
        main.step()
        if referee.state in (State.IDLE, State.TIME_UP) and before is not State.TIMING:
            problem = referee.message.replace(" Press the button to try again.", "")
            say(f"stopped: {problem}")
            return problem
        if referee.state is State.STARTER and referee.match is not None:
            who, face, value = referee.match.throws[-1]
            say(f"who starts: {who} threw {face} = {value}")
        if referee.state is State.TIMING and referee.round and referee.round.reading:
            say(f"read: {' '.join(map(str, faces_of(referee.round.reading)))}")
            _type_words(box, clock, say, phones)
            _run_the_clock(box, clock, say)
        if referee.state is State.SCORED:
            say(f"scored: {_summary(box)}")
            for phone in phones:
                shown = phone.state()
                mine = [p for p in shown["results"] if p["name"] == phone.name]
                say(f"phone: {phone.name} sees {mine[0]['score'] if mine else 0} points")
    return f"the {'matches' if matches > 1 else 'match'} did not end in {40 * matches} presses"


def _type_words(
    box: Assembled, clock: FakeClock, say: Callable[[str], None], phones: list[Phone]
) -> None:
    """The phones type their words while the timer runs, a word every few seconds, and
    the screen is saved once they have: its clock is the clock at that moment."""
    if not phones:
        return
    for phone in phones:
        for word in PHONES[phone.name]:
            clock.advance(TYPING_SECONDS)
            box.box.step()
            say(f"phone: {phone.name} typed {word}: {phone.type(word)}")
    box.box.step()
    box.box.screenshot("phones-typing")


def _run_the_clock(box: Assembled, clock: FakeClock, say: Callable[[str], None]) -> None:
    """Run the timer out on the fake clock. The replay camera plays by that clock, so an
    Ad-Lib turn's table is read live on it too, a frame every ``EVERY`` seconds as the
    box's reading thread takes them on the real clock, and each new reading is a screen
    saved (``live-reading``)."""
    from device.referee.flow import State
    from device.seams.live_turn import EVERY

    referee, main = box.referee, box.box
    live = referee.scoring.live if box.camera.name == "replay" else None
    if live is not None:
        live.stop()  # its thread waits on the real clock, which the demo does not use
    step = EVERY if live is not None else STEP_SECONDS
    shot_last_ten = False
    shown = ("", frozenset[int]())
    while referee.state is State.TIMING:
        clock.advance(step)
        if live is not None:
            live.step()
        main.step()
        view = main.screen.shown
        if view is not None and view.score and (view.score, view.used) != shown:
            shown = (view.score, view.used)
            main.screenshot("live-reading")
            say(f"live: {_live_summary(box)}")
        if not shot_last_ten and 0 < referee.seconds_left <= 9.5:
            main.screenshot("last-ten-seconds")
            shot_last_ten = True


def _live_summary(box: Assembled) -> str:
    """The live reading as the screen shows it: the crossword so far, its running score
    and the unused cubes with their values."""
    live = box.referee.scoring.live
    view = live.view if live is not None else None
    if view is None:
        return "nothing read yet"
    score = "not sure" if view.score is None else str(view.score)
    unused = ", ".join(f"{f} {v}" for f, v in zip(view.unused, view.values, strict=True))
    return f"{'/'.join(view.grid)} scores {score} so far; unused: {unused or 'none'}"


def _summary(box: Assembled) -> str:
    done = box.referee.round
    assert done is not None
    if done.result is not None:
        scores = ", ".join(f"{name} {points}" for name, points in done.result.scores().items())
        return f"{scores}; {len(done.found)} words on the tray, {done.maximum} points at most"
    if done.verdict is None:
        return f"{len(done.found)} words, {done.maximum} points at most"
    best = f"best {done.best.score}" if done.best else "no best crossword"
    verdict = "valid" if done.verdict.valid else "not valid: " + " ".join(done.verdict.errors)
    return (
        f"{done.player}: crossword {'/'.join(done.grid)} scores {done.verdict.score} "
        f"({verdict}); {best}"
    )
