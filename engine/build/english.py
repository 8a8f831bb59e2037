"""The English lexicon from SCOWL (Debian ``scowl``), checked against WordNet 3.0
(Debian ``wordnet-base``) and a list of slang reviewed by hand.

SCOWL sorts every entry into categories (``words``, ``contractions``,
``abbreviations``, ``proper-names``, ``upper``) and sizes (10 the commonest, 95 the
rarest). The default list takes the ``words`` of sizes up to 70 in every English spelling
(english, american, british, british_z, canadian, australian) and then takes out, in this
order, each word counted once under the first class that takes it:

- ``apostrophe``: entries written with an apostrophe (SCOWL's possessives, ``cat's``);
- ``letters``: entries with a letter the cubes do not have (``café``) or a capital;
- ``slang``: the words of ``english_slang.txt``, reviewed by hand, with their
  inflections, and the WordNet lemmas whose every sense WordNet marks as slang,
  colloquial, vulgar or an ethnic slur, with their inflections;
- ``abbreviation``: single letters and entries with no vowel (``kb``, ``cs``), but for
  the real vowelless words below; and entries SCOWL also lists as abbreviations that
  WordNet does not know as words (``approx``);
- ``fragment``: the pieces of SCOWL's contractions (``ain`` of ``ain't``, ``isn``) that
  SCOWL lists as words only above size 50, where a rare word and a contraction's piece
  look alike.

Every inflection of a word that stays is in: a SCOWL word of size 80 or 95 is added where
WordNet's ``morphy`` finds it to be an inflection of a word that stays (a plural, a verb
tense, a comparative: ``ares`` of ``are``, the unit).

Where the sources disagree, the rulebook decides through the reviewed list: WordNet lists
``yeah``, ``kinda`` and the Scots ``ain``, SCOWL lists ``gonna`` among its common words;
all of them go. SCOWL decides what a word is (its categories keep proper names,
abbreviations and contractions out of ``words``), WordNet decides which senses are slang
and which forms are inflections; a word SCOWL lists that WordNet does not know stays (the
function words, ``the``, ``of``, ``she``, are in no WordNet).

The words no game allows that a player may still write in plain letters are kept apart,
each with its class, so that the referee can say why: SCOWL's contractions without their
apostrophe (``dont``), abbreviations without their dots (``etc``), proper names and
capitalised words (``paris``, ``monday``), and the classes above.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from engine.build import copy_licences
from engine.build import wordnet as wordnet_source
from engine.build.wordnet import WordNet, definitions
from engine.notes import CARD, DEFINITIONS, write_card, write_refused, write_table

SCOWL = Path("/usr/share/dict/scowl")
SPELLINGS = ("english", "american", "british", "british_z", "canadian", "australian")
MAX_SIZE = 70
#: SCOWL's sizes above the default's, searched for the inflections of the words kept.
RARE_SIZES = (80,)
#: A contraction's piece that SCOWL lists only above this size is taken as that piece.
FRAGMENT_SIZE = 50
SOURCE = (
    "SCOWL 2020.12.07 (Debian package scowl, wordlist.aspell.net), sizes up to 70, "
    "categories english, american, british, british_z, canadian, australian; words only; "
    "checked against WordNet 3.0 (Debian package wordnet-base) and cuberef's reviewed "
    "slang list (engine/build/english_slang.txt)"
)
LICENCE = (
    "SCOWL copyright Kevin Atkinson and others; permissive (MIT-like), "
    "see /usr/share/doc/scowl/copyright; WordNet 3.0 Copyright 2006 by Princeton "
    "University, WordNet licence, see /usr/share/doc/wordnet-base/copyright"
)
#: The Debian packages the build reads.
DEBIAN_PACKAGES = ("scowl", wordnet_source.DEBIAN_PACKAGE)
NEEDED = (SCOWL, wordnet_source.WORDNET / "data.noun")

_WORD = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")
#: Real words with no vowel: interjections and Welsh loans that dictionaries list.
VOWELLESS_WORDS = frozenset({"brr", "crwth", "cwm", "cwms", "hmm", "nth", "psst", "sh", "shh"})
#: The classes of word the rulebooks refuse, in the order they are tried.
CLASSES = ("apostrophe", "letters", "slang", "abbreviation", "fragment")
#: How each class was found, for the card and the README.
METHODS = {
    "apostrophe": "SCOWL words written with an apostrophe (its possessives)",
    "letters": "SCOWL words with a capital or a letter outside a-z (café)",
    "abbreviation": "single letters and vowelless entries (but brr, cwm, hmm, nth, psst, "
    "sh, shh), and SCOWL words also in SCOWL's abbreviations that WordNet does not know",
    "fragment": f"pieces of SCOWL's contractions that SCOWL lists as words only above size "
    f"{FRAGMENT_SIZE}",
    "slang": "english_slang.txt (reviewed by hand) and WordNet lemmas every sense of "
    "which is marked slang, colloquial, vulgar or an ethnic slur, with their inflections",
}
_INFLECTIONS = ("s", "es", "ed", "ing", "er", "est")


def is_word(entry: str) -> bool:
    """Whether a SCOWL entry has the shape of a word: letters a-z, a vowel (or one of
    the few real vowelless words).

    >>> [is_word(e) for e in ("cat", "cwm", "kb", "ss", "x", "don't", "Paris")]
    [True, True, False, False, False, False, False]
    """
    if not _WORD.fullmatch(entry):
        return False
    return bool(_VOWEL.search(entry)) or entry in VOWELLESS_WORDS


def read_scowl(
    category: str, folder: Path = SCOWL, sizes: Iterable[int] | None = None
) -> dict[str, int]:
    """Every entry of a SCOWL category in the English spellings, with its smallest size."""
    wanted = set(sizes) if sizes is not None else None
    entries: dict[str, int] = {}
    for path in sorted(folder.glob(f"*-{category}.*")):
        spelling, _, size_text = path.name.partition(f"-{category}.")
        size = int(size_text)
        if spelling not in SPELLINGS or (wanted is not None and size not in wanted):
            continue
        for line in path.read_text(encoding="latin-1").splitlines():
            if line and size < entries.get(line, 100):
                entries[line] = size
    return entries


def slang_list() -> list[str]:
    """The reviewed slang stems of ``english_slang.txt``, one a line (``#`` comments)."""
    text = (resources.files("engine.build") / "english_slang.txt").read_text(encoding="utf-8")
    return [word for line in text.splitlines() if (word := line.split("#", 1)[0].strip())]


@dataclass
class EnglishList:
    """The built list: the words kept, the words refused with their class, the count of
    each class and how many inflections were added."""

    words: set[str] = field(default_factory=set)
    refused: dict[str, str] = field(default_factory=dict)
    excluded: Counter[str] = field(default_factory=Counter)
    added: int = 0
    before: int = 0
    #: How many words of the list as it was before (SCOWL's words of the shape of one)
    #: the classes took out.
    removed: int = 0


def inflected(stems: Iterable[str], candidates: Iterable[str]) -> set[str]:
    """The candidates that are a stem or a stem with a regular ending (``hoons``,
    ``hooned``, ``hooning``; a doubled last letter or ``y`` -> ``i`` allowed).

    >>> sorted(inflected(["hoon", "shonky"], ["hoons", "hooning", "shonkier", "honk"]))
    ['hooning', 'hoons', 'shonkier']
    """
    heads = set(stems)
    found = set()
    for word in candidates:
        if word in heads:
            found.add(word)
            continue
        for ending in _INFLECTIONS:
            if not word.endswith(ending):
                continue
            stem = word[: -len(ending)]
            options = {stem, stem[:-1] if stem[-1:] == stem[-2:-1] else stem}
            if stem.endswith("i"):
                options.add(stem[:-1] + "y")
            if options & heads:
                found.add(word)
                break
    return found


def build(folder: Path = SCOWL, wordnet: WordNet | None = None) -> EnglishList:
    """Sort SCOWL's entries into the words kept and the words refused, with why."""
    wordnet = wordnet or WordNet()
    entries = read_scowl("words", folder, [s for s in range(101) if s <= MAX_SIZE])
    result = EnglishList(before=sum(1 for entry in entries if is_word(entry)))
    plain = [entry for entry in entries if _WORD.fullmatch(entry)]
    abbreviations = _plain(e for e in read_scowl("abbreviations", folder) if e.islower())
    pieces = _fragments(read_scowl("contractions", folder))
    reviewed = set(slang_list())
    marked = {
        lemma
        for lemma, senses in wordnet.senses.items()
        if senses and all(sense.slang for sense in senses)
    }
    heads = reviewed | marked
    slang = {
        word
        for word in inflected(heads, plain)
        if word in reviewed or all(lemma in heads for lemma, _ in wordnet.bases(word))
    }

    def kind(entry: str) -> str | None:
        if "'" in entry:
            return "apostrophe"
        if not _WORD.fullmatch(entry):
            return "letters"
        if entry in slang:  # before the vowelless rule: pwn is slang
            return "slang"
        rare = entries[entry] > FRAGMENT_SIZE
        if not is_word(entry) or (entry in abbreviations and rare and not wordnet.bases(entry)):
            return "abbreviation"
        if entry in pieces and rare:
            return "fragment"
        return None

    for entry in entries:
        refusal = kind(entry)
        if refusal is None:
            result.words.add(entry)
        else:
            result.excluded[refusal] += 1
            result.removed += is_word(entry)
            if _WORD.fullmatch(entry):
                result.refused[entry] = refusal
            elif refusal == "letters" and _WORD.fullmatch(entry.lower()):  # OK, Orstralia
                capitals = "abbreviation" if entry.isupper() else "proper-noun"
                result.refused.setdefault(entry.lower(), capitals)
    for head in reviewed - result.words:  # the review names some SCOWL lacks (coulda)
        result.refused.setdefault(head, "slang")
    _add_inflections(result, read_scowl("words", folder, RARE_SIZES), wordnet, slang)
    _refusals_in_plain_letters(result, folder)
    return result


def _slot(form: str, lemma: str, part: str) -> tuple[str, str, str]:
    """Which inflection of a lemma a form is, by its ending: (lemma, part, ending).

    >>> _slot("acquitted", "acquit", "v"), _slot("geese", "goose", "n")
    (('acquit', 'v', 'ed'), ('goose', 'n', 's'))
    """
    ending = next((e for e in ("ing", "ed", "est", "er") if form.endswith(e)), "s")
    return lemma, part, ending


def _add_inflections(
    result: EnglishList, rare: Iterable[str], wordnet: WordNet, slang: set[str]
) -> None:
    """Add the rarer SCOWL forms that WordNet finds to be an inflection of a word kept,
    but not a second spelling of an inflection the list has already (``acquited`` beside
    ``acquitted``, ``alibies`` beside ``alibis``): SCOWL's larger sizes keep misspellings."""
    filled = {
        _slot(word, lemma, part)
        for word in result.words
        for lemma, part in wordnet.bases(word)
        if lemma != word
    }
    for entry in sorted(rare):
        if entry in result.words or entry in result.refused or not is_word(entry):
            continue
        slots = {
            _slot(entry, lemma, part)
            for lemma, part in wordnet.bases(entry)
            if lemma != entry and lemma in result.words
        }
        if slots and not slots & filled and entry not in slang:
            result.words.add(entry)
            result.added += 1


def _fragments(contractions: Iterable[str]) -> set[str]:
    """What is left of a contraction cut at its apostrophe that may be no word of its
    own: the part before ``n't`` (``ain``, ``isn``, ``don``) and before the poets' ``'er``
    (``ne'er``, ``whene'er``).

    >>> sorted(_fragments(["ain't", "isn't", "we'll", "ne'er", "o'clock"]))
    ['ain', 'isn', 'ne']
    """
    found = set()
    for contraction in contractions:
        word = contraction.lower()
        if word.endswith("n't"):
            found.add(word[:-2])
        elif word.endswith("'er"):
            found.add(word[:-3])
    return {piece for piece in found if len(piece) > 1 and "'" not in piece}


def _plain(entries: Iterable[str]) -> set[str]:
    """Entries as a player writes them without marks: lowercase, no dots or apostrophes
    (a possessive, ``Paris's``, is left out)."""
    return {re.sub(r"[.']", "", entry.lower()) for entry in entries if not entry.endswith("'s")}


def _refusals_in_plain_letters(result: EnglishList, folder: Path) -> None:
    """The words no game allows that a player may write in plain letters: contractions
    without the apostrophe, abbreviations without dots, proper names lowercase."""
    sizes = [size for size in range(101) if size <= MAX_SIZE]
    for category, refusal in (
        ("contractions", "contraction"),
        ("abbreviations", "abbreviation"),
        ("proper-names", "proper-noun"),
        ("upper", "proper-noun"),
    ):
        for word in _plain(read_scowl(category, folder, sizes)):
            if _WORD.fullmatch(word) and word not in result.words:
                result.refused.setdefault(word, refusal)


def build_into(folder: Path, scowl: Path = SCOWL) -> list[str]:
    """Build the English list, write its notes into ``folder/en/`` and return its words."""
    wordnet = WordNet()
    result = build(scowl, wordnet)
    meanings = definitions(result.words, wordnet)
    notes = folder / "en"
    write_refused(notes, result.refused, "en", SOURCE)
    write_table(notes / DEFINITIONS, meanings)
    categories = {
        category: sum(
            1 for entry in read_scowl(category, scowl, range(MAX_SIZE + 1)) if "'s" not in entry
        )
        for category in ("contractions", "abbreviations", "proper-names", "upper")
    }
    card = {
        "lexicon": "en",
        "before": result.before,
        "after": len(result.words),
        "inflections_added": result.added,
        "removed_from_before": result.removed,
        "excluded": [
            {"class": name, "words": result.excluded[name], "method": METHODS[name]}
            for name in CLASSES
        ],
        "scowl_categories_left_out": categories,
        "refused_in_plain_letters": dict(sorted(Counter(result.refused.values()).items())),
        "definitions": len(meanings),
        "definitions_source": wordnet_source.SOURCE,
        "definitions_licence": wordnet_source.LICENCE,
        "source": SOURCE,
        "licence": LICENCE,
    }
    write_card(notes / CARD, card)
    copy_licences(notes, {"scowl": DEBIAN_PACKAGES[0], "wordnet": DEBIAN_PACKAGES[1]})
    return sorted(result.words)
