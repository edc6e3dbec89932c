"""The journal's one writer: a dedicated thread that owns the SQLite connection.

The event loop never touches SQLite. It appends each write (an SQL statement and its
parameters) to a queue and goes on at once, waking nobody; every :data:`LINGER` seconds
the writer thread takes what was queued and commits it in one transaction, so a busy
server makes few large commits and every write is committed within that time.
Reads (the history methods) go through the same queue: they run after every write queued
before them, so a client reads what it just saw.

The writer needs the interpreter lock to encode its rows, and the event loop of a busy
server holds it: CPython hands the lock to a waiting thread only when the holder keeps it
for a whole switch interval (5 ms), and an event loop that lets go of it for a moment at
every poll (every round of a table playing flat out) resets that wait each time, so the
writer got a seventh of the lock or less and fell behind such a table by seconds, its queue
growing without end (``benchmarks/journal_lag.py``). So the queue has a bound: a table
that finds more than :data:`BACKLOG` writes queued waits (:meth:`JournalWriter.keep_up`)
until the writer has taken them, and while it waits the loop is idle and the writer has
the lock. Rows go in as multi-row ``INSERT`` statements (:func:`execute_rows`), so a
batch takes the lock back a few times, not once a row.

A write that fails (a full disk, a file made read-only, an I/O error) rolls its
transaction back, so the journal holds whole batches only; the writer logs one line, marks
the journal ``failed`` and drops every later write. The server keeps serving what it has and
refuses new tables and tournaments (:meth:`NullJournal.check`) until it is restarted.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import logging
import re
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import trio

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal.schema import JournalError, open_for_writing

log = logging.getLogger("croupier.journal")

MAX_BATCH = 20_000
"""Writes in one transaction at most (a bound on the time one commit holds the file)."""
LINGER = 0.05
"""Seconds between the writer's ticks: it commits what was queued meanwhile in one
transaction (a read, or closing, wakes it at once). A commit costs far more than a row,
and waking a thread for every write costs the event loop the interpreter lock each time:
one commit per settled round cost the server about a fifth of its CPU. A crash loses what
was queued since the last tick: the rounds in progress and those just settled."""

Write = tuple[str, tuple[Any, ...]]

BACKLOG = 1_000
"""Writes queued beyond which a table waits for the writer (:meth:`JournalWriter.keep_up`);
about a second of a table of strategies playing flat out, and what a crash can lose."""
MAX_ROWS = 256
"""Rows in one multi-row ``INSERT`` at most (a power of two: statements of a few sizes only,
which the connection's statement cache keeps prepared)."""
MAX_VARIABLES = 999
"""Parameters in one statement at most (SQLite's limit before 3.32; later ones allow more)."""
_VALUES = re.compile(r"(INSERT\b.*\bVALUES\s*)(\(\s*\?(?:\s*,\s*\?)*\s*\))\s*", re.S | re.I)


def execute_rows(conn: sqlite3.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """``sql`` once per row of ``rows``, in order: an ``INSERT ... VALUES (?, ...)`` as a few
    multi-row statements (sizes halving from :data:`MAX_ROWS`), anything else row by row."""
    found = _VALUES.fullmatch(sql)
    if found is None or len(rows) < 2:
        conn.executemany(sql, rows)
        return
    head, one = found.groups()
    most = MAX_ROWS
    while most > 1 and most * one.count("?") > MAX_VARIABLES:
        most //= 2
    done = 0
    while done < len(rows):
        size = most
        while size > len(rows) - done:
            size //= 2
        chunk = rows[done : done + size]
        conn.execute(head + ", ".join([one] * size), [p for row in chunk for p in row])
        done += size


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
        self._queue: collections.deque[object] = collections.deque()
        """Writes, reads and the stop mark, in order: appending is atomic and wakes nobody."""
        self._wake = threading.Event()
        """Set for a read or closing: the writer goes at once instead of at its next tick."""
        self._caught_up: tuple[trio.Event, trio.lowlevel.TrioToken] | None = None
        """What tables behind a long queue wait on, and their loop: set once it is short."""
        self._thread = threading.Thread(target=self._run, name="croupier journal", daemon=True)
        self._thread.start()

    # -- the event loop's side ---------------------------------------------------------------
    def put(self, sql: str, params: tuple[Any, ...]) -> None:
        """Queue one write (never blocks, never raises, never wakes the writer)."""
        self._queue.append((sql, params))

    async def keep_up(self) -> None:
        """Return at once, unless more than :data:`BACKLOG` writes are queued: then wait
        until the writer has taken all but half of that (see the module docstring)."""
        if len(self._queue) <= BACKLOG or not self._thread.is_alive():
            return
        waiting = self._caught_up
        if waiting is None:
            waiting = self._caught_up = (trio.Event(), trio.lowlevel.current_trio_token())
        self._wake.set()  # write now rather than at the next tick
        await waiting[0].wait()

    async def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """``fn(connection)`` in the writer thread, after every write queued so far."""
        if not self._thread.is_alive():
            raise RpcError(Code.INTERNAL_ERROR, "the journal is closed")
        request = _Read(fn)
        self._queue.append(request)
        self._wake.set()
        await trio.to_thread.run_sync(request.done.wait, abandon_on_cancel=True)
        if isinstance(request.error, sqlite3.Error):
            raise RpcError(Code.INTERNAL_ERROR, f"the journal cannot be read: {request.error}")
        if request.error is not None:
            raise request.error
        return request.result

    def read_sync(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        request = _Read(fn)
        self._queue.append(request)
        self._wake.set()
        request.done.wait()
        if request.error is not None:
            raise request.error
        return request.result

    def close(self) -> None:
        """Write what is queued, then close the file (blocks: call it off the loop)."""
        if self._thread.is_alive():
            self._queue.append(_STOP)
            self._wake.set()
            self._thread.join()

    async def aclose(self) -> None:
        await trio.to_thread.run_sync(self.close)

    # -- the writer thread -------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                self._wake.wait(LINGER)  # a tick, or at once for a read or closing
                self._wake.clear()
                batch: list[object] = []
                while len(batch) < MAX_BATCH:
                    try:
                        batch.append(self._queue.popleft())
                    except IndexError:
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
                self._release(len(self._queue) <= BACKLOG // 2)
        finally:
            self._release(True)
            self.conn.close()

    def _release(self, short: bool) -> None:
        """Wake the tables waiting for a shorter queue, if it is short now."""
        waiting = self._caught_up
        if waiting is None or not short:
            return
        self._caught_up = None
        event, token = waiting
        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(event.set)

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
                    execute_rows(self.conn, sql, rows)
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
