"""WordNet 3.0's database files (Debian package ``wordnet-base``): lemmas, inflections,
senses and glosses.

The index files give each lemma's senses, most frequent first; the data files give
each sense's synset: its words as they are written (``Paris``, ``cat``), its pointers
and its gloss. A usage-domain pointer (``;u``) says a sense is slang, colloquial,
vulgar...: where it names one word of the synset it marks that word, where it names
the whole synset (``0000``) it marks every word only when the synset has one word
(WordNet puts ``surely``, ``certainly`` and the colloquial ``sure`` in one synset
marked colloquial as a whole).

Inflected forms are found the way WordNet's own ``morphy`` finds them: the exception
lists (``noun.exc``: ``geese goose``) and then its detachment rules (``-ies`` -> ``-y``,
``-ed`` -> ``-e`` or nothing...), each kept only where it lands on a lemma of that part
of speech.

>>> rules = dict(DETACHMENTS)
>>> rules["v"][:3]
(('s', ''), ('ies', 'y'), ('es', 'e'))
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
DEBIAN_PACKAGE = "wordnet-base"
SOURCE = "WordNet 3.0 (Debian package wordnet-base 1:3.0-37, Princeton University)"
LICENCE = (
    "WordNet 3.0 licence (permissive, BSD-like): WordNet 3.0 Copyright 2006 by Princeton "
    "University, see /usr/share/doc/wordnet-base/copyright"
)
#: Part of speech letter -> the file names' word.
PARTS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
PART_NAMES = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}
#: morphy's detachment rules: (ending, replacement) by part of speech.
DETACHMENTS = (
    ("n", (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
           ("men", "man"), ("ies", "y"))),
    ("v", (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
           ("ing", "e"), ("ing", ""))),
    ("a", (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))),
    ("r", ()),
)  # fmt: skip
#: The usage domain that makes a sense slang: "slang, cant, jargon, lingo, argot". A
#: colloquialism ("07075172": dressy, geezer) is informal, not slang: it counts.
SLANG_DOMAINS = frozenset({"07157273"})
COLLOQUIAL = "07075172"
#: The usage domains that make a sense offensive: "obscenity, smut, vulgarism" and
#: "ethnic slur".
ETHNIC_SLUR = "06718862"
OFFENSIVE_DOMAINS = frozenset({"07124340", ETHNIC_SLUR})
#: "Disparagement" (``queer``'s, ``hillbilly``'s): offensive only where a second source
#: says the word is (see engine/build/english.py).
DISPARAGING = "06717170"
#: A disparaging sense is a slur where its gloss names a people: "a disparaging term for
#: a British person" (``pom``), not "for an unsophisticated person" (``hillbilly``).
A_PEOPLE = re.compile(r"\b(terms?|names?) (used )?(by [^;]*? )?(for|to refer to)\b[^;\"]*?\b[A-Z]")
DISPARAGING_GLOSS = re.compile(r"^(\([^)]*\) )*(an? )?(disparaging|derogatory) terms?\b")
#: A gloss that says the word is a slur or obscene: "(ethnic slur) offensive term for",
#: "obscene terms for", "vulgar slang for", "terms of abuse for" (wanker).
OFFENSIVE_GLOSS = re.compile(
    r"^(\([^)]*\) )*(\(ethnic slur\)|\(offensive slang\)"
    r"|(an? |extremely )*(offensive|obscene|vulgar|coarse) "
    r"(terms?|names?|words?|slang|expression)\b|terms? of abuse\b)"
)
#: A gloss that says the sense is an informal way of saying a thing, no ordinary sense
#: of a word: "informal terms referring to a domestic cat" (``pussy``), "intensifier".
INFORMAL_GLOSS = re.compile(r"^(\([^)]*\) )*(informal|slang|intensifier|terms of abuse)\b")
#: WordNet's lexicographer file of the nouns that are kinds of person.
NOUN_PERSON = "18"
#: The lexicographer files of the kinds of thing a capitalised common noun names: an
#: animal's breed, a food or drink, a plant (Siamese, Merlot, Riesling).
THINGS = frozenset({"05", "13", "20"})
TAXON = re.compile(r"\b(genus|class|family|order|phylum|subclass|superorder)\b")
#: The usage domain "trademark" (Teflon).
TRADEMARK = "06851742"
_MARKER = re.compile(r"\([a-z]+\)$")  # adjective position markers: own(a), galore(ip)


@dataclass(frozen=True, slots=True)
class Sense:
    """One sense of a lemma: its part of speech, how the synset writes the word, the
    usage domains that mark it, and the gloss."""

    part: str
    spelt: str
    usage: frozenset[str]
    gloss: str
    #: Whether the synset is a kind of thing (a noun with a hypernym, ``@``: Merlot is
    #: a wine) rather than one thing (an instance, ``@i``: Poe is a writer).
    kind: bool = False
    #: The usage domains that mark the whole synset (``0000``) of several words: the
    #: synset of ``fuck``, ``screw`` and ``nooky`` is marked obscene as a whole.
    shared: frozenset[str] = frozenset()
    #: The synset's lexicographer file (``18``: noun.person).
    file: str = ""
    #: Whether the synset is a member of a taxonomic group or has members (``#m``, ``%m``):
    #: a species, a genus (Ajuga, Zea), where a breed or a wine is neither.
    taxon: bool = False

    @property
    def slang(self) -> bool:
        return bool(self.usage & SLANG_DOMAINS)

    @property
    def offensive(self) -> bool:
        """Whether the sense is vulgar or a slur: marked so, for the word or its whole
        synset, or glossed so."""
        marks = self.usage | self.shared
        if marks & OFFENSIVE_DOMAINS or OFFENSIVE_GLOSS.match(self.gloss):
            return True
        return self._disparages() and A_PEOPLE.search(self.gloss) is not None

    def _disparages(self) -> bool:
        marks = self.usage | self.shared
        return DISPARAGING in marks or DISPARAGING_GLOSS.match(self.gloss) is not None

    @property
    def slur(self) -> bool:
        """Whether the sense is a slur on a people: marked an ethnic slur, or a disparaging
        or offensive term whose gloss names a people (a Jew, any Black African)."""
        return ETHNIC_SLUR in self.usage | self.shared or (
            self.disparaging and A_PEOPLE.search(self.gloss) is not None
        )

    @property
    def person(self) -> bool:
        """Whether the synset is a kind of person: where an insult lies (``twat``'s "a
        stupid incompetent fool"), or a people (a Greek)."""
        return self.part == "n" and self.file == NOUN_PERSON

    @property
    def name(self) -> bool:
        """Whether the sense names one thing: a capitalised noun that is no kind of thing
        (Poe, Bolivia the country)."""
        return self.part == "n" and self.proper and not self.kind

    @property
    def capitalised_thing(self) -> bool:
        """Whether the sense is a capitalised kind of food, plant or animal, no taxonomic
        group nor trademark: a wine, a grape, a breed (Merlot, Siamese cat), where a
        people, a language, a feast, a drug's brand (Greek, Easter, Teflon) are names."""
        return (
            self.part == "n"
            and self.proper
            and self.common
            and self.file in THINGS
            and TRADEMARK not in self.usage | self.shared
            and not self.taxon
            and not TAXON.search(self.gloss)
        )

    @property
    def disparaging(self) -> bool:
        """Whether the sense is offensive or marked disparaging."""
        return self.offensive or self._disparages()

    @property
    def marked(self) -> bool:
        """Whether the sense is marked slang, colloquial or offensive at all."""
        return bool(self.usage & (SLANG_DOMAINS | OFFENSIVE_DOMAINS | {COLLOQUIAL}))

    @property
    def ordinary(self) -> bool:
        """Whether the sense is an ordinary one: unmarked, no insult said of a person, no
        informal way of saying a thing (``paddy``'s rice field, ``cock``'s faucet)."""
        marks = (self.usage | self.shared) & (SLANG_DOMAINS | OFFENSIVE_DOMAINS | {COLLOQUIAL})
        return not (marks or self.disparaging or self.person or INFORMAL_GLOSS.match(self.gloss))

    @property
    def common(self) -> bool:
        """Whether the sense makes the word a common word: written small, or a
        capitalised kind of thing (Merlot, Siamese) rather than a name, an abbreviation
        (ERT) or a genus (Paris, the herb's)."""
        if not self.proper:
            return True
        return self.kind and not self.spelt.isupper() and "genus" not in self.gloss

    @property
    def proper(self) -> bool:
        """Whether the synset writes the word capitalised: a proper noun (``Paris``)."""
        return self.spelt[:1].isupper()


class WordNet:
    """The lemmas, exceptions and senses of a WordNet database folder."""

    def __init__(self, folder: Path = WORDNET) -> None:
        synsets: dict[tuple[str, str], dict[str, Sense]] = {}
        #: Each synset's hypernyms (``@``, ``@i``), by (part of speech, offset).
        self.hypernyms: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for part, name in PARTS.items():
            text = (folder / f"data.{name}").read_text(encoding="latin-1")
            for line in text.splitlines():
                if not line.startswith(" "):
                    offset, words, above = _synset(line, part)
                    synsets[(part, offset)] = words
                    self.hypernyms[(part, offset)] = above
        self.members = {key: set(words) for key, words in synsets.items()}
        #: Each lemma's synsets, most frequent first within each part of speech.
        self.synsets: dict[str, list[tuple[str, str]]] = defaultdict(list)
        #: Lowercase lemma -> its senses, most frequent first within each part of speech.
        self.senses: dict[str, list[Sense]] = defaultdict(list)
        for part, name in PARTS.items():
            for line in (folder / f"index.{name}").read_text(encoding="latin-1").splitlines():
                if line.startswith(" "):
                    continue
                fields = line.split()
                lemma, count = fields[0], int(fields[2])
                for offset in fields[-count:]:
                    sense = synsets[(part, offset)].get(lemma)
                    if sense is not None:
                        self.senses[lemma].append(sense)
                        self.synsets[lemma].append((part, offset))
        self.exceptions: dict[str, dict[str, set[str]]] = {part: defaultdict(set) for part in PARTS}
        for part, name in PARTS.items():
            for line in (folder / f"{name}.exc").read_text(encoding="latin-1").splitlines():
                form, *bases = line.split()
                self.exceptions[part][form].update(bases)

    @property
    def phrase_words(self) -> set[str]:
        """The words of WordNet's lemmas of more than one word (``status_quo``,
        ``vice_versa``)."""
        return {part for lemma in self.senses if "_" in lemma for part in lemma.split("_")}

    def kind_of(self, lemma: str, head: str) -> bool:
        """Whether a sense of a lemma is a kind of thing that the word ``head`` names: the
        head is a word of one of its hypernyms, up to the root (a fava bean is a bean)."""
        seen: set[tuple[str, str]] = set()
        todo = [above for key in self.synsets.get(lemma, ()) for above in self.hypernyms[key]]
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            if head in self.members[key]:
                return True
            todo.extend(self.hypernyms[key])
        return False

    @cached_property
    def compounds(self) -> dict[str, list[str]]:
        """The first word of each lemma of two words -> those lemmas (``fava`` ->
        ``fava_bean``)."""
        found: dict[str, list[str]] = defaultdict(list)
        for lemma in self.senses:
            first, _, second = lemma.partition("_")
            if second and "_" not in second:
                found[first].append(lemma)
        return found

    def modifier(self, word: str) -> bool:
        """Whether WordNet has a word as the first of two words naming a kind of what the
        second names (``fava bean``, ``minke whale``, ``folic acid``): an English
        compound of modifier and head, where a phrase's word (``quo`` of ``status quo``,
        ``situ`` of ``in situ``) qualifies no head."""
        return any(
            self.kind_of(lemma, lemma.partition("_")[2])
            and not all(_named(sense.spelt) for sense in self.senses[lemma])  # Lyme disease
            and not self._clipping(word, lemma)
            for lemma in self.compounds.get(word, ())
        )

    def _clipping(self, word: str, lemma: str) -> bool:
        """Whether a word is, in a lemma's synsets, cut from a longer word of another of
        its lemmas (``sed rate`` beside ``sedimentation rate``)."""
        return any(
            other.split("_", 1)[0].startswith(word) and other.split("_", 1)[0] != word
            for key in self.synsets.get(lemma, ())
            for other in self.members[key]
        )

    def common(self, form: str) -> bool:
        """Whether WordNet knows a form, itself or as an inflection, as a common word: a
        sense written small, or a commonest sense that is a kind of thing (Merlot) where
        the commonest sense of ``einstein`` or ``paris`` is a name and ``Greek`` names a
        people."""
        for lemma, part in self.bases(form):
            senses = [sense for sense in self.senses.get(lemma, ()) if sense.part == part]
            if any(not sense.proper for sense in senses):
                return True
            if senses and senses[0].common and not self.people(lemma):
                return True
        return False

    def capitalised_common(self, lemma: str) -> bool:
        """Whether WordNet has a lemma as a capitalised common noun: a kind of thing that is
        no people, language or trademark (Merlot, Riesling, the Siamese cat), and never a
        name of one thing (Bolivia the country, beside bolivia the card game)."""
        senses = self.senses.get(lemma, ())
        return any(s.capitalised_thing for s in senses) and not any(s.name for s in senses)

    def named(self, form: str) -> bool:
        """Whether WordNet knows a form only as a name: every sense of every lemma it is
        capitalised and one thing (Poe, Vedic), none a kind of thing (English, Merlot)."""
        senses = [sense for lemma, _ in self.bases(form) for sense in self.senses[lemma]]
        return bool(senses) and not any(sense.common for sense in senses)

    def commonest(self, word: str) -> Sense | None:
        """A lemma's commonest sense (the first of the first part of speech it has)."""
        senses = self.senses.get(word)
        return senses[0] if senses else None

    def people(self, lemma: str) -> bool:
        """Whether a lemma is a people's or a language's name: WordNet has it as a
        capitalised adjective too (Greek, Swiss), where Merlot is a noun only."""
        return any(sense.part == "a" and sense.proper for sense in self.senses.get(lemma, ()))

    def parts(self, lemma: str) -> set[str]:
        return {sense.part for sense in self.senses.get(lemma, ())}

    def bases(self, form: str) -> set[tuple[str, str]]:
        """The (lemma, part of speech) pairs a word form is, itself or inflected."""
        found = {(form, part) for part in self.parts(form)}
        for part, rules in DETACHMENTS:
            candidates = set(self.exceptions[part].get(form, ()))
            candidates.update(
                form[: len(form) - len(ending)] + replacement
                for ending, replacement in rules
                if form.endswith(ending) and len(form) > len(ending)
            )
            found.update((base, part) for base in candidates if part in self.parts(base))
        return found


def _synset(line: str, part: str) -> tuple[str, dict[str, Sense], list[tuple[str, str]]]:
    """A data line's offset, its words' senses, keyed by the lowercase lemma, and its
    hypernyms."""
    head, _, gloss = line.partition(" | ")
    fields = head.split()
    offset, count = fields[0], int(fields[3], 16)
    spelt = [_MARKER.sub("", fields[4 + 2 * i]) for i in range(count)]
    usage: list[set[str]] = [set() for _ in spelt]
    at = 4 + 2 * count
    kind = taxon = False
    shared: set[str] = set()
    above = []
    for _ in range(int(fields[at])):
        symbol, target, target_part, source_target = fields[at + 1 : at + 5]
        at += 4
        if symbol in ("@", "@i"):
            above.append(({"s": "a"}.get(target_part, target_part), target))
        kind = kind or symbol == "@"
        taxon = taxon or symbol in ("#m", "%m")
        if symbol == ";u":
            source = int(source_target[:2], 16)
            if source:
                usage[source - 1].add(target)
            elif count == 1:
                usage[0].add(target)
            else:
                shared.add(target)
    return (
        offset,
        {
            word.lower(): Sense(
                part,
                word,
                frozenset(marks),
                gloss.strip(),
                kind,
                frozenset(shared),
                fields[1],
                taxon,
            )
            for word, marks in zip(spelt, usage, strict=True)
        },
        above,
    )


def _named(spelt: str) -> bool:
    """Whether a lemma begins with a name: its first word capitalised, not in capitals
    (``Lyme_disease``, where ``QWERTY_keyboard`` begins with a word)."""
    return spelt.split("_", 1)[0].istitle()


def short_gloss(gloss: str, limit: int = 160) -> str:
    """A gloss without its quoted examples, cut at a word near ``limit`` characters.

    >>> short_gloss('a small dog; "the puppy barked"; "a lapdog"')
    'a small dog'
    """
    text = gloss.split('; "', 1)[0].strip().rstrip(";").strip()
    if len(text) <= limit:
        return text
    return text[: text.rfind(" ", 0, limit)].rstrip(",;:") + " ..."


def definitions(words: set[str], wordnet: WordNet) -> dict[str, str]:
    """Each word's entry for the definitions file: its own senses (the first of each part
    of speech, common nouns only) as ``n:gloss``, and the lemmas it is a form of as
    ``=lemma:parts`` (``=see:v``), joined by `` | ``; words WordNet cannot explain have none."""
    entries: dict[str, str] = {}
    for word in sorted(words):
        parts: dict[str, str] = {}
        for sense in wordnet.senses.get(word, ()):
            if not sense.proper and sense.part not in parts:
                parts[sense.part] = f"{sense.part}:{short_gloss(sense.gloss)}"
        lemmas: dict[str, str] = {}
        for lemma, part in sorted(wordnet.bases(word)):
            if lemma != word and lemma in words:
                lemmas[lemma] = lemmas.get(lemma, "") + part
        pieces = [*parts.values(), *(f"={lemma}:{part}" for lemma, part in lemmas.items())]
        if pieces:
            entries[word] = " | ".join(pieces)
    return entries
