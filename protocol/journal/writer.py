"""The journal's one writer: a dedicated thread that owns the SQLite connection.

The event loop never touches SQLite. It appends each write (an SQL statement and its
parameters) to a queue and goes on at once, waking nobody; every :data:`LINGER` seconds
the writer thread takes what was queued and commits it in one transaction, so a busy
server makes few large commits. Reads (the history methods) go through the same queue:
they run after every write queued before them, so a client reads what it just saw.

**What is durable when.** Three promises, each kept whatever the load:

- :meth:`JournalWriter.durable` returns once everything queued before it is committed
  (group commit: every caller waiting meanwhile shares one transaction, and wakes the
  writer at once). The server answers ``table.create``, ``table.join`` and every other call
  that changes what the journal holds only after it (:attr:`Method.durable`), so a client
  that got an answer finds its table, seat and token after any crash of the server.
- A settled round is committed within :data:`WINDOW` plus one round and two commits (the
  one in progress when the tables stop, and the one holding the round): about 100 ms on a
  machine with a core to spare; ``benchmarks/durability.py`` measures it. The writer needs
  the interpreter lock to encode its rows, and the event loop of a busy server holds it:
  CPython hands the lock to a waiting thread only when the holder keeps it for a whole
  switch interval (5 ms), and an event loop that lets go of it for a moment at every poll
  resets that wait each time, so a table playing flat out starved the writer for a second
  and more. So a table calls :meth:`JournalWriter.keep_up` after each round: once the
  oldest settled round not yet committed was queued more than :data:`WINDOW` seconds ago
  (or more than :data:`BACKLOG` writes wait) the table waits for the commit, and while
  every table waits the loop is idle and the writer has the lock. ``serve --sync`` makes
  each round durable before the next is dealt.
- A write that fails (a full disk, a file made read-only, an I/O error) rolls its
  transaction back and is **kept**: the writer logs one line, marks the journal
  ``failed`` and tries the same writes again every :data:`RETRY` seconds, in order, so
  nothing is dropped. Meanwhile tables pause before their next round (nothing is dealt that
  cannot be recorded) and the server refuses new tables and tournaments; once a retry
  commits, the journal is writable again and play resumes.

Rows go in as multi-row ``INSERT`` statements (:mod:`~croupier.protocol.journal.rows`), so a
batch takes the lock back a few times, not once a row. The settled rounds of each table in a
transaction go in one row, a block packed by this thread
(:mod:`~croupier.protocol.journal.blocks`): a round is durable exactly when its transaction
commits, as when it had a row of its own.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import trio

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal.blocks import Blocks
from croupier.protocol.journal.lock import JournalLock
from croupier.protocol.journal.packing import Packer
from croupier.protocol.journal.rows import BAD_ROW, Write, encode, execute_rows
from croupier.protocol.journal.schema import JournalError, open_for_writing
from croupier.protocol.journal.waiting import Read, Waiter

log = logging.getLogger("croupier.journal")

MAX_BATCH = 20_000
"""Writes in one transaction at most (a bound on the time one commit holds the file)."""
LINGER = 0.02
"""Seconds between the writer's ticks: it commits what was queued meanwhile in one
transaction (a read, :meth:`JournalWriter.durable` or closing wakes it at once). A commit
costs far more than a row, and waking a thread for every write costs the event loop the
interpreter lock each time: one commit per settled round cost the server about a fifth of
its CPU."""
WINDOW = 0.05
"""Seconds a settled round may wait uncommitted before tables wait for the writer
(:meth:`JournalWriter.keep_up`): the bound on a starved writer's lag, less the commits."""
RETRY = 1.0
"""Seconds between the attempts of a journal that cannot write to write again."""

BACKLOG = 1_000
"""Writes queued beyond which a table waits for the writer (:meth:`JournalWriter.keep_up`),
whatever their age: a bound on the queue's memory."""


_STOP = object()


