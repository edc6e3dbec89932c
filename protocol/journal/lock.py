"""One server per journal: an exclusive lock on ``PATH.lock`` for the server's lifetime.

Two servers on one journal would both "recover" the same tables and play them, and fail
each other's writes. So the writer takes ``fcntl.flock(LOCK_EX | LOCK_NB)`` on a sidecar
file next to the journal and keeps it until it closes. The kernel drops the lock with the
process, however it ends (SIGKILL, the OOM killer), so a crashed server never leaves a
stale lock behind; the file itself stays (deleting it would let two servers lock two
different files). It holds the owner's pid and, once bound, its listening address, which a
refused second server names. Readers (``croupier history --data``, a backup) never take
it: they open the journal read-only and SQLite's WAL lets them read while the server
writes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from croupier.protocol.journal.schema import JournalError


def lock_path(path: str) -> str:
    return f"{path}.lock"


class JournalLock:
    """The held lock of the journal at ``path`` (:class:`JournalError` when another
    process holds it: one line naming that process and its address)."""

    def __init__(self, path: str) -> None:
        self.path = lock_path(path)
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise JournalError(f"cannot open the journal's lock file {self.path}: {exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            raise JournalError(
                f"the journal {path} is in use by another croupier serve ({holder}): stop it "
                "or use another --data"
            ) from None
        except OSError as exc:
            os.close(fd)
            raise JournalError(f"cannot lock the journal {path}: {exc}") from None
        self._fd: int | None = fd
        self.announce(None)

    def announce(self, address: str | None) -> None:
        """Write this process's pid and (once bound) its address into the lock file."""
        if self._fd is None:
            return
        text = f"pid {os.getpid()}" + ("" if address is None else f", listening on {address}")
        with contextlib.suppress(OSError):  # only a courtesy to the refused server
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, text.encode() + b"\n", 0)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def _read(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        text = ""
    return text or "pid unknown"
