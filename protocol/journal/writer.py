"""The journal's one writer: a dedicated thread that owns the SQLite connection.

The event loop never touches SQLite. It puts each write (an SQL statement and its
parameters) on a queue and goes on at once; the writer thread takes what comes within
:data:`LINGER` seconds of the first write and commits it in one transaction, so a busy
server makes few large commits and an idle one commits each write within that time.
Reads (the history methods) go through the same queue: they run after every write queued
before them, so a client reads what it just saw.

A write that fails (a full disk, a file made read-only, an I/O error) rolls its
transaction back, so the journal holds whole batches only; the writer logs one line, marks
the journal ``failed`` and drops every later write. The server keeps serving what it has and
refuses new tables and tournaments (:meth:`NullJournal.check`) until it is restarted.
"""

from __future__ import annotations

import itertools
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import trio

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal.schema import JournalError, open_for_writing

log = logging.getLogger("croupier.journal")

MAX_BATCH = 20_000
"""Writes in one transaction at most (a bound on the time one commit holds the file)."""
LINGER = 0.05
"""Seconds the writer gathers writes after the first before it commits them (a read, or
closing, commits at once). A commit costs far more than a row: one commit per settled
round would cost the server a fifth of its time, one per 50 ms costs next to nothing; a
crash loses what was queued in that time, the rounds in progress and just settled."""

Write = tuple[str, tuple[Any, ...]]


class _Read:
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


_STOP = object()


def _encode(value: Any) -> Any:
    """A parameter as SQLite takes it: maps and lists as compact JSON, big ints as text."""
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        return str(value)
    return value


class JournalWriter:
    """The writer thread and its queue (see the module docstring)."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        self.path = path
        self.conn = open_for_writing(path, synchronous)
        self.failed: str | None = None
        """Why the journal stopped writing (None while it writes)."""
        self.written = 0
        self.dropped = 0
        self.commits = 0
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="croupier journal", daemon=True)
        self._thread.start()

    # -- the event loop's side ---------------------------------------------------------------
    def put(self, sql: str, params: tuple[Any, ...]) -> None:
        """Queue one write (never blocks, never raises)."""
        self._queue.put((sql, params))

    async def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """``fn(connection)`` in the writer thread, after every write queued so far."""
        if not self._thread.is_alive():
            raise RpcError(Code.INTERNAL_ERROR, "the journal is closed")
        request = _Read(fn)
        self._queue.put(request)
        await trio.to_thread.run_sync(request.done.wait, abandon_on_cancel=True)
        if isinstance(request.error, sqlite3.Error):
            raise RpcError(Code.INTERNAL_ERROR, f"the journal cannot be read: {request.error}")
        if request.error is not None:
            raise request.error
        return request.result

    def read_sync(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        request = _Read(fn)
        self._queue.put(request)
        request.done.wait()
        if request.error is not None:
            raise request.error
        return request.result

    def close(self) -> None:
        """Write what is queued, then close the file (blocks: call it off the loop)."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()

    async def aclose(self) -> None:
        await trio.to_thread.run_sync(self.close)

    # -- the writer thread -------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                batch = [self._queue.get()]
                deadline = time.monotonic() + LINGER
                while len(batch) < MAX_BATCH and isinstance(batch[-1], tuple):
                    left = deadline - time.monotonic()  # gather writes: one commit for all
                    if left <= 0:
                        break
                    try:
                        batch.append(self._queue.get(timeout=left))
                    except queue.Empty:
                        break
                writes: list[Write] = []
                for item in batch:
                    if item is _STOP:
                        self._commit(writes)
                        return
                    if isinstance(item, _Read):
                        self._commit(writes)
                        writes = []
                        item.run(self.conn)
                    else:
                        writes.append(item)  # type: ignore[arg-type]
                self._commit(writes)
        finally:
            self.conn.close()

    def _commit(self, writes: list[Write]) -> None:
        if not writes:
            return
        if self.failed is not None:
            self.dropped += len(writes)
            return
        groups = []
        for sql, same in itertools.groupby(writes, key=lambda w: w[0]):
            rows = []
            for _, params in same:
                try:
                    rows.append(tuple(_encode(p) for p in params))
                except (TypeError, ValueError) as exc:  # a bug upstream: lose that row only
                    log.error("journal: a row cannot be written and is left out: %s", exc)
            groups.append((sql, rows))
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, rows in groups:
                    self.conn.executemany(sql, rows)
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        except (sqlite3.Error, OSError) as exc:
            self.failed = f"{type(exc).__name__}: {exc}"
            self.dropped += len(writes)
            log.error(
                "journal %s: cannot write (%s); nothing half-written is kept; the server takes "
                "no new tables or tournaments until it is restarted with a writable journal",
                self.path,
                exc,
            )
            return
        self.written += len(writes)
        self.commits += 1


def open_writer(path: str, synchronous: str = "NORMAL") -> JournalWriter:
    """The writer of the journal at ``path`` (:class:`JournalError` when it cannot be)."""
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise JournalError(f"unknown synchronous setting {synchronous!r}")
    return JournalWriter(path, synchronous.upper())
