"""A match kept in a JSON file between runs of ``cuberef score --match FILE``.

Several runs may add rounds to one file at once. Each holds an exclusive lock
(``fcntl.flock`` on ``FILE.lock``, beside it) around its whole read, change and write,
and writes through a temporary file of its own in the same folder that is flushed to
disk and renamed over the file, so that every round a run reports as saved is there,
and a reader or a power cut finds the old match or the new one, never half of one. The
lock file is left in place: removing it would let two runs lock two different files.

A path that cannot hold a match (no such folder, a folder, a file that is not a match)
and a lock not free in time are each one sentence, and the file is left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from device.base.inputs import not_regular, parse_json, read_bytes
from engine.errors import MachineError, NotationError

#: How long a run waits for another run to finish with the file.
LOCK_SECONDS = 60.0
#: A match file larger than this is not one cuberef wrote (a round is under 1 KB).
MAX_BYTES = 8 * 2**20
_POLL_SECONDS = 0.01


class MatchFile:
    """An open match file, locked for one read-change-write (see the module)::

    with MatchFile.locked(path) as file:
        data = file.read()          # None for a new match
        file.write(new_data)
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    @contextlib.contextmanager
    def locked(cls, path: str | Path, timeout: float = LOCK_SECONDS) -> Iterator[MatchFile]:
        path = Path(path)
        folder = path.parent
        if path.is_dir():
            raise NotationError(
                f"{path} is a folder, not a match file; give a file name, such as "
                f"{path / 'match.json'}."
            )
        odd = not_regular(path)
        if odd:  # checked before the lock is made beside it (not in /dev, say)
            raise NotationError(f"{path} is {odd}, not a regular file; give a match file.")
        if not folder.is_dir():
            raise NotationError(
                f"There is no folder {folder} for the match file {path.name}; create it first "
                "or give another path."
            )
        lock_path = path.with_name(path.name + ".lock")
        try:
            lock = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise _refusal(path, "lock", error) from None
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise NotationError(
                            f"Another cuberef has been writing {path} for {timeout:.0f} s; "
                            "let it finish, then score this round again."
                        ) from None
                    time.sleep(_POLL_SECONDS)
            yield cls(path)
        finally:
            os.close(lock)  # closing the descriptor releases the lock

    def read(self) -> dict[str, Any] | None:
        """The match's JSON, or None when there is no file yet."""
        if not self.path.exists():  # none can appear meanwhile: the lock is held
            return None
        data = read_bytes(self.path, "the match", MAX_BYTES)
        document = parse_json(data, "the match")
        if not isinstance(document, dict):
            raise NotationError(
                f"{self.path} is not a cuberef match file; give a new file name to start a match."
            )
        return document

    def write(self, document: dict[str, Any]) -> None:
        """Replace the file with ``document``, whole or not at all."""
        try:  # encoded before any file is made: a refusal leaves no .tmp behind
            data = (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode()
        except UnicodeEncodeError:
            raise NotationError(
                "A name holds bytes that are not UTF-8 text; type it again as text."
            ) from None
        folder = self.path.parent
        try:
            handle, temporary = tempfile.mkstemp(
                dir=folder, prefix=f".{self.path.name}.", suffix=".tmp"
            )
        except OSError as error:
            raise _refusal(self.path, "write", error) from None
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.chmod(temporary, 0o644)
            os.replace(temporary, self.path)
        except BaseException as error:  # a full disk, or Ctrl-C mid-write: no .tmp is left
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            if isinstance(error, OSError):
                raise _refusal(self.path, "write", error) from None
            raise
        _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself survive a power cut (where the system allows it)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _refusal(path: Path, doing: str, error: OSError) -> Exception:
    """One sentence for a match file that cannot be locked, read or written."""
    why = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO):
        return MachineError(f"Cannot {doing} the match file {path} ({why}); free some space.")
    return NotationError(
        f"Cannot {doing} the match file {path} ({why}); give a path in a folder you may write."
    )
