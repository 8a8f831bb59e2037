"""The box's words in every language it speaks, from one table a translator fills in:
``device/data/strings.toml``, each message by its id with a line for each language.

Every screen line, every answer of the players' page and every reason a word is refused
comes from here: ``say`` gives a message in a language, ``plural`` a count with its
noun, ``translated`` turns an English sentence of the table (a refusal raised deep in
the box's rules, a reason the engine gave) into another language.

>>> say("winner", "cs", name="Ann")
'Vítěz: Ann'
>>> plural("n-words", 1), plural("n-words", 3, "cs"), plural("n-words", 5, "cs")
('1 word', '3 slova', '5 slov')
>>> translated("Time is up: the lists are locked.", "cs")
'Čas vypršel: seznamy jsou uzavřené.'
>>> translated("not a word: GONNA is slang, which the rulebook does not allow", "cs")
'není slovo: GONNA je slang, což pravidla nedovolují'
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from engine.games import Game

#: Which of a count's forms ("|" between them) each language uses for ``n``: English
#: one|more, Czech 1|2-4|5 and more (and 0).
PLURALS: dict[str, Callable[[int], int]] = {
    "en": lambda n: 0 if n == 1 else 1,
    "cs": lambda n: 0 if n == 1 else 1 if 2 <= n <= 4 else 2,
}
#: The counts a sentence's number ``{n}`` may be said with, by the field each fills.
_COUNTED = {"letters": "n-letters", "words": "n-words", "points": "n-points"}
_FIELD = re.compile(r"\{(\w+)\}")
#: Fields that hold a sentence (or a part of one) of the table themselves: said in the
#: language too (the class of a refused word, why a photo was not used, a failure).
_NESTED = {"refusal", "why", "reason", "error", "direction", "lying", "how"}
#: Fields that list several things, by the word between the last two and its message.
_LISTED = {
    "spellings": ("or", "or"),
    "games": ("or", "or"),
    "sizes": ("and", "and"),
    "faces": ("and", "and"),
    "cubes": ("and", "and"),
}
#: A game's id or title in a list of them ("Boggle or Czech Boggle").
_BETWEEN_GAMES = re.compile(r"(, | or )")
_SPOT = re.compile(r"row (\d+), column (\d+)")


@cache
def table() -> dict[str, dict[str, str]]:
    """Every message: its id -> {language: text}."""
    path = resources.files("device") / "data" / "strings.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


@cache
def languages() -> tuple[str, ...]:
    """The languages the table speaks: those every message has a line in, English first."""
    spoken = set.intersection(*(set(lines) for lines in table().values()))
    return tuple(sorted(spoken, key=lambda language: (language != "en", language)))


def game_language(game: Game) -> str:
    """The language a game's table speaks by default: its words' (Czech for Czech Boggle)."""
    return game.lexicon if game.lexicon in languages() else "en"


def say(key: str, language: str = "en", /, **fields: Any) -> str:
    """Message ``key`` in ``language`` (English where the table has no line in it)."""
    lines = table()[key]
    return lines.get(language, lines["en"]).format(**fields)


def plural(key: str, n: int, language: str = "en") -> str:
    """``n`` with its noun, in the form ``language`` uses for ``n``."""
    forms = say(key, language, n=n).split("|")
    rule = PLURALS.get(language, PLURALS["en"])
    return forms[min(rule(n), len(forms) - 1)]


def names_and(names: Sequence[str], language: str = "en") -> str:
    """The names as a sentence says them.

    >>> names_and(["Ann", "Ben", "Cy"]), names_and(["Ann", "Ben"], "cs")
    ('Ann, Ben and Cy', 'Ann a Ben')
    """
    if len(names) <= 1:
        return "".join(names)
    return say("and", language, names=", ".join(names[:-1]), last=names[-1])


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """Each English message as a pattern its fields are read back by, the most literal
    text first (so that "{error} Press..." matches only what no other message does)."""
    found = []
    for key, lines in table().items():
        english = lines["en"]
        if "|" in english:
            continue
        pieces, seen = _FIELD.split(english), set()
        parts = []
        for k, piece in enumerate(pieces):
            if not k % 2:
                parts.append(re.escape(piece))
            elif piece in seen:  # a field said twice ("a 5x5 tray") is the same both times
                parts.append(f"(?P={piece})")
            else:
                seen.add(piece)
                parts.append(f"(?P<{piece}>.+?)")
        pattern = "".join(parts)
        found.append((len(_FIELD.sub("", english)), re.compile(pattern + "$", re.S), key))
    found.sort(key=lambda item: -item[0])
    return [(pattern, key) for _length, pattern, key in found]


def key_of(sentence: str) -> tuple[str, dict[str, str]] | None:
    """The id of the message ``sentence`` says in English, and its fields (None if none)."""
    for pattern, key in _patterns():
        matched = pattern.match(sentence)
        if matched is not None:
            return key, matched.groupdict()
    return None


@lru_cache(maxsize=1024)  # the screen says its notices again at every frame
def translated(sentence: str, language: str) -> str:
    """An English sentence of the table said in ``language`` (as it is where it is none)."""
    if language == "en":
        return sentence
    if (reason := _reason_in(sentence)) is not None:
        inner = translated(reason, language)
        return inner[:1].upper() + inner[1:] + "."
    found = key_of(sentence)
    if found is None:
        return sentence
    key, fields = found
    said: dict[str, Any] = dict(fields)
    for field in _NESTED & set(fields):  # a sentence in a sentence: "is slang", a reason
        said[field] = translated(fields[field], language)
    for field in {"game", "games"} & set(fields):  # a game's id or title: its name here
        parts = _BETWEEN_GAMES.split(said[field])  # separators at the odd places
        said[field] = "".join(p if k % 2 else _game_name(p, language) for k, p in enumerate(parts))
    for field, (word, joined) in _LISTED.items():  # "kůra or kúra", "8 and 3"
        if field in fields and f" {word} " in said[field]:
            words, last = said[field].rsplit(f" {word} ", 1)
            said[field] = say(joined, language, words=words, names=words, last=last)
    if "where" in fields:  # "row 1, column 3, row 2, column 1"
        said["where"] = _SPOT.sub(
            lambda spot: say("row-column", language, row=spot[1], column=spot[2]), fields["where"]
        )
    if "n" in fields and fields["n"].isdigit():
        for field, counted in _COUNTED.items():
            said.setdefault(field, plural(counted, int(fields["n"]), language))
    return say(key, language, **said)


def _reason_in(sentence: str) -> str | None:
    """The referee's reason (``why-*``) that ``sentence`` makes a sentence of its own, as
    the engine refuses a typed word ("Not a word: C4T has digits, ... only."); else None."""
    if not (sentence[:1].isupper() and sentence.endswith(".")):
        return None
    reason = sentence[:1].lower() + sentence[1:-1]
    found = key_of(reason)
    return reason if found is not None and found[0].startswith("why-") else None


def _game_name(game: str, language: str) -> str:
    """A game named by its id (``czech-boggle``) or English title, in ``language``."""
    key = f"game-{game}"
    return say(key, language) if key in table() else translated(game, language)


def page_texts(language: str) -> dict[str, str]:
    """The players' page's own words (``phone-*`` messages), by the page's names for them,
    and how a word on a list is ruled (``status-*``, by their ids)."""
    return {
        key.removeprefix("phone-"): say(key, language)
        for key in table()
        if key.startswith(("phone-", "status-"))
    }
