"""Expand a hunspell dictionary (``.aff`` + ``.dic``) into every word form it accepts.

This reads the affix file the way hunspell 1.7 does and generates, for each stem, the
forms hunspell's checker would accept: the stem itself, one prefix, one or two
suffixes (the second through a continuation class), a prefix with suffixes when both
allow cross products, and a prefix licensed by a suffix's continuation class (Czech
``nej-`` on a comparative). It honours ``FLAG`` (``char``, ``long``, ``num``,
``UTF-8``), ``AF`` flag aliases, strip strings, conditions, ``NEEDAFFIX``,
``ONLYINCOMPOUND``, ``CIRCUMFIX``, ``FORBIDDENWORD`` and ``FULLSTRIP``. Compounding
makes the set of words unbounded, so a dictionary that compounds is refused.

>>> aff = AffixFile.parse('''
... SFX S Y 2
... SFX S 0 s [^s]
... SFX S 0 es s
... PFX U Y 1
... PFX U 0 un .
... ''')
>>> sorted(expand_entry("cat/SU", aff))
['cat', 'cats', 'uncat', 'uncats']
>>> sorted(expand_entry("kiss/S", aff))
['kiss', 'kisses']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Directives that build compound words; a dictionary using them has no finite word list.
COMPOUND_DIRECTIVES = (
    "COMPOUNDFLAG",
    "COMPOUNDBEGIN",
    "COMPOUNDMIDDLE",
    "COMPOUNDEND",
    "COMPOUNDRULE",
)


@dataclass(frozen=True, slots=True)
class Affix:
    """One rule line: strip ``strip`` from the stem's edge, add ``append``, if the
    stem's edge matches ``condition``."""

    prefix: bool
    flag: str
    strip: str
    append: str
    continuation: frozenset[str]
    condition: re.Pattern[str]
    cross_product: bool

    def applies(self, stem: str, full_strip: bool = False) -> bool:
        """Whether this rule may be applied to ``stem``.

        Hunspell needs something of the stem left after stripping (unless
        ``FULLSTRIP``) and the condition to match at the stem's edge.
        """
        if len(stem) < len(self.strip) or (len(stem) == len(self.strip) and not full_strip):
            return False
        if self.prefix:
            return stem.startswith(self.strip) and self.condition.match(stem) is not None
        return stem.endswith(self.strip) and self.condition.search(stem) is not None

    def apply(self, stem: str) -> str:
        if self.prefix:
            return self.append + stem[len(self.strip) :]
        return stem[: len(stem) - len(self.strip)] + self.append


def _condition(text: str, prefix: bool) -> re.Pattern[str]:
    """Turn a hunspell condition (``[^aeo]k``, ``.``, ``ch``) into an anchored regex."""
    pattern: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "[":
            end = text.index("]", i)
            body = text[i + 1 : end]
            negate = body.startswith("^")
            chars = re.escape(body[1:] if negate else body)
            pattern.append(f"[{'^' if negate else ''}{chars}]")
            i = end + 1
            continue
        pattern.append("." if char == "." else re.escape(char))
        i += 1
    joined = "".join(pattern)
    return re.compile(f"^{joined}" if prefix else f"{joined}$", re.DOTALL)


