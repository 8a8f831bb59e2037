"""The English lexicon from SCOWL (Debian ``scowl``), checked against WordNet 3.0
(Debian ``wordnet-base``), GCIDE (Debian ``dict-gcide``), FreeDict's English headwords
(Debian ``dict-freedict-eng-*``: Ding, dicts.info, Wiktionary) and lists reviewed or named.

SCOWL sorts every entry into categories (``words``, ``contractions``,
``abbreviations``, ``proper-names``, ``upper``) and sizes (10 the commonest, 95 the
rarest). The default list takes:

- the ``words`` of sizes up to 70 in every English spelling (english, american, british,
  british_z, canadian, australian) and their variants of levels 1 and 2 (``hewn``,
  ``snuck``, ``donut``, ``foci``); the "seldom used" level 3 where WordNet knows the word
  (``leant``, ``loch``);
- accented entries with their accents dropped, as the cubes spell them (``café`` ->
  ``cafe``);
- clipped words SCOWL files among its abbreviations (``app``, ``stat``, ``prelim``) where
  they have forms of words (``apps``, ``stats``) or dictionaries list them as words
  (``med``, ``bro``): see :func:`_clipped`;
- words of size 80 that WordNet knows as common words (``countertop``), or as a
  capitalised kind of food, plant or animal that is never a name (``merlot``,
  ``siamese``; not ``bolivia``, ``greek``, ``teflon``); and those WordNet does not know,
  nor SCOWL as names, that two dictionaries besides SCOWL list (GCIDE and FreeDict's
  lineages: ``codec``) or that WordNet has naming a kind of their phrase's head, no
  French word (``fava`` of ``fava bean``, ``macular`` of ``macular degeneration``);
- of any size, the interjections a dictionary lists as such (``argh``, ``haha``,
  ``sheesh``, ``yessir``): an interjection is a word (``ah``, ``oops``, ``hmm``).

Then it takes out, in this order, each word counted once under the first class that takes
it (the card and the README give the counts):

- ``apostrophe``: entries written with an apostrophe (SCOWL's possessives, ``cat's``);
- ``letters``: entries with a capital, or a letter that does not fold to a-z;
- ``offensive``: see :func:`offensive_word`, and from size 50 :func:`rare_slur`
  (``kaffir``, ``sheeny``), with their inflections;
- ``slang``: the words of ``english_slang.txt``, reviewed by hand, but those two of
  FreeDict's lineages list and none marks slang, vulgar or derogatory (``nope``, ``thru``);
  the speech run together of ``english_speech.txt`` (``gonna``); and the WordNet lemmas
  every sense of which is marked, one as slang (a colloquialism, ``dressy``, is no slang),
  with their inflections;
- ``abbreviation``: single letters and entries with no vowel (``kb``, ``cs``), but for
  the real vowelless words below; entries SCOWL also lists as abbreviations that WordNet
  does not know (``approx``); and, from size 50, words WordNet writes only in capitals;
- ``proper-noun``: from size 50, words WordNet knows only as names (``poe``, ``vedic``),
  not as a kind of thing (Merlot, Siamese), and that two of FreeDict's lineages do not list
  written small as a plain word (``tilapia``, ``ficus`` count);
- ``prefix``: words GCIDE has only as a prefix (``Multi-``) that WordNet does not know
  and that have no form of their own in SCOWL (``multi``; ``hyper`` has ``hypers``);
- ``fragment``: the pieces of SCOWL's contractions (``ain`` of ``ain't``) that SCOWL
  lists as words only above size 50;
- ``unconfirmed``: from size 60, words no second dictionary lists, neither WordNet nor
  GCIDE nor one of FreeDict's lineages (``stor``, ``gre``), and from size 50 the words of
  WordNet's phrases it does not know alone (``quo``, ``situ``), unless two of FreeDict's
  lineages list them (``biometric``) or WordNet has them naming a kind of their phrase's
  head (``minke whale``, but not a French word before it: ``haute cuisine``); a word
  SCOWL also lists as a name needs two lineages too. Each refused as a proper noun
  where SCOWL lists it as a name, as part of a phrase, as a foreign word where a French
  list has it (``chez``), or left out: so an English word that is also French
  (``thyristor``, ``tatami``) is foreign only where no English dictionary lists it.

Every inflection of a word that stays is in: a SCOWL word of size 80 is added where
WordNet's ``morphy`` finds it to be an inflection of a word that stays.

The words no game allows that a player may still write in plain letters are kept apart,
each with its class, so that the referee can say why: SCOWL's contractions without their
apostrophe (``dont``), abbreviations without their dots (``etc``), proper names and
capitalised words (``paris``, ``monday``), and the classes above.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from engine.build import copy_licences, freedict, gcide
from engine.build import wordnet as wordnet_source
from engine.build.freedict import FreeDict
from engine.build.wordnet import Sense, WordNet, definitions
from engine.lexicon import fold
from engine.notes import CARD, DEFINITIONS, write_card, write_refused, write_table

SCOWL = Path("/usr/share/dict/scowl")
SPELLINGS = ("english", "american", "british", "british_z", "canadian", "australian")
#: SCOWL's variant spellings that dictionaries list beside the main one (``hewn``,
#: ``snuck``, ``donut``, ``foci``): its levels 1 and 2, in each spelling.
VARIANTS = tuple(
    f"{spelling}variant_{level}"
    for spelling in ("", "british_", "canadian_", "australian_")
    for level in (1, 2)
)
#: SCOWL's "seldom used" variants (``leant``, ``loch``): taken where WordNet knows them.
SELDOM = ("variant_3",)
MAX_SIZE = 70
#: SCOWL's sizes above the default's, searched for the inflections of the words kept,
#: and for words WordNet knows as common words (``countertop``, ``merlot``).
RARE_SIZES = (80,)
#: A contraction's piece that SCOWL lists only above this size is taken as that piece.
FRAGMENT_SIZE = 50
#: SCOWL's sizes from which WordNet's word for a word is taken over SCOWL's: a word WordNet
#: knows only as a name (``poe``, ``vedic``) or a phrase's word (``situ``) goes.
RARE = 50
#: SCOWL's sizes from which a word must be known to WordNet or a second dictionary (GCIDE,
#: FreeDict): they hold the strings no dictionary lists (``stor``, ``ert``, ``quo``).
CONFIRM_SIZE = 60
#: How many of FreeDict's lineages must list a word WordNet has only in its phrases, or
#: that SCOWL also lists as a name: one lists ``coli``, ``vitae``, ``sequitur`` or ``kyle``
#: alone, two list ``biometric``, ``squamous``, ``shalom``.
TWO = 2
SOURCE = (
    "SCOWL 2020.12.07 (Debian package scowl, wordlist.aspell.net), sizes up to 70 and "
    "WordNet's common words of size 80, categories english, american, british, british_z, "
    "canadian, australian and their variants of levels 1-2 (3 where WordNet knows them), "
    "accents dropped, clipped words of its abbreviations; checked against WordNet 3.0 "
    "(Debian package wordnet-base), GCIDE 0.48.5 (Debian package dict-gcide), "
    f"{freedict.SOURCE} and cuberef's reviewed slang list (engine/build/english_slang.txt)"
)
LICENCE = (
    "SCOWL copyright Kevin Atkinson and others; permissive (MIT-like), "
    "see /usr/share/doc/scowl/copyright; WordNet 3.0 Copyright 2006 by Princeton "
    "University, WordNet licence, see /usr/share/doc/wordnet-base/copyright; GCIDE "
    "(GPL-3+, consulted only, none of its text is copied); FreeDict's English headwords "
    f"({freedict.LICENCE})"
)
#: The Debian packages the build reads.
DEBIAN_PACKAGES = (
    "scowl",
    wordnet_source.DEBIAN_PACKAGE,
    gcide.DEBIAN_PACKAGE,
    "wfrench",
    *freedict.DEBIAN_PACKAGES,
)
#: A list of French words (Debian ``wfrench``, GPL-2+), to tell a foreign word.
FRENCH = Path("/usr/share/dict/french")
#: The name each source's copyright file is copied under, beside the notes, and its package
#: (FreeDict's packages share two copyright files, one for its own dictionaries, one for
#: WikDict's).
LICENCES = {
    "scowl": "scowl",
    "wordnet": wordnet_source.DEBIAN_PACKAGE,
    "gcide": gcide.DEBIAN_PACKAGE,
    "wfrench": "wfrench",
    "freedict": "dict-freedict-eng-deu",
    "freedict-wikdict": "dict-freedict-eng-fin",
}
NEEDED = (
    SCOWL,
    wordnet_source.WORDNET / "data.noun",
    gcide.DICTD / "gcide.index",
    FRENCH,
    *(freedict.package_file(package) for package in freedict.DEBIAN_PACKAGES),
)

_WORD = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")
#: Real words with no vowel: interjections and Welsh loans that dictionaries list.
VOWELLESS_WORDS = frozenset({"brr", "crwth", "cwm", "cwms", "hmm", "nth", "psst", "sh", "shh"})
#: The classes of word the rulebooks refuse, in the order they are tried.
CLASSES = (
    "apostrophe",
    "letters",
    "offensive",
    "slang",
    "abbreviation",
    "proper-noun",
    "fragment",
    "prefix",
    "unconfirmed",
)
#: How each class was found, for the card and the README.
METHODS = {
    "apostrophe": "SCOWL words written with an apostrophe (its possessives)",
    "letters": "SCOWL words with a capital or a letter that does not fold to a-z",
    "offensive": "WordNet lemmas with a vulgar or slur sense (marked for the word, its "
    "synset or in its gloss; a disparaging term for a people is a slur) every other sense "
    "of which is marked too; or, where better_profanity's list (offensive_words.txt) has "
    "them, whose vulgar, slur or disparaging senses are at least as many as their ordinary "
    "ones (an insult said of a person is none): cunt, gook, coon out, paddy, cock, chink "
    "count; with their inflections",
    "slang": "english_slang.txt (reviewed by hand), but what two FreeDict lineages list and "
    "none marks slang, vulgar or derogatory (nope, thru), english_speech.txt (speech run "
    "together: gonna, wanna) and WordNet lemmas every sense of which is marked, one of them "
    "slang (colloquial is not slang), with their inflections",
    "abbreviation": "single letters and vowelless entries (but brr, cwm, hmm, nth, psst, "
    "sh, shh), SCOWL words also in SCOWL's abbreviations that WordNet does not know, and "
    f"from size {RARE} words WordNet writes only in capitals (ert)",
    "proper-noun": f"from size {RARE}, words every WordNet sense of which is capitalised "
    "and one thing (Poe, Vedic), none a kind of thing (English), and that no two FreeDict "
    "lineages list written small as a plain word (tilapia, ficus count)",
    "fragment": f"pieces of SCOWL's contractions that SCOWL lists as words only above size "
    f"{FRAGMENT_SIZE}",
    "prefix": "SCOWL words GCIDE has only as a prefix (Multi-), unknown to WordNet and "
    "with no form of their own in SCOWL (multi, paleo; hyper has hypers, uni has unis)",
    "unconfirmed": f"SCOWL words of size {CONFIRM_SIZE} or more that neither WordNet nor "
    "GCIDE knows, nor made of words they know (relatable, groundwater), and from size "
    f"{RARE} the words of WordNet's phrases it does not know alone: each refused as a "
    "proper noun (in SCOWL's names), part of a phrase (quo, situ), a foreign word (in "
    "wfrench's list: oui) or left out",
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
    category: str,
    folder: Path = SCOWL,
    sizes: Iterable[int] | None = None,
    spellings: Iterable[str] = SPELLINGS,
) -> dict[str, int]:
    """Every entry of a SCOWL category in the given spellings, with its smallest size;
    an entry written small with accents is taken as the cubes spell it (``café`` ->
    ``cafe``)."""
    wanted = set(sizes) if sizes is not None else None
    chosen = set(spellings)
    entries: dict[str, int] = {}
    for path in sorted(folder.glob(f"*-{category}.*")):
        spelling, _, size_text = path.name.partition(f"-{category}.")
        size = int(size_text)
        if spelling not in chosen or (wanted is not None and size not in wanted):
            continue
        for line in path.read_bytes().decode("utf-8", "replace").splitlines():
            entry = unaccented(line)
            if entry and size < entries.get(entry, 100):
                entries[entry] = size
    return entries


def unaccented(entry: str) -> str:
    """A lowercase entry with its accents dropped, where that leaves letters a-z.

    >>> unaccented("café"), unaccented("jalapeño"), unaccented("Ångström"), unaccented("cat")
    ('cafe', 'jalapeno', 'Ångström', 'cat')
    """
    if entry.islower() and not entry.isascii():
        folded = fold(entry)
        if _WORD.fullmatch(folded.replace("'", "")):
            return folded
    return entry


def slang_list() -> list[str]:
    """The reviewed slang stems of ``english_slang.txt`` and ``english_speech.txt``, one a
    line (``#`` comments)."""
    return word_list("english_slang.txt") + speech_list()


def speech_list() -> list[str]:
    """Speech respelt, several words run together (``gonna``): slang however dictionaries
    mark it."""
    return word_list("english_speech.txt")


def word_list(name: str) -> list[str]:
    """A word list of this folder, one word a line (``#`` comments)."""
    text = (resources.files("engine.build") / name).read_text(encoding="utf-8")
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


def build(
    folder: Path = SCOWL,
    wordnet: WordNet | None = None,
    current: set[str] | None = None,
    foreign: set[str] | None = None,
    prefixed: set[str] | None = None,
    dictionaries: FreeDict | None = None,
) -> EnglishList:
    """Sort SCOWL's entries into the words kept and the words refused, with why.

    ``current`` is GCIDE's words in present use, ``foreign`` a list of French words and
    ``prefixed`` GCIDE's prefixes and ``dictionaries`` FreeDict's English headwords (read
    from their Debian packages when not given)."""
    wordnet = wordnet or WordNet()
    dictionaries = dictionaries or FreeDict()
    current = gcide.current_words() if current is None else current
    foreign = _french() if foreign is None else foreign
    sizes = [s for s in range(101) if s <= MAX_SIZE]
    entries = read_scowl("words", folder, sizes, SPELLINGS + VARIANTS)
    for entry, size in read_scowl("words", folder, sizes, SELDOM).items():
        if entry not in entries and wordnet.common(entry):
            entries[entry] = size
    clipped = _clipped(folder, entries, wordnet, dictionaries)
    for entry in clipped:
        entries.setdefault(entry, MAX_SIZE)
    names = _plain(
        entry
        for category in ("proper-names", "upper")
        for entry in read_scowl(category, folder, range(101))
    )
    prefixes = gcide.prefixes(gcide.DICTD) if prefixed is None else prefixed
    for entry in read_scowl("words", folder, RARE_SIZES):
        first = wordnet.commonest(entry)
        if entry in entries or not _WORD.fullmatch(entry):
            continue
        if first is None and not wordnet.bases(entry) and entry not in names | prefixes:
            listing = len(dictionaries.sources.get(entry, ())) + (entry in current)
            if listing >= TWO or (wordnet.modifier(entry) and entry not in foreign):
                entries[entry] = RARE_SIZES[0]
            continue
        if first is None:
            continue
        if wordnet.capitalised_common(entry) or (
            not wordnet.people(entry)
            and (not first.proper or (first.common and entry not in names))
        ):
            entries[entry] = RARE_SIZES[0]  # countertop, lockdown, merlot; not bolivia, greek
    every_size = read_scowl("words", folder)
    for entry, size in every_size.items():  # argh, haha, sheesh: words
        if entry not in entries and entry in dictionaries.interjections and entry not in names:
            entries[entry] = size
    result = EnglishList(before=sum(1 for entry in entries if is_word(entry)))
    plain = [entry for entry in entries if _WORD.fullmatch(entry)]
    clipped = inflected(clipped, plain)  # a clipped word and its forms alike: app, apps
    abbreviations = _plain(e for e in read_scowl("abbreviations", folder) if e.islower())
    pieces = _fragments(read_scowl("contractions", folder))
    phrases = wordnet.phrase_words

    def formed(entry: str) -> bool:  # a word has forms of its own: hypers, unis
        return any(entry + ending in every_size for ending in _INFLECTIONS)

    # A reviewed word that dictionaries list with no mark of slang is a word (nope, thru),
    # but for speech run together (gonna, wanna): a contraction without its apostrophe.
    speech = set(speech_list())
    reviewed = {
        word for word in slang_list() if word in speech or not dictionaries.plain_word(word, TWO)
    }
    offensive_heads = _marked_heads(wordnet, offensive=True) | {
        entry for entry, size in entries.items() if size >= RARE and rare_slur(wordnet, entry)
    }
    slang_heads = reviewed | _marked_heads(wordnet, offensive=False)
    offensive = _forms(offensive_heads, plain, wordnet)
    slang = _forms(slang_heads, plain, wordnet, reviewed)

    def kind(entry: str) -> str | None:
        if "'" in entry:
            return "apostrophe"
        if not _WORD.fullmatch(entry):
            return "letters"
        if entry in offensive:
            return "offensive"
        if entry in slang:  # before the vowelless rule: pwn is slang
            return "slang"
        rare = entries[entry] > FRAGMENT_SIZE
        if not is_word(entry) or (
            entry in abbreviations and rare and not wordnet.bases(entry) and entry not in clipped
        ):
            return "abbreviation"
        if (  # a name only, unless dictionaries list it written small (tilapia)
            entries[entry] >= RARE
            and wordnet.named(entry)
            and not dictionaries.plain_word(entry, TWO)
        ):
            return "abbreviation" if _capitals(entry, wordnet) else "proper-noun"
        if entry in pieces and rare:
            return "fragment"
        if entry in prefixes and not (wordnet.bases(entry) or entry in current or formed(entry)):
            return "prefix"
        if not (wordnet.bases(entry) or _current(entry) or entry in clipped) and (
            entries[entry] >= CONFIRM_SIZE or (entry in phrases and entries[entry] >= RARE)
        ):
            return "unconfirmed"
        return None

    def listed(entry: str) -> bool:  # a dictionary besides WordNet lists it
        if entry in current:
            return True
        if entry in phrases:  # WordNet has it only in its phrases: quo, situ, coli
            return dictionaries.listed(entry, TWO) or (
                wordnet.modifier(entry) and entry not in foreign
            )
        return dictionaries.listed(entry, TWO if entry in names else 1)  # kyle, willie

    known = {entry for entry, size in entries.items() if size < CONFIRM_SIZE} | current
    known |= {word for word in dictionaries.sources if listed(word)}

    def _current(entry: str) -> bool:
        return listed(entry) or derived(entry, lambda w: w != entry and w in known, wordnet)

    for entry in entries:
        refusal = kind(entry)
        if refusal is None:
            result.words.add(entry)
            continue
        result.excluded[refusal] += 1
        result.removed += is_word(entry)
        if refusal == "unconfirmed":
            why = _unconfirmed(entry, names, phrases, foreign)
            if why:
                result.refused[entry] = why
        elif _WORD.fullmatch(entry):
            result.refused[entry] = refusal
        elif refusal == "letters" and _WORD.fullmatch(entry.lower()):  # OK, Orstralia
            capitals = "abbreviation" if entry.isupper() else "proper-noun"
            result.refused.setdefault(entry.lower(), capitals)
    for head in reviewed - result.words:  # the review names some SCOWL lacks (coulda)
        result.refused.setdefault(head, "slang")
    rare_forms = read_scowl("words", folder, RARE_SIZES)
    marked = {word: "slang" for word in slang} | {word: "offensive" for word in offensive}
    _add_inflections(result, rare_forms, wordnet, marked)
    _refusals_in_plain_letters(result, folder)
    for entry in rare_forms:  # mens of mens rea: WordNet has it only as a phrase's word
        if entry in result.words or entry not in phrases or not _WORD.fullmatch(entry):
            continue
        if entry in wordnet.senses:
            continue
        if entry not in current and (_form_of_form(entry, wordnet) or not _current(entry)):
            result.refused.setdefault(entry, "proper-noun" if entry in names else "phrase")
    return result


#: Endings and beginnings that make a word of a word (``relatable``, ``genomic``,
#: ``viewership``, ``nonstick``).
SUFFIXES = (
    "s", "es", "ed", "ing", "er", "ers", "est", "al", "ally", "ic", "able", "ship", "ness",
    "less", "ful", "ly", "ism", "ist", "ists", "ize", "ise", "ity", "ment", "y",
)  # fmt: skip
PREFIXES = (
    "un", "re", "non", "pre", "over", "under", "anti", "co", "de", "dis", "mis", "micro",
    "mega", "mini", "post", "sub", "super", "inter", "out", "up",
)  # fmt: skip
#: The shortest word a compound or a derived word is made of.
SHORTEST_PART = 3


def derived(word: str, known: Callable[[str], bool], wordnet: WordNet) -> bool:
    """Whether a word is made of known words: a known word, or one with a regular ending
    or beginning (``relate`` + ``able``, ``genome`` + ``ic``), or two of them written as
    one (``ground`` + ``water``, ``film`` + ``making``), each part of three letters or more.

    >>> w = WordNet.__new__(WordNet)
    >>> w.senses, w.exceptions = {}, {part: {} for part in "nvar"}
    >>> words = {"relate", "genome", "ground", "water", "film", "make", "view", "viewer"}
    >>> [derived(x, words.__contains__, w) for x in
    ...  ("relatable", "genomic", "groundwater", "filmmaking", "viewership", "stor", "gre")]
    [True, True, True, True, True, False, False]
    """

    def word_of(part: str) -> bool:
        return len(part) >= SHORTEST_PART and (known(part) or bool(wordnet.bases(part)))

    def affixed(part: str) -> bool:
        if word_of(part):
            return True
        for ending in SUFFIXES:
            stem = part[: -len(ending)]
            if part.endswith(ending) and len(stem) >= SHORTEST_PART:
                doubled = stem[:-1] if stem[-1:] == stem[-2:-1] else stem
                if any(word_of(s) for s in (stem, stem + "e", doubled, stem[:-1] + "y")):
                    return True
        return any(part.startswith(start) and word_of(part[len(start) :]) for start in PREFIXES)

    if affixed(word):
        return True
    return any(
        word_of(word[:cut]) and affixed(word[cut:])
        for cut in range(SHORTEST_PART, len(word) - SHORTEST_PART + 1)
    )


def offensive_word(senses: list[Sense], listed: bool) -> bool:
    """The rule for an offensive word, from its WordNet senses and whether
    better_profanity's list (``offensive_words.txt``) has it: either WordNet marks a sense
    of it vulgar or a slur and every other sense marked too (``fuck``), or the list has it
    and its senses WordNet marks vulgar, a slur or disparaging are at least as many as its
    ordinary ones (see
    :attr:`Sense.ordinary`: an insult said of a person is none): ``cunt``, ``gook``,
    ``coon`` are offensive; ``paddy``, ``cock``, ``queer``, ``chink``, with more senses
    of rice fields, taps and cracks than offensive ones, count."""
    if any(sense.offensive for sense in senses) and all(
        sense.marked or sense.offensive for sense in senses
    ):
        return True
    hurtful = sum(sense.disparaging for sense in senses)
    return listed and hurtful > 0 and hurtful >= sum(sense.ordinary for sense in senses)


def rare_slur(wordnet: WordNet, word: str) -> bool:
    """Whether a word's senses that are slurs on a people are at least as many as its
    ordinary ones: offensive where SCOWL lists it only from size 50, a rare word whose
    slur is what a player means by it (``kaffir``, ``sheeny``: their sorghum and their
    shine are the rarer words), where a common word's ordinary senses are in use
    (``taco``, ``paddy``, ``chink`` count)."""
    senses = wordnet.senses.get(word, [])
    slurs = sum(sense.slur for sense in senses)
    return slurs > 0 and slurs >= sum(sense.ordinary for sense in senses)


def _marked_heads(wordnet: WordNet, offensive: bool) -> set[str]:
    """The WordNet lemmas that are slang: every sense marked (slang, colloquial), one of
    them slang, none offensive. Or (``offensive``) offensive: see :func:`offensive_word`."""
    listed = set(word_list("offensive_words.txt")) if offensive else set()
    heads = set()
    for lemma, senses in wordnet.senses.items():
        if not senses or "_" in lemma:
            continue
        every = all(s.marked or s.offensive for s in senses)
        if offensive:
            if offensive_word(senses, lemma in listed):
                heads.add(lemma)
        elif every and any(s.slang for s in senses) and not any(s.offensive for s in senses):
            heads.add(lemma)
    return heads


def _forms(
    heads: set[str], plain: Iterable[str], wordnet: WordNet, reviewed: Iterable[str] = ()
) -> set[str]:
    """The candidates that are a head or its inflection, and nothing else as well (or
    are one of the ``reviewed`` heads); and the plurals WordNet does not know of those
    inflections, as a form of a form is ruled as its word is (``bullshitters`` of
    ``bullshitter``, of ``bullshit``)."""
    reviewed = set(reviewed)
    candidates = set(plain)
    found = {
        word
        for word in inflected(heads, candidates)
        if word in reviewed or all(lemma in heads for lemma, _ in wordnet.bases(word))
    }
    plurals = {word + "s" for word in found - heads} & candidates
    return found | {word for word in plurals if not wordnet.bases(word)}


def _form_of_form(entry: str, wordnet: WordNet) -> bool:
    """Whether an entry is WordNet's only as an inflection of a form that is itself an
    irregular inflection (``mens`` of ``men``, of ``man``): no word's form."""
    lemmas = {lemma for lemma, _ in wordnet.bases(entry) if lemma != entry}
    return bool(lemmas) and all(
        any(lemma in forms for forms in wordnet.exceptions.values()) for lemma in lemmas
    )


def _lowercase(entry: str, wordnet: WordNet) -> bool:
    """Whether some lemma the entry is a form of has a sense written small."""
    return any(
        not sense.proper for lemma, _ in wordnet.bases(entry) for sense in wordnet.senses[lemma]
    )


def _capitals(entry: str, wordnet: WordNet) -> bool:
    """Whether WordNet writes every sense of the lemmas of an entry in capitals (``ERT``)."""
    return all(
        sense.spelt.isupper()
        for lemma, _ in wordnet.bases(entry)
        for sense in wordnet.senses[lemma]
    )


def _unconfirmed(entry: str, names: set[str], phrases: set[str], foreign: set[str]) -> str:
    """Why a word no dictionary confirms is no word: a proper noun (SCOWL lists it as a
    name), part of a phrase (a word of one of WordNet's phrases: ``quo`` of ``status
    quo``), a foreign word (in a French word list: ``oui``), or no reason to give."""
    if entry in names:
        return "proper-noun"
    if entry in phrases:
        return "phrase"
    if entry in foreign:
        return "foreign"
    return ""


def _clipped(
    folder: Path, entries: dict[str, int], wordnet: WordNet, dictionaries: FreeDict
) -> set[str]:
    """SCOWL's abbreviations (sizes up to 70) that are clipped words of their own, as a
    word has forms and an abbreviation (``etc``, ``approx``) has none: written small, with
    a vowel, and either known to WordNet as a common word with a form among SCOWL's words
    (``morph`` and ``morphed``, ``maths`` and ``math``, ``prelim`` and ``prelims``; ``ab``
    and ``abs``, ``el`` and ``els``, ``li`` and ``lis``: two letters as a word and its
    forms are ruled alike) or, of three letters or more, unknown to WordNet with a plural
    among SCOWL's words that WordNet does not know either (``app`` and ``apps``, ``stat``
    and ``stats``), or listed as a plain word by two of FreeDict's lineages, none of which
    spells it out as an initialism (``med``, ``admin``, ``bro``; not ``aka``, "also known
    as"), with its plural where SCOWL has one (``bros``)."""
    abbreviations = read_scowl("abbreviations", folder, range(MAX_SIZE + 1))
    found = set()
    for entry in abbreviations:
        if not (_WORD.fullmatch(entry) and len(entry) >= 2 and is_word(entry)):
            continue
        if _lowercase(entry, wordnet) and any(lemma != entry for lemma, _ in wordnet.bases(entry)):
            found.add(entry)  # itself a form of a common word: abs of ab
        elif _lowercase(entry, wordnet):
            forms = {entry + "s", entry + "es", entry + "ed", entry + "ing", entry[:-1]}
            if any(form in entries for form in forms if form != entry[:-1] or entry[-1] == "s"):
                found.add(entry)
        elif (
            len(entry) >= 3
            and entry + "s" in entries
            and not wordnet.bases(entry) | wordnet.bases(entry + "s")
        ):
            found.add(entry)
        elif len(entry) >= 3 and dictionaries.plain_word(entry, TWO):
            found.add(entry)
            if entry + "s" in abbreviations:
                found.add(entry + "s")
    return found


def _french() -> set[str]:
    return set(FRENCH.read_text(encoding="utf-8").split())


def _slot(form: str, lemma: str, part: str) -> tuple[str, str, str]:
    """Which inflection of a lemma a form is, by its ending: (lemma, part, ending).

    >>> _slot("acquitted", "acquit", "v"), _slot("geese", "goose", "n")
    (('acquit', 'v', 'ed'), ('goose', 'n', 's'))
    """
    ending = next((e for e in ("ing", "ed", "est", "er") if form.endswith(e)), "s")
    return lemma, part, ending


def _add_inflections(
    result: EnglishList, rare: Iterable[str], wordnet: WordNet, marked: dict[str, str]
) -> None:
    """Add the rarer SCOWL forms that WordNet finds to be an inflection of a word kept,
    but not a second spelling of an inflection the list has already (``acquited`` beside
    ``acquitted``, ``alibies`` beside ``alibis``): SCOWL's larger sizes keep misspellings;
    nor a form of a form (``mens`` of ``men``, itself the plural of ``man``). A form
    ``marked`` slang or offensive is refused as its word is."""
    filled = {
        _slot(word, lemma, part)
        for word in result.words
        for lemma, part in wordnet.bases(word)
        if lemma != word
    }
    for entry in sorted(rare):
        if entry in result.words or entry in result.refused or not is_word(entry):
            continue
        heads = {
            lemma
            for lemma, part in wordnet.bases(entry)
            if lemma != entry and lemma not in wordnet.exceptions[part]
        }
        refusals = {result.refused.get(head) for head in heads}
        if heads and refusals <= {"offensive", "slang"}:  # shikses, of shiksa
            result.refused[entry] = "offensive" if "offensive" in refusals else "slang"
            continue
        slots = {
            _slot(entry, lemma, part)
            for lemma, part in wordnet.bases(entry)
            if lemma != entry and lemma in result.words and lemma not in wordnet.exceptions[part]
        }
        if slots and not slots & filled and entry in marked:
            result.refused.setdefault(entry, marked[entry])
        elif slots and not slots & filled:
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
        "confirmed_by": f"{gcide.SOURCE}; {gcide.LICENCE}; {freedict.SOURCE}; {freedict.LICENCE}",
        "foreign_words_from": "wfrench (Debian package wfrench, GPL-2+), the French list",
        "source": SOURCE,
        "licence": LICENCE,
    }
    write_card(notes / CARD, card)
    copy_licences(notes, LICENCES)
    return sorted(result.words)
