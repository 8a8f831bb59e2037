"""The English build's second dictionaries and rules, on small data made here: FreeDict's
headwords, a phrase's modifier in WordNet, a rare slur."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from engine.build import english, freedict
from engine.build.wordnet import Sense, WordNet

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(value: int) -> str:
    digits = ""
    while True:
        digits = _B64[value % 64] + digits
        value //= 64
        if not value:
            return digits


def _dictd(folder: Path, package: str, entries: dict[str, str]) -> None:
    """A dictd database as Debian's packages install it: folded key -> entry text."""
    text, lines = b"", []
    for key, entry in entries.items():
        data = entry.encode("utf-8")
        lines.append(f"{key}\t{_b64(len(text))}\t{_b64(len(data))}")
        text += data
    index = freedict.package_file(package, folder)
    index.write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")
    index.with_suffix(".dict.dz").write_bytes(gzip.compress(text))


def test_freedict_takes_headwords_written_small_and_counts_lineages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(freedict, "LINEAGES", {"dict-a": "One", "dict-b": "Two", "dict-c": "Two"})
    _dictd(
        tmp_path,
        "dict-a",
        {
            "gelato": "gelato //dʒəˈlɑːtəʊ// <n>\nItalian-style ice cream\n",
            "aachen": "Aachen /ˈɑːkən/\na city\n",  # a name keeps its capital
            "ab": "able-bodied seaman /x/ (AB /ˈab/)\nVollmatrose\n",  # no headword of its own
            "mens": "men´s\npánský\n",  # the index folds men's to mens
            "squamous": "squamous <adj>\nšupinatý\n",
        },
    )
    _dictd(tmp_path, "dict-b", {"squamous": "squamous /x/\nschuppig\n"})
    _dictd(tmp_path, "dict-c", {"coli": "coli //ˈkoʊ.laɪ// <n>\nkolibakteeri\n"})
    found = freedict.FreeDict(tmp_path)
    assert found.listed("gelato") and found.listed("coli") and found.listed("squamous", 2)
    assert not found.listed("gelato", 2) and not found.listed("coli", 2)  # one lineage each
    assert not {"aachen", "ab", "mens", "men"} & set(found.sources)


def test_a_word_two_lineages_list_unmarked_is_a_plain_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dictionaries decide slang and abbreviations: a colloquial mark is no slang mark, and a
    word whose meaning spells out its letters is an initialism."""
    monkeypatch.setattr(freedict, "LINEAGES", {"dict-a": "One", "dict-b": "Two"})
    _dictd(
        tmp_path,
        "dict-a",
        {
            "nope": "nope /nˈəʊp/\n [coll.] nein\n",
            "kinda": "kinda /kˈaɪndə/\n [slang] irgendwie\n",
            "med": "med /mˈɛd/\nmedizinisch <adj> [med.]\n",
            "aka": "aka\nalias (also known as)\n",
            "frig": "frig\n [vulg.] ficken\n",
            "sheesh": "sheesh //ʃiːʃ// <interjection>\nvoi että\n",
        },
    )
    _dictd(
        tmp_path,
        "dict-b",
        {
            "nope": 'nope //noʊp// <particle>\nei\ninformal "no"\n',
            "kinda": "kinda\n [hovor] trochu\n",
            "med": "med <n>\nmedicína\n",
            "aka": "aka\ntéž známý jako\n",
            "frig": "frig\nlednička\n",
            "gonna": "gonna\nchystám se\n",
        },
    )
    found = freedict.FreeDict(tmp_path)
    assert found.plain_word("nope", 2) and found.plain_word("med", 2)
    assert found.marked == {"kinda": {"One"}, "frig": {"One"}}  # [med.] is a field, no mark
    assert found.spelt_out == {"aka"} and found.interjections == {"sheesh"}
    assert not found.plain_word("kinda", 2) and not found.plain_word("aka", 2)
    assert not found.plain_word("frig", 2) and not found.plain_word("gonna", 2)  # one lineage


def _wordnet(senses: dict[str, list[tuple[str, str]]], above: dict[str, list[str]]) -> WordNet:
    """A WordNet of one synset per lemma (spelt, gloss), with hypernyms by lemma and
    synonyms listed as ``lemma=synonym``."""
    wordnet = WordNet.__new__(WordNet)
    wordnet.senses, wordnet.synsets, wordnet.members, wordnet.hypernyms = {}, {}, {}, {}
    for lemma, [(spelt, gloss)] in senses.items():
        key = ("n", lemma)
        wordnet.senses[lemma] = [Sense("n", spelt, frozenset(), gloss, True)]
        wordnet.synsets[lemma] = [key]
        wordnet.members[key] = {lemma, *above.get(lemma + "=", [])}
        wordnet.hypernyms[key] = [("n", head) for head in above.get(lemma, [])]
    return wordnet


def test_a_phrases_word_naming_a_kind_of_its_head_is_a_modifier() -> None:
    wordnet = _wordnet(
        {
            "bean": [("bean", "a seed")],
            "legume": [("legume", "a pod")],
            "fava_bean": [("fava_bean", "a large bean")],
            "status": [("status", "a state")],
            "status_quo": [("status_quo", "the existing state of affairs")],
            "disease": [("disease", "an illness")],
            "lyme_disease": [("Lyme_disease", "a disease named for a town")],
            "rate": [("rate", "a quantity")],
            "sed_rate": [("sed_rate", "the rate at which red cells settle")],
        },
        {
            "bean": ["legume"],
            "fava_bean": ["bean"],
            "status_quo": ["status"],
            "lyme_disease": ["disease"],
            "sed_rate": ["rate"],
            "sed_rate=": ["sedimentation_rate"],
        },
    )
    assert wordnet.kind_of("fava_bean", "legume")  # up the hypernyms, not only the first
    assert wordnet.modifier("fava")
    assert not wordnet.modifier("status")  # a status quo is a status: its head is first
    assert not wordnet.modifier("quo")
    assert not wordnet.modifier("lyme")  # a name before its head
    assert not wordnet.modifier("sed")  # cut from sedimentation


def test_a_rare_words_slurs_as_many_as_its_ordinary_senses_make_it_offensive() -> None:
    slur = Sense("n", "x", frozenset({"06718862"}), "(ethnic slur) offensive term for a Jew")
    shiny = Sense("a", "x", frozenset(), "reflecting light")
    field = Sense("n", "x", frozenset(), "a field where rice is grown")
    wordnet = WordNet.__new__(WordNet)
    wordnet.senses = {"sheeny": [slur, shiny], "paddy": [slur, field, field], "shine": [shiny]}
    assert english.rare_slur(wordnet, "sheeny")
    assert not english.rare_slur(wordnet, "paddy") and not english.rare_slur(wordnet, "shine")