@dataclass(slots=True)
class AffixFile:
    """The parts of a ``.aff`` file that decide which words exist."""

    encoding: str = "ISO8859-1"
    flag_type: str = "char"
    aliases: list[frozenset[str]] = field(default_factory=list)
    prefixes: dict[str, list[Affix]] = field(default_factory=dict)
    suffixes: dict[str, list[Affix]] = field(default_factory=dict)
    forbidden: str | None = None
    need_affix: str | None = None
    only_in_compound: str | None = None
    circumfix: str | None = None
    full_strip: bool = False

    @classmethod
    def read(cls, path: Path) -> AffixFile:
        raw = path.read_bytes()
        match = re.search(rb"^SET\s+(\S+)", raw, re.MULTILINE)
        encoding = match.group(1).decode("ascii") if match else "ISO8859-1"
        return cls.parse(raw.decode(_python_codec(encoding)), encoding)

    @classmethod
    def parse(cls, text: str, encoding: str = "UTF-8") -> AffixFile:
        aff = cls(encoding=encoding)
        lines = iter(text.splitlines())
        for line in lines:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            key = fields[0]
            if key in COMPOUND_DIRECTIVES:
                raise ValueError(f"{key}: compound words make the word list unbounded")
            if key == "FLAG" and len(fields) > 1:
                aff.flag_type = fields[1].lower() if fields[1] != "UTF-8" else "utf-8"
            elif key == "AF" and len(fields) > 1 and fields[1].isdigit() and not aff.aliases:
                for _ in range(int(fields[1])):
                    alias = next(lines).split()
                    aff.aliases.append(aff.decode_flags(alias[1] if len(alias) > 1 else ""))
            elif key == "FORBIDDENWORD":
                aff.forbidden = aff.decode_flag(fields[1])
            elif key == "NEEDAFFIX" or key == "PSEUDOROOT":
                aff.need_affix = aff.decode_flag(fields[1])
            elif key == "ONLYINCOMPOUND":
                aff.only_in_compound = aff.decode_flag(fields[1])
            elif key == "CIRCUMFIX":
                aff.circumfix = aff.decode_flag(fields[1])
            elif key == "FULLSTRIP":
                aff.full_strip = True
            elif key in ("PFX", "SFX") and len(fields) >= 4 and fields[3].isdigit():
                aff._read_rules(key == "PFX", fields, lines)
        return aff

    def _read_rules(self, prefix: bool, header: list[str], lines: Iterator[str]) -> None:
        flag = self.decode_flag(header[1])
        cross = header[2] == "Y"
        table = self.prefixes if prefix else self.suffixes
        rules = table.setdefault(flag, [])  # hunspell merges repeated flags
        for _ in range(int(header[3])):
            fields = next(lines).split()
            strip = "" if fields[2] == "0" else fields[2]
            append, _, flags = fields[3].partition("/")
            append = "" if append == "0" else append
            condition = fields[4] if len(fields) > 4 and not fields[4].startswith("#") else "."
            rules.append(
                Affix(
                    prefix,
                    flag,
                    strip,
                    append,
                    self.decode_flags(flags),
                    _condition(condition, prefix),
                    cross,
                )
            )

    def decode_flag(self, text: str) -> str:
        """One flag as the affix header names it."""
        if self.flag_type == "long":
            return text[:2]
        if self.flag_type == "num":
            return text
        if self.flag_type == "utf-8":
            return text[:1]
        # Hunspell's default: a flag is one byte, so in a UTF-8 file a letter such as
        # "í" is read by its first byte (and "é" shares it); we do the same.
        return chr(text.encode(_python_codec(self.encoding))[0])

    def decode_flags(self, text: str) -> frozenset[str]:
        """A stem's or rule's flag string; a number means an ``AF`` alias."""
        if not text:
            return frozenset()
        if self.aliases and text.isdigit():
            index = int(text)
            return self.aliases[index - 1] if 0 < index <= len(self.aliases) else frozenset()
        if self.flag_type == "long":
            return frozenset(text[i : i + 2] for i in range(0, len(text) - 1, 2))
        if self.flag_type == "num":
            return frozenset(part.strip() for part in text.split(",") if part.strip())
        if self.flag_type == "utf-8":
            return frozenset(text)
        return frozenset(chr(byte) for byte in text.encode(_python_codec(self.encoding)))


def _python_codec(encoding: str) -> str:
    return {"ISO8859-2": "iso8859_2", "ISO8859-1": "latin-1"}.get(encoding, encoding)


def _has(affix: Affix, flag: str | None) -> bool:
    return flag is not None and flag in affix.continuation


