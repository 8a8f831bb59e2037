"""A box's ``[club]``: without it nothing changes; with it, all four keys together, a
broker written mqtt://HOST:PORT, an event's name fit for a topic and a readable secret;
each wrong one a sentence of ``cuberef config --check``."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.config import settings
from device.config.sections import Settings


def test_without_club_nothing_changes() -> None:
    assert settings.problems({}) == []
    assert Settings().club.broker == "" and settings.club_problems(Settings()) == []


@pytest.mark.parametrize(
    ("club", "said"),
    [
        ({"broker": "mqtt://director:1883"}, "[club] needs event, table, secret_file as well"),
        ({"broker": "http://x"}, "must be written mqtt://HOST:PORT"),
        ({"event": "a b"}, "must be 1 to 64 letters"),
        ({"table": 501}, "must be between 0 and 500"),
    ],
)
def test_a_wrong_club_section_is_one_sentence(club: dict[str, object], said: str) -> None:
    found = settings.problems({"club": club})
    assert any(said in sentence for sentence in found), found


def test_the_secret_file_must_hold_a_secret(tmp_path: Path) -> None:
    club = {"broker": "mqtt://director", "event": "tuesday", "table": 3}
    secret = tmp_path / "club.secret"
    missing = settings.problems({"club": {**club, "secret_file": str(secret)}})
    assert len(missing) == 1 and missing[0].startswith("[club] secret_file: ")
    secret.write_text("two words\n")
    assert settings.problems({"club": {**club, "secret_file": str(secret)}}) == [
        f"[club] secret_file {secret} must hold one secret on one line."
    ]
    secret.write_text("Vw3kq9-secret\n")
    assert settings.problems({"club": {**club, "secret_file": str(secret)}}) == []
