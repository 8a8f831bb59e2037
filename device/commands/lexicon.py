"""List, dump and build the word lists the referee checks words against.

``list`` shows every lexicon with its size, source and licence; ``dump LANG`` prints
every word in its real spelling, one a line; ``build`` rebuilds the bundled English
and Czech lexicons and their notes from their Debian sources (installing ``scowl``,
``wordnet-base``, ``dict-gcide``, ``wfrench``, FreeDict's English dictionaries
(``dict-freedict-eng-deu``, ``dict-freedict-eng-ces`` and five more) and ``hunspell-cs``
with apt-get when they are missing and cuberef runs as root);
``build --from FILE --name NAME`` compiles a player's own list into their lexicon
folder."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from device.base.inputs import WORD_LIST_LIMIT, read_text
from device.commands.output import emit_json
from engine.build import czech, english
from engine.errors import CuberefError, MachineError, NotationError
from engine.lexicon import (
    SUFFIX,
    Lexicon,
    LexiconCard,
    available_lexicons,
    bundled_lexicons,
    compile_lexicon,
    lexicon_folder,
    lexicon_path,
    read_card,
    user_lexicon_folder,
)

#: The letters a player's own list may use, by language.
LETTERS = {"en": "abcdefghijklmnopqrstuvwxyz", "cs": czech.CZECH_LETTERS}
#: The longest word a lexicon takes: more than a 6x6 tray of two-letter faces spells.
LONGEST_WORD = 72
HOUSE_ACTIONS = ("list", "allow", "refuse", "forget")
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


@dataclass(frozen=True, slots=True)
class Source:
    """A bundled lexicon, the Debian packages its words come from and the files that
    show they are installed, and the build that writes its notes and returns its words."""

    name: str
    packages: tuple[str, ...]
    needed: tuple[Path, ...]
    build: Callable[[Path], Iterable[str]]
    source: str
    licence: str


SOURCES = {
    "en": Source(
        "en",
        english.DEBIAN_PACKAGES,
        english.NEEDED,
        english.build_into,
        english.SOURCE,
        english.LICENCE,
    ),
    "cs": Source(
        "cs",
        czech.DEBIAN_PACKAGES,
        czech.NEEDED,
        czech.build_into,
        czech.SOURCE,
        czech.LICENCE,
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every lexicon with its size, source and licence")
    listing.add_argument("--json", action="store_true", help="print one JSON document")
    dump = actions.add_parser("dump", help="print every word of a lexicon, one a line")
    dump.add_argument("name", metavar="LANG", help="en, cs or the name of your own lexicon")
    dump.add_argument(
        "--json", action="store_true", help='print one JSON document: {"lexicon", "words"}'
    )
    build = actions.add_parser(
        "build", help="rebuild en and cs from their sources, or compile your own list"
    )
    build.add_argument("--from", dest="source", metavar="FILE", help="your word list (UTF-8)")
    build.add_argument("--name", help="the name to give your lexicon (with --from)")
    build.add_argument(
        "--language",
        choices=sorted(LETTERS),
        help="the language of --from's words (default en), or the one bundled lexicon to rebuild",
    )
    build.add_argument("--json", action="store_true", help="print one JSON document")
    house = actions.add_parser(
        "house", help="the table's own rulings: list them, allow, refuse or forget a word"
    )
    house.add_argument(
        "do",
        nargs="?",
        default="list",
        choices=HOUSE_ACTIONS,
        metavar="ACTION",
        help="list (the default), allow WORD, refuse WORD or forget WORD",
    )
    house.add_argument("word", nargs="?", metavar="WORD", help="the word to rule on")
    house.add_argument(
        "--lang",
        choices=sorted(LETTERS),
        default="en",
        help="the house list's language (default en)",
    )
    house.add_argument("--config", metavar="FILE", help="the box's TOML configuration")
    house.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return _list(args.json)
    if args.action == "dump":
        return _dump(args.name, args.json)
    if args.action == "house":
        return _house(args.do, args.word, args.lang, args.config, args.json)
    if args.source is not None:
        return _build_own(Path(args.source), args.name, args.language or "en", args.json)
    if args.name is not None:
        raise NotationError("--name goes with --from FILE; give the word list to compile.")
    return _build_bundled([args.language] if args.language else list(SOURCES), args.json)


def _card(name: str) -> tuple[LexiconCard, Path]:
    path = lexicon_path(name)
    if path is None:
        Lexicon.open(name)  # raises the sentence naming what is installed
        raise AssertionError(name)
    return read_card(path), path


def _list(as_json: bool) -> int:
    bundled = set(bundled_lexicons())
    rows, damaged = [], []
    for name in available_lexicons():
        try:  # one damaged lexicon of a player's does not hide the others
            card, path = _card(name)
        except MachineError as error:
            damaged.append({"name": name, "problem": str(error)})
            print(f"cuberef: {error}", file=sys.stderr)
            continue
        size = path.stat().st_size + path.with_suffix(".json").stat().st_size
        rows.append({**asdict(card), "bytes": size, "bundled": name in bundled, "path": str(path)})
    if as_json:
        emit_json({"lexicons": rows, "damaged": damaged})
        return 0
    for row in rows:
        where = "bundled" if row["bundled"] else "your own"
        print(
            f"{row['name']:<10} {row['language']:<3} {row['words']:>9,} words "
            f"{row['bytes'] / 1e6:7.1f} MB  {where}\n"
            f"           source:  {row['source']}\n"
            f"           licence: {row['licence']}"
        )
    return 0


def _dump(name: str, as_json: bool) -> int:
    """Every word, written in batches: the Czech lexicon has three million."""
    lexicon = Lexicon.open(name)
    shown = (lambda word: json.dumps(word, ensure_ascii=False)) if as_json else str
    separator = ",\n" if as_json else "\n"
    if as_json:
        sys.stdout.write(f'{{"lexicon": {json.dumps(lexicon.name)}, "words": [\n')
    batch: list[str] = []
    written = False
    for word in lexicon:
        batch.append(shown(word))
        if len(batch) == 65536:
            sys.stdout.write((separator if written else "") + separator.join(batch))
            batch.clear()
            written = True
    if batch:
        sys.stdout.write((separator if written else "") + separator.join(batch))
    sys.stdout.write("\n]}\n" if as_json else "\n")
    sys.stdout.flush()
    return 0


def _ensure_installed(sources: list[Source]) -> None:
    """Install the Debian packages of missing sources, saying so, or stop with a sentence."""
    missing = [
        package
        for source in sources
        for package, path in zip(source.packages, source.needed, strict=True)
        if not path.exists()
    ]
    if not missing:
        return
    packages = " ".join(missing)
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        raise CuberefError(
            f"The word-list sources are not installed ({packages}); install them with "
            f"'sudo apt-get install {packages}' and run 'cuberef lexicon build' again."
        )
    print(f"cuberef: installing {packages} with apt-get.", file=sys.stderr)
    command = ["apt-get", "install", "-y", *missing]
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0 or any(
        not path.exists() for source in sources for path in source.needed
    ):
        raise MachineError(
            f"apt-get could not install {packages}; check the network and the package "
            "sources, then run 'cuberef lexicon build' again."
        )


def _build_bundled(names: list[str], as_json: bool) -> int:
    sources = [SOURCES[name] for name in names]
    _ensure_installed(sources)
    built = []
    for source in sources:
        started = time.perf_counter()
        if not as_json:
            print(f"building {source.name} from {', '.join(source.packages)} ...", file=sys.stderr)
        card = compile_lexicon(
            source.build(lexicon_folder()),
            lexicon_folder(),
            source.name,
            source.name,
            source.source,
            source.licence,
        )
        path = lexicon_folder() / f"{source.name}{SUFFIX}"
        seconds = time.perf_counter() - started
        built.append({**asdict(card), "bytes": path.stat().st_size, "seconds": round(seconds, 1)})
        if not as_json:
            print(f"{card.name}: {card.words:,} words, {path.stat().st_size / 1e6:.1f} MB, {path}")
    if as_json:
        emit_json({"built": built})
    return 0


def read_word_list(path: Path, language: str) -> list[str]:
    """A player's word list: UTF-8, one word a line, blank lines and ``#`` comments
    ignored. Raises one sentence naming the first bad line."""
    text = read_text(path, "your word list", WORD_LIST_LIMIT)
    letters = LETTERS[language]
    words: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        word = line.split("#", 1)[0].strip().lower()
        if not word:
            continue
        if len(word) > LONGEST_WORD:
            raise NotationError(
                f"Line {number} of {path.name} has a word of {len(word):,} letters; no tray "
                f"spells more than {LONGEST_WORD}, so remove that line."
            )
        if any(ch not in letters for ch in word):
            alphabet = "a to z" if language == "en" else "Czech letters"
            raise NotationError(
                f"Line {number} of {path.name} has {word!r}, which is not a word: "
                f"a word is {alphabet} only, with no digits, spaces or punctuation."
            )
        words.append(word)
    if not words:
        raise NotationError(f"{path.name} has no words; write one word a line.")
    return words


def _build_own(path: Path, name: str | None, language: str, as_json: bool) -> int:
    if name is None or not _NAME.fullmatch(name):
        raise NotationError(
            "Give your lexicon a --name of lowercase letters, digits, '-' or '_' "
            "(up to 40, starting with a letter or digit)."
        )
    if name in SOURCES or name in bundled_lexicons():
        raise NotationError(f"{name!r} is a bundled lexicon's name; choose another --name.")
    words = read_word_list(path, language)
    folder = user_lexicon_folder()
    card = compile_lexicon(
        words, folder, name, language, f"a player's word list, {path.name}", "the player's own"
    )
    compiled = folder / f"{name}{SUFFIX}"
    if as_json:
        emit_json(
            {"built": [{**asdict(card), "bytes": compiled.stat().st_size}], "path": str(compiled)}
        )
    else:
        print(f"{card.name}: {card.words:,} words, {compiled}")
    return 0


def _house(do: str, word: str | None, language: str, config: str | None, as_json: bool) -> int:
    """List the box's house list, or allow, refuse or forget one word in it."""
    from device.commands.house import box_store_folder, house_list
    from device.store.store import Store
    from engine.house import ALLOWED_BY_TABLE, REFUSED_BY_TABLE
    from engine.referee import normalize_word

    if do == "list":
        if word is not None:
            raise NotationError(
                f"'lexicon house list' takes no word; to rule on {word!r} "
                "say allow, refuse or forget."
            )
        house = house_list(config, language)
    else:
        if word is None:
            raise NotationError(f"Say which word to {do}: cuberef lexicon house {do} WORD.")
        word = normalize_word(word)
        if any(ch not in LETTERS[language] for ch in word):
            raise NotationError(
                f"{word!r} is not written in {'English' if language == 'en' else 'Czech'} "
                "letters; give the word as the players wrote it."
            )
        store = Store(box_store_folder(config))
        try:
            before = store.house(language).ruling(word)
            store.rule_word(language, word, {"allow": True, "refuse": False}.get(do), time.time())
            house = store.house(language)
        finally:
            store.close()
        if not as_json:
            said = {True: ALLOWED_BY_TABLE, False: REFUSED_BY_TABLE}
            if do == "forget":
                was = said[before] if before is not None else "not in the house list"
                print(f"{word.upper()}: forgotten (it was {was}); the word list rules on it again.")
            else:
                print(f"{word.upper()}: {said[do == 'allow']} ({language}).")
    if as_json:
        emit_json(
            {
                "language": language,
                "allowed": sorted(house.allowed),
                "refused": sorted(house.refused),
            }
        )
    elif do == "list":
        for title, words in (
            ("allowed by this table", house.allowed),
            ("refused by this table", house.refused),
        ):
            print(f"{title} ({language}): {', '.join(sorted(words)) or 'none'}")
    return 0
