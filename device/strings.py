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
from functools import cache
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
        pieces = _FIELD.split(english)
        pattern = "".join(
            f"(?P<{piece}>.+?)" if k % 2 else re.escape(piece) for k, piece in enumerate(pieces)
        )
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


def translated(sentence: str, language: str) -> str:
    """An English sentence of the table said in ``language`` (as it is where it is none)."""
    if language == "en":
        return sentence
    found = key_of(sentence)
    if found is None:
        return sentence
    key, fields = found
    said: dict[str, Any] = dict(fields)
    if "refusal" in fields:  # a class of refused word: "is slang"
        said["refusal"] = translated(fields["refusal"], language)
    if "spellings" in fields and " or " in fields["spellings"]:
        words, last = fields["spellings"].rsplit(" or ", 1)
        said["spellings"] = say("or", language, words=words, last=last)
    if "n" in fields and fields["n"].isdigit():
        for field, counted in _COUNTED.items():
            said.setdefault(field, plural(counted, int(fields["n"]), language))
    return say(key, language, **said)


def page_texts(language: str) -> dict[str, str]:
    """The players' page's own words (``phone-*`` messages), by the page's names for them,
    and how a word on a list is ruled (``status-*``, by their ids)."""
    return {
        key.removeprefix("phone-"): say(key, language)
        for key in table()
        if key.startswith(("phone-", "status-"))
    }
