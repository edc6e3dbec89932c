"""What the server records: tables, their seats and events, tournaments, as plain data.

The services call these methods with what they already have (a table's ``info()``, an
event map, a token); each turns into one queued write and returns at once. The calls are
:class:`~croupier.protocol.journal.null.NullJournal`'s (which records nothing); here the
SQLite journal's start, reads and upkeep, with its table and tournament records from
:mod:`~croupier.protocol.journal.record_tables` and
:mod:`~croupier.protocol.journal.record_tournaments`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from croupier.protocol import botkeys
from croupier.protocol.botkeys import BotKey
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal import queries
from croupier.protocol.journal.kept import checkpoint_text, token_hash
from croupier.protocol.journal.null import DAY, MEMORY, NullJournal
from croupier.protocol.journal.record_tables import TableRecords
from croupier.protocol.journal.record_tournaments import TournamentRecords
from croupier.protocol.journal.writer import JournalWriter, open_writer

__all__ = [
    "DAY",
    "MEMORY",
    "Journal",
    "NullJournal",
    "checkpoint_text",
    "open_journal",
    "token_hash",
]


class Journal(TableRecords, TournamentRecords, NullJournal):
    """The SQLite journal at ``path`` (see :mod:`croupier.protocol.journal`)."""

    enabled = True

    def __init__(
        self,
        path: str,
        synchronous: str = "NORMAL",
        sync_rounds: bool = False,
        compact: bool = True,
    ) -> None:
        self.path = path
        self.compact = compact
        """Settled rounds packed (schema 5); False: as JSON text, as before it (to compare)."""
        self._games: dict[int, str] = {}
        """Per table, its game (whose dictionary packs its rows)."""
        self._addresses: dict[int, str] = {}
        """Per table created while the server runs, its creator's address (the quota)."""
        self.writer: JournalWriter = open_writer(path, synchronous)
        self.sync_rounds = sync_rounds
        self._seq: dict[int, int] = {}
        """Per table, the number of its last event written."""
        self._pending: dict[int, list[dict[str, Any]]] = {}
        """Per table, the events of the round in progress (written when it settles)."""
        self._clock: Callable[[], float] = time.time

    @property
    def failed(self) -> str | None:
        return self.writer.failed

    def usage(self, address: str) -> int:
        return self.writer.usage.get(address, 0)

    def check(self) -> None:
        if self.writer.failed is not None:
            raise RpcError(
                Code.JOURNAL_FAILED,
                f"the server cannot write its journal ({self.writer.failed}); it takes no new "
                "tables or tournaments until it writes again",
            )

    def last_id(self) -> int:
        """The highest table or tournament id recorded (a restarted server goes on above)."""
        return int(
            self.writer.read_sync(
                lambda c: c.execute(
                    "SELECT max(coalesce((SELECT max(id) FROM tables), 0),"
                    " coalesce((SELECT max(id) FROM tournaments), 0))"
                ).fetchone()[0]
            )
        )

    def new_run(self) -> int:
        """Record a start of the server: its number, 1 on a fresh journal and one more at
        each start after (never reused, even once rows are deleted)."""

        def insert(conn: sqlite3.Connection) -> int:
            cursor = conn.execute("INSERT INTO runs (started) VALUES (?)", (self._clock(),))
            return int(cursor.lastrowid or 0)

        return int(self.writer.read_sync(insert))

    async def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        return await self.writer.read(fn)

    async def keep_up(self) -> None:
        await self.writer.keep_up()

    async def durable(self, patient: bool = False) -> None:
        await self.writer.durable(patient)

    async def writable(self) -> None:
        await self.writer.writable()

    def announce(self, address: str) -> None:
        self.writer.announce(address)

    async def aclose(self) -> None:
        await self.writer.aclose()

    async def prune(self, keep_days: float, now: float | None = None) -> tuple[int, int]:
        """Delete what finished more than ``keep_days`` days before ``now``; how many tables
        and tournaments went."""
        before = (self._clock() if now is None else now) - keep_days * DAY
        tables, tournaments = await self.writer.read(partial(queries.prune, before=before))
        return tables, tournaments

    def close(self) -> None:
        self.writer.close()

    # -- registered bots ---------------------------------------------------------------------
    def bot_keys(self) -> list[BotKey]:
        found: list[BotKey] = self.writer.read_sync(botkeys.load)
        return found

    def bot_key_added(self, entry: BotKey) -> None:
        self.writer.put(botkeys.INSERT, botkeys.insert_params(entry))

    def bot_key_revoked(self, entry: BotKey) -> None:
        self.writer.put(botkeys.REVOKE, (entry.revoked, entry.name))


def open_journal(path: str, synchronous: str = "NORMAL", sync_rounds: bool = False) -> NullJournal:
    """The journal at ``path``; ``:memory:`` gives a :class:`NullJournal`. ``sync_rounds``
    (``serve --sync``): each round committed before the next is dealt."""
    return NullJournal() if path == MEMORY else Journal(path, synchronous, sync_rounds)