class JournalWriter:
    """The writer thread and its queue (see the module docstring)."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        self.path = path
        self.lock = None if path == ":memory:" else JournalLock(path)
        try:
            self.conn = open_for_writing(path, synchronous)
        except BaseException:
            if self.lock is not None:
                self.lock.release()
            raise
        self.packer = Packer(self.conn)
        """Packs settled rounds' rows (:mod:`croupier.protocol.journal.packing`)."""
        self.blocks = Blocks(self.packer)
        self.usage = self.blocks.usage
        """Per address, bytes of settled rounds its tables had written (the journal quota)."""
        self.failed: str | None = None
        """Why the journal cannot write now (None while it writes)."""
        self.written = 0
        self.dropped = 0
        self.commits = 0
        self.cpu = 0.0
        """Seconds of CPU the writer thread has used so far (as of its last tick)."""
        self.queued = 0
        """Writes queued so far (the event loop's count)."""
        self.done = 0
        """Writes committed (or left out as bad rows) so far, in queue order (the writer's)."""
        self._unsaved: collections.deque[tuple[int, float]] = collections.deque()
        """Per settled round not known committed, oldest first (the event loop's): the count
        of writes queued with it and when (:meth:`keep_up`)."""
        self._queue: collections.deque[object] = collections.deque()
        """Writes, reads and the stop mark, in order: appending is atomic and wakes nobody."""
        self._held: list[Write] = []
        """Writes taken but not committed (the journal failed): written first, in order."""
        self._waiters: list[Waiter] = []
        self._mutex = threading.Lock()
        """Guards ``done``, ``failed`` and ``_waiters`` between the loop and the writer."""
        self._wake = threading.Event()
        """Set for a read, a durable wait or closing: the writer goes at once."""
        self._thread = threading.Thread(target=self._run, name="croupier journal", daemon=True)
        self._thread.start()

    # -- the event loop's side ---------------------------------------------------------------
    def put(self, sql: str, params: tuple[Any, ...]) -> None:
        """Queue one write (never blocks, never raises, never wakes the writer)."""
        self._queue.append((sql, params))
        self.queued += 1

    async def durable(self, patient: bool = False) -> None:
        """Return once every write queued so far is committed (at once if it is).

        Raises ``journal-failed`` should the journal fail meanwhile (the writes stay queued
        and are written once it works again), unless ``patient``: then it waits for that."""
        target = self.queued
        with self._mutex:
            if self.done >= target:
                return
            if self.failed is not None and not patient:
                raise self._failed_error()
            if not self._thread.is_alive():
                raise RpcError(Code.INTERNAL_ERROR, "the journal is closed")
            waiter = Waiter(target, patient)
            self._waiters.append(waiter)
        self._wake.set()
        await waiter.event.wait()
        if waiter.failed is not None:
            raise self._failed_error(waiter.failed)

    async def writable(self) -> None:
        """Return once the journal writes (at once unless it failed)."""
        with self._mutex:
            if self.failed is None or not self._thread.is_alive():
                return
            waiter = Waiter(None, True)
            self._waiters.append(waiter)
        await waiter.event.wait()

    def _failed_error(self, why: str | None = None) -> RpcError:
        return RpcError(
            Code.JOURNAL_FAILED,
            f"the server cannot write its journal ({why or self.failed}); what was asked is "
            "not recorded yet",
        )

    clock = staticmethod(time.monotonic)
    """The clock :meth:`keep_up` ages rounds by."""

    async def keep_up(self) -> None:
        """A table calls this right after queueing a settled round. Return at once, unless
        the writer is behind: the oldest settled round not yet committed was queued more
        than :data:`WINDOW` seconds ago, or more than :data:`BACKLOG` writes wait; then wait
        until what is queued is committed (see the module docstring). Measured from the
        round, not from the writer's last take of the queue: a writer that took the queue
        and is slow to commit it is behind too. A failed journal does not wait here: tables
        pause before their next round instead."""
        done, now, unsaved = self.done, self.clock(), self._unsaved
        while unsaved and unsaved[0][0] <= done:
            unsaved.popleft()
        if done >= self.queued or self.failed is not None:
            return
        unsaved.append((self.queued, now))
        if len(self._queue) > BACKLOG or now - unsaved[0][1] > WINDOW:
            with contextlib.suppress(RpcError):
                await self.durable()

    async def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """``fn(connection)`` in the writer thread, after every write queued so far."""
        if not self._thread.is_alive():
            raise RpcError(Code.INTERNAL_ERROR, "the journal is closed")
        request = Read(fn)
        self._queue.append(request)
        self._wake.set()
        await trio.to_thread.run_sync(request.done.wait, abandon_on_cancel=True)
        if isinstance(request.error, sqlite3.Error):
            raise RpcError(Code.INTERNAL_ERROR, f"the journal cannot be read: {request.error}")
        if request.error is not None:
            raise request.error
        return request.result

    def read_sync(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        request = Read(fn)
        self._queue.append(request)
        self._wake.set()
        request.done.wait()
        if request.error is not None:
            raise request.error
        return request.result

    def announce(self, address: str) -> None:
        """Name the address this server listens on in the journal's lock file."""
        if self.lock is not None:
            self.lock.announce(address)

    def close(self) -> None:
        """Write what is queued, then close the file (blocks: call it off the loop). A
        journal that cannot write tries once more and logs what it could not write."""
        if self._thread.is_alive():
            self._queue.append(_STOP)
            self._wake.set()
            self._thread.join()
        if self.lock is not None:
            self.lock.release()

    async def aclose(self) -> None:
        await trio.to_thread.run_sync(self.close)

    # -- the writer thread -------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                self._wake.wait(RETRY if self.failed is not None else LINGER)
                self._wake.clear()
                batch: list[object] = []
                while len(batch) < MAX_BATCH:
                    try:
                        batch.append(self._queue.popleft())
                    except IndexError:
                        break
                writes: list[Write] = self._held
                self._held = []
                for item in batch:
                    if item is _STOP:
                        self._commit(writes)
                        if self._held:
                            log.error(
                                "journal %s: closed with %d writes it could not make",
                                self.path,
                                len(self._held),
                            )
                        return
                    if isinstance(item, Read):
                        self._commit(writes)
                        writes = []
                        item.run(self.conn)
                    else:
                        writes.append(item)  # type: ignore[arg-type]
                self._commit(writes)
                self.cpu = time.thread_time()
        finally:
            self._wake_all(self.failed or "the journal is closed")
            self.conn.close()

    def _wake_all(self, failed: str) -> None:
        with self._mutex:
            waiting, self._waiters = self._waiters, []
        for waiter in waiting:
            waiter.wake(failed)

    def _committed(self, count: int) -> None:
        """``count`` more writes are committed: wake who waited for them (or for the
        journal to write again)."""
        with self._mutex:
            self.done += count
            recovered = self.failed is not None and not self._held
            if recovered:
                self.failed = None
            ready = [
                w
                for w in self._waiters
                if (w.target is None and self.failed is None)
                or (w.target is not None and w.target <= self.done)
            ]
            self._waiters = [w for w in self._waiters if w not in ready]
        if recovered:
            log.warning("journal %s: writes again; tables play on", self.path)
        for waiter in ready:
            waiter.wake()

    def _failing(self, why: str, writes: list[Write]) -> None:
        """The batch ``writes`` could not be committed: keep it, tell who waits."""
        first = self.failed is None
        with self._mutex:
            self.failed = why
            self._held = writes + self._held
            told = [w for w in self._waiters if not w.patient]
            self._waiters = [w for w in self._waiters if w.patient]
        if first:
            log.error(
                "journal %s: cannot write (%s); nothing is lost or half-written: tables pause "
                "and no new table or tournament is taken until it writes again (tried every "
                "%g s)",
                self.path,
                why,
                RETRY,
            )
        for waiter in told:
            waiter.wake(why)

    def _commit(self, writes: list[Write]) -> None:
        if not writes:
            return
        if self._held:  # a write before these failed: keep the order, try them all later
            self._held.extend(writes)
            return
        try:
            self._transaction(writes)
        except BAD_ROW as exc:  # a row's fault, not the file's: commit the others
            log.error("journal: a batch holds a row that cannot be written (%s)", exc)
            for at, write in enumerate(writes):
                try:
                    self._transaction([write])
                    self.written += 1
                except BAD_ROW as one:
                    log.error("journal: a row cannot be written and is left out: %s", one)
                    self.dropped += 1
                except (sqlite3.Error, OSError) as failed:
                    self._committed(at)
                    self._failing(f"{type(failed).__name__}: {failed}", writes[at:])
                    return
            self._committed(len(writes))
            return
        except (sqlite3.Error, OSError) as exc:
            self._failing(f"{type(exc).__name__}: {exc}", writes)
            return
        self.written += len(writes)
        self.commits += 1
        self._committed(len(writes))

    def _transaction(self, writes: list[Write]) -> None:
        """``writes`` in one transaction: all committed, or none (the error raised)."""
        groups = []
        for sql, same in itertools.groupby(self.blocks.pack(writes), key=lambda w: w[0]):
            rows = []
            for _, params in same:
                try:
                    rows.append(tuple(encode(p) for p in params))
                except (TypeError, ValueError) as exc:  # a bug upstream: lose that row only
                    log.error("journal: a row cannot be written and is left out: %s", exc)
            groups.append((sql, rows))
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.packer.save(self.conn)  # the dictionaries these rows need, with them
            for sql, rows in groups:
                if rows:
                    execute_rows(self.conn, sql, rows)
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.packer.saved()


def open_writer(path: str, synchronous: str = "NORMAL") -> JournalWriter:
    """The writer of the journal at ``path`` (:class:`JournalError` when it cannot be)."""
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise JournalError(f"unknown synchronous setting {synchronous!r}")
    return JournalWriter(path, synchronous.upper())
