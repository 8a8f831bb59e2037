"""The Czech lexicon: every inflected form of the Czech hunspell dictionary.

The Debian package ``hunspell-cs`` ships ``cs_CZ.dic`` (about 261,000 stems with affix
flags) and ``cs_CZ.aff`` (the declension, conjugation, ``ne-``/``nej-`` and comparison
rules). :mod:`engine.build.hunspell` expands every stem through those rules; this
module keeps what a word game counts as a word:

- lowercase forms only: a capitalised stem is a proper name (``Praha``, ``Novák``) and
  an all-capital one an abbreviation (``AACR``), so every form of them goes;
- letters of the Czech alphabet only (diacritics kept): anything with a digit, a dot
  (``atd.``), a hyphen or a foreign letter (``ü``, ``ľ``) goes;
- a word with no vowel and no ``r`` or ``l`` (which can carry a Czech syllable, as in
  ``vlk``, ``smrt``) is an abbreviation written small (``km``, ``kg``, ``tbc``) and goes;
- words the dictionary marks ``FORBIDDENWORD`` go;
- every form of an offensive stem goes: see :func:`offensive`.

A name's or an abbreviation's forms written small (``praha``, ``km``) are kept apart as
refused, with their class, so the referee can say why (an offensive word's forms too).
What hunspell-cs cannot tell: it has no parts of speech, so Czech Boggle's rule that
interjections count only in their commonest forms cannot be kept (every interjection it
lists counts), and no slang or foreign-word marks; and it has no meanings, so there are
no Czech definitions.

>>> keep("kočkami"), keep("Praha"), keep("atd."), keep("km"), keep("smrt"), keep("müsli")
(True, False, False, False, True, False)
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from pathlib import Path

from engine.build import copy_licences, freedict
from engine.build import wordnet as wordnet_source
from engine.build.english import rare_slur
from engine.build.hunspell import AffixFile, expand, parse_entry, read_dic
from engine.build.wordnet import WordNet
from engine.notes import CARD, DEFINITIONS, write_card, write_refused

HUNSPELL = Path("/usr/share/hunspell")
DEBIAN_PACKAGES = ("hunspell-cs", freedict.CZECH_PACKAGE, wordnet_source.DEBIAN_PACKAGE)
NEEDED = (
    HUNSPELL / "cs_CZ.dic",
    freedict.CZECH_DICTIONARY,
    wordnet_source.WORDNET / "data.noun",
)
#: LDNOOBW's Czech list (``czech_offensive_words.txt`` beside this module).
OFFENSIVE_LIST = "czech_offensive_words.txt"
OFFENSIVE_SOURCE = "LDNOOBW's Czech list (npm package naughty-words 1.2.0, cs.json)"
SOURCE = (
    "hunspell-cs 1:7.5.0-1 (Debian package hunspell-cs, cs_CZ.dic and cs_CZ.aff from "
    "LibreOffice dictionaries 7.5.0), every lowercase form expanded through its affix rules; "
    f"offensive words taken out where {OFFENSIVE_SOURCE} has them and {freedict.CZECH_SOURCE} "
    "marks them vulgar or obscene, and slurs where FreeDict marks vulgar the translation of "
    "an English word WordNet 3.0 (Debian package wordnet-base) has as a slur"
)
LICENCE = (
    "GPL-2: cs_CZ dictionary copyright 2003 Pavel Janík <Pavel@Janik.cz>, "
    "see /usr/share/doc/hunspell-cs/copyright"
)

CZECH_LETTERS = "aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž"
#: Why a Czech word has no definition on the box.
NO_DEFINITIONS = (
    "cuberef has no Czech definitions: it knows no licensed Czech dictionary of meanings "
    "it could ship"
)
#: What hunspell-cs cannot tell apart, so the list cannot keep the rule.
CANNOT_TELL = (
    "hunspell-cs marks no part of speech, so the list cannot keep Czech Boggle's rule that "
    "interjections count only in their most common forms: every interjection hunspell-cs "
    "has (jé, hurá, hyjé) counts; nor can it tell slang or foreign words from others. "
    "Offensive words are refused only where two sources agree, so a vulgar word that one "
    "of them lacks still counts (kurva, zmrd)"
)
_WORD = re.compile(f"[{CZECH_LETTERS}]+")
_SYLLABLE = re.compile("[aáeéěiíoóuúůyýrl]")


def keep(word: str) -> bool:
    """Whether a form of the dictionary is a word for the game."""
    return _WORD.fullmatch(word) is not None and _SYLLABLE.search(word) is not None


def offensive(
    forms: set[str], listed: set[str], marked: set[str], slurred: frozenset[str] = frozenset()
) -> bool:
    """The rule for an offensive stem, from its forms: LDNOOBW's Czech list has one of
    them and FreeDict gives one of them for a sense it marks vulgar or obscene. Either
    alone is not enough: the list has ``žrát`` (to eat, of an animal) and ``píchat`` (to
    prick), FreeDict gives ``kráva`` (cow) and ``vagína`` for English vulgar senses. Or
    one of them is a slur (``slurred``, see :func:`slurs`).

    >>> listed, marked = {"hovno", "žrát"}, {"hovna", "kráva"}
    >>> offensive({"hovno", "hovna"}, listed, marked), offensive({"žrát"}, listed, marked)
    (True, False)
    >>> offensive({"negr", "negři"}, listed, marked, frozenset({"negr"}))
    True
    """
    if not forms.isdisjoint(slurred):
        return True
    return not forms.isdisjoint(listed) and not forms.isdisjoint(marked)


def slurs(translations: dict[str, set[str]], wordnet: WordNet) -> frozenset[str]:
    """The Czech slurs: the words FreeDict gives, marking them vulgar, for an English word
    whose senses that are slurs on a people are as many as its ordinary ones (WordNet's,
    the English list's :func:`~engine.build.english.rare_slur`): ``nigger`` -> ``negr``.
    Two sources agree here too, FreeDict's mark and WordNet's slur; the vulgar words of
    ``pussy`` (``vagína``, ``pochva``) are no slurs."""
    return frozenset(
        czech for head, words in translations.items() if rare_slur(wordnet, head) for czech in words
    )


def offensive_list() -> set[str]:
    """LDNOOBW's Czech words, one a line (``#`` comments)."""
    text = (resources.files("engine.build") / OFFENSIVE_LIST).read_text(encoding="utf-8")
    return {word for line in text.splitlines() if (word := line.split("#", 1)[0].strip())}


def build(
    folder: Path = HUNSPELL,
    vulgar: set[str] | None = None,
    slurred: frozenset[str] | None = None,
) -> tuple[set[str], dict[str, str], dict[str, int]]:
    """Every Czech word form, each once; the forms refused that a player may write in
    small letters, with their class (a name: ``praha``; an abbreviation: ``km``, ``aacr``;
    offensive: ``hovno``); and how many stems each rule took out. ``vulgar``: the words
    FreeDict marks vulgar, ``slurred`` the slurs (:func:`slurs`; both read from their
    sources when not given)."""
    aff = AffixFile.read(folder / "cs_CZ.aff")
    listed = offensive_list()
    marked = freedict.vulgar_words() if vulgar is None else vulgar
    if slurred is None:
        slurred = slurs(freedict.marked_translations(), WordNet())
    seen: set[str] = set()
    forbidden: set[str] = set()
    foul: set[str] = set()
    refused: dict[str, str] = {}
    stems: Counter[str] = Counter()
    for line in read_dic(folder / "cs_CZ.dic", aff):
        stem, flags = parse_entry(line, aff)
        if aff.forbidden is not None and aff.forbidden in flags:
            forbidden.add(stem)
            stems["forbidden"] += 1
        elif stem[:1].islower():
            forms = set(expand(stem, flags, aff))
            if offensive(forms, listed, marked, slurred):
                stems["offensive"] += 1
                foul.update(word for word in forms if keep(word))
                continue
            seen.update(word for word in forms if keep(word))
            for word in forms:
                if _WORD.fullmatch(word) and not _SYLLABLE.search(word):
                    refused[word] = "abbreviation"
        else:  # capitalised stems are names, upper-case ones abbreviations
            refusal = "abbreviation" if stem.isupper() and len(stem) > 1 else "proper-noun"
            stems[refusal] += 1
            for word in expand(stem, flags, aff):
                if _WORD.fullmatch(word.lower()):
                    refused.setdefault(word.lower(), refusal)
    words = seen - forbidden
    words |= second_forms(words) | variant_spellings(words)
    refused.update((word, "offensive") for word in foul - words)  # a form of no other word
    return words, {w: why for w, why in refused.items() if w not in words}, dict(stems)


#: The soft consonants after which a verb of the ``-e-`` class has two standard first
#: persons singular and third persons plural: ``dokážu``/``dokáži``, ``dokážou``/``dokáží``.
SOFT = "žščřc"
#: Spellings the Czech rules give both of (Pravidla českého pravopisu): ``filozofie`` and
#: ``filosofie``, ``teozofie`` and ``teosofie``.
VARIANTS = (("zof", "sof"),)


def second_forms(words: set[str]) -> set[str]:
    """The ``-í``/``-i`` forms of the verbs whose ``-ou``/``-u`` forms the dictionary has
    (hunspell-cs lists only ``dokážou``, ``dokážu``): a form after a soft consonant whose
    stem also takes ``-eš`` and ``-e`` (a verb, not ``lóžou`` of a noun).

    >>> sorted(second_forms({"dokážou", "dokážu", "dokážeš", "dokáže", "lóžou"}))
    ['dokáži', 'dokáží']
    """
    found = set()
    for word in words:
        if word.endswith("ou") and word[-3:-2] in SOFT and len(word) > 3:
            stem, other = word[:-2], "í"
        elif word.endswith("u") and word[-2:-1] in SOFT and len(word) > 2:
            stem, other = word[:-1], "i"
        else:
            continue
        if stem + "eš" in words and stem + "e" in words:
            found.add(stem + other)
    return found - words


def variant_spellings(words: set[str]) -> set[str]:
    """Each word in the other spelling the rules allow (``filozofie`` -> ``filosofie``).

    >>> sorted(variant_spellings({"filozofie", "filozofický", "kočka"}))
    ['filosofický', 'filosofie']
    """
    return {
        word.replace(one, other) for word in words for one, other in VARIANTS if one in word
    } - words


def build_into(folder: Path, source: Path = HUNSPELL) -> list[str]:
    """Build the Czech list, write its notes into ``folder/cs/`` and return its words."""
    words, refused, stems = build(source)
    notes = folder / "cs"
    write_refused(notes, refused, "cs", SOURCE)
    (notes / DEFINITIONS).unlink(missing_ok=True)
    card = {
        "lexicon": "cs",
        "words": len(words),
        "stems_left_out": stems,
        "refused_in_plain_letters": dict(sorted(Counter(refused.values()).items())),
        "definitions": 0,
        "definitions_note": NO_DEFINITIONS,
        "cannot_tell": CANNOT_TELL,
        "offensive_sources": f"{OFFENSIVE_SOURCE}, CC-BY-4.0; {freedict.CZECH_SOURCE}, "
        f"{freedict.CZECH_LICENCE}",
        "source": SOURCE,
        "licence": LICENCE,
    }
    write_card(notes / CARD, card)
    copy_licences(notes, {"hunspell-cs": DEBIAN_PACKAGES[0], "freedict": freedict.CZECH_PACKAGE})
    return sorted(words)
