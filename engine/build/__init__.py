"""Scripts that rebuild the engine's data from named sources (run by ``cuberef lexicon build``)."""

from __future__ import annotations

from pathlib import Path


def copy_licences(notes: Path, packages: dict[str, str]) -> None:
    """Put each source's Debian copyright file beside the data built from it, as
    WordNet's licence asks (its notice on every copy)."""
    for name, package in packages.items():
        text = (Path("/usr/share/doc") / package / "copyright").read_text(encoding="utf-8")
        (notes / f"{name}-copyright.txt").write_text(text, encoding="utf-8")
