"""Each table's secret and the director's, kept in the event's folder (``credentials/``,
readable by its owner only). Made once; asking for more tables adds the missing ones and
keeps the rest, so a box already set up stays set up."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from device.base.inputs import read_text
from device.club.topics import DIRECTOR, table_user
from device.config.club_rules import secret_problem
from engine.errors import CuberefError


@dataclass(frozen=True)
class Account:
    user: str
    secret: str


def folder_of(event_folder: Path) -> Path:
    return event_folder / "credentials"


def secret_path(event_folder: Path, user: str) -> Path:
    return folder_of(event_folder) / f"{user}.secret"


def _made(path: Path) -> str:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(18) + "\n")
    return read_secret(path)


def read_secret(path: Path) -> str:
    """The secret in a secret file (its first line)."""
    text = read_text(path, "the secret file", limit=4096).strip()
    problem = secret_problem(text)
    if problem:
        raise CuberefError(f"The secret file {path} {problem}.")
    return text


def make_tables(event_folder: Path, count: int) -> list[Account]:
    """The accounts of tables 1..count and the director's, made where missing."""
    if not 1 <= count <= 500:
        raise CuberefError("An event has 1 to 500 tables.")
    users = [table_user(n) for n in range(1, count + 1)] + [DIRECTOR]
    return [Account(user, _made(secret_path(event_folder, user))) for user in users]


def accounts(event_folder: Path) -> list[Account]:
    """Every account made so far: the director's and each table's."""
    found = (
        sorted(folder_of(event_folder).glob("*.secret")) if folder_of(event_folder).is_dir() else []
    )
    return [Account(path.name.removesuffix(".secret"), read_secret(path)) for path in found]


def tables_of(found: list[Account]) -> list[int]:
    """The table numbers among ``found``, in order."""
    numbers = [a.user.removeprefix("table-") for a in found if a.user.startswith("table-")]
    return sorted(int(n) for n in numbers if n.isdigit())


def director(event_folder: Path) -> Account:
    """The director's account; one sentence where no tables were made yet."""
    path = secret_path(event_folder, DIRECTOR)
    if not path.exists():
        raise CuberefError(
            f"The event in {event_folder} has no credentials yet; make them with: "
            "cuberef club tables N"
        )
    return Account(DIRECTOR, read_secret(path))
