"""What waits for the journal's writer thread: a read it runs for the event loop, and an
event loop's task waiting for a commit (or for the journal to write again)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import trio


class Read:
    """A read waiting for the writer thread: ``fn(connection)``, its result or error."""

    def __init__(self, fn: Callable[[sqlite3.Connection], Any]) -> None:
        self.fn = fn
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self, conn: sqlite3.Connection) -> None:
        try:
            self.result = self.fn(conn)
        except BaseException as exc:
            self.error = exc
        finally:
            self.done.set()


class Waiter:
    """An event loop's task waiting for the writer: for write number ``target`` to be
    committed (``target`` None: for the journal to write again after a failure)."""

    def __init__(self, target: int | None, patient: bool) -> None:
        self.target = target
        self.patient = patient
        """Waits through a failure (a table in ``--sync``) instead of being told of it."""
        self.event = trio.Event()
        self.token = trio.lowlevel.current_trio_token()
        self.failed: str | None = None

    def wake(self, failed: str | None = None) -> None:
        self.failed = failed
        with contextlib.suppress(trio.RunFinishedError):
            self.token.run_sync_soon(self.event.set)