def _suffixed(stem: str, flags: Iterable[str], aff: AffixFile) -> Iterator[tuple[str, list[Affix]]]:
    """Every form of ``stem`` with one suffix, or two (the inner one's continuation
    class naming the outer one), with the suffixes used, innermost first."""
    for flag in flags:
        for inner in aff.suffixes.get(flag, ()):
            if not inner.applies(stem, aff.full_strip):
                continue
            once = inner.apply(stem)
            yield once, [inner]
            for outer_flag in inner.continuation:
                for outer in aff.suffixes.get(outer_flag, ()):
                    if outer.applies(once, aff.full_strip):
                        yield outer.apply(once), [inner, outer]


def expand(stem: str, flags: frozenset[str], aff: AffixFile) -> Iterator[str]:
    """Every word form hunspell accepts from one dictionary entry (with repeats)."""
    if aff.forbidden is not None and aff.forbidden in flags:
        return
    if not flags & {aff.need_affix, aff.only_in_compound}:
        yield stem
    for word, suffixes in _suffixed(stem, flags, aff):
        if any(_has(suffix, aff.only_in_compound) for suffix in suffixes):
            continue
        circumfixed = any(_has(suffix, aff.circumfix) for suffix in suffixes)
        if not circumfixed and not _has(suffixes[-1], aff.need_affix):
            yield word
        if not all(suffix.cross_product for suffix in suffixes):
            continue
        # A prefix on a suffixed form: the prefix flag is on the stem or in a
        # suffix's continuation class (Czech "nej-" on a comparative).
        licensed = set(flags).union(*(suffix.continuation for suffix in suffixes))
        for flag in licensed:
            for prefix in aff.prefixes.get(flag, ()):
                if (
                    prefix.cross_product
                    and not _has(prefix, aff.only_in_compound)
                    and circumfixed == _has(prefix, aff.circumfix)
                    and prefix.applies(word, aff.full_strip)
                ):
                    yield prefix.apply(word)
    for flag in flags:
        for prefix in aff.prefixes.get(flag, ()):
            if _has(prefix, aff.only_in_compound) or not prefix.applies(stem, aff.full_strip):
                continue
            if not _has(prefix, aff.need_affix) and not _has(prefix, aff.circumfix):
                yield prefix.apply(stem)
            # Suffixes that only the prefix's continuation class allows.
            extra = prefix.continuation - flags
            if prefix.cross_product and extra:
                for word, suffixes in _suffixed(stem, extra, aff):
                    final = not any(
                        _has(suffix, aff.only_in_compound) or _has(suffix, aff.need_affix)
                        for suffix in suffixes[-1:]
                    )
                    crossed = all(suffix.cross_product for suffix in suffixes)
                    if final and crossed and prefix.applies(word, aff.full_strip):
                        yield prefix.apply(word)


def parse_entry(line: str, aff: AffixFile) -> tuple[str, frozenset[str]]:
    """A ``.dic`` line: ``word/FLAGS`` then optional morphology after white space."""
    entry = line.split()[0] if line.split() else ""
    slash = 0
    while True:  # a slash may be escaped as "\/" inside the word
        slash = entry.find("/", slash)
        if slash <= 0 or entry[slash - 1] != "\\":
            break
        slash += 1
    if slash <= 0:
        return entry.replace("\\/", "/"), frozenset()
    return entry[:slash].replace("\\/", "/"), aff.decode_flags(entry[slash + 1 :])


def expand_entry(line: str, aff: AffixFile) -> set[str]:
    stem, flags = parse_entry(line, aff)
    return set(expand(stem, flags, aff))


def read_dic(path: Path, aff: AffixFile) -> list[str]:
    """The entry lines of a ``.dic`` file (its first line is the entry count)."""
    lines = path.read_bytes().decode(_python_codec(aff.encoding)).splitlines()
    return [line for line in lines[1:] if line.strip() and not line.startswith("\t")]


def expand_dictionary(entries: Iterable[str], aff: AffixFile) -> tuple[set[str], set[str]]:
    """All words of a dictionary, and the forbidden ones (already left out)."""
    words: set[str] = set()
    forbidden: set[str] = set()
    for line in entries:
        stem, flags = parse_entry(line, aff)
        if aff.forbidden is not None and aff.forbidden in flags:
            forbidden.add(stem)
        else:
            words.update(expand(stem, flags, aff))
    return words - forbidden, forbidden
