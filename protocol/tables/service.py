"""The tables service: create tables, take seats with tokens, watch, list, start.

How a table runs (``docs/protocol.md`` has the full story):

- ``table.create`` makes a table from a rule set name plus option overrides, a seed
  (derived from the server's seed when nil; while the table plays only a
  commitment to it is shown, see :mod:`croupier.protocol.commitment`), a number of seats, the
  built-in strategies that fill some of them, a number of rounds (nil: until it empties)
  and a per-decision time limit.
- It starts when every seat is taken (``autostart``), or on ``table.start`` once every
  seat is taken. A table of built-in strategies only starts at once.
- It plays until its rounds are played, no seat can pay the minimum, or no bot has been
  seated for ``vacant_timeout`` seconds at the start of a round; on shutdown it finishes
  the hand in progress first.
- A seat that a bot left or lost plays the default (bet the minimum, stand) until a bot
  takes it: the same bot with its token (``table.rejoin``), or, after ``table.leave``,
  any bot (``table.join``).

The methods' declarations are :mod:`.api`, ``table.create``'s checks :mod:`.create`, a
table as it plays :mod:`.run`, its recovery after a restart :mod:`.recovery`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Iterator
from functools import partial
from typing import Any

import trio

from croupier.protocol.errors import Code, RpcError, recovering
from croupier.protocol.journal.record import token_hash
from croupier.protocol.journal.recovery import TableRecord, unfinished_tables
from croupier.protocol.ownership import is_operator
from croupier.protocol.slots import check_auto, may_sit
from croupier.protocol.tables.api import table_methods
from croupier.protocol.tables.recovery import pending_tables, recover_tables
from croupier.protocol.tables.rejoin import rejoin_table, table_seat
from croupier.protocol.tables.run import ServerTable
from croupier.protocol.transport.admission import peer_host
from croupier.protocol.transport.methods import Method, Service
from croupier.protocol.transport.server import Connection, RpcServer

log = logging.getLogger("croupier.tables")

KEEP_FINISHED = 64
"""Finished tables kept for ``table.info`` and ``table.list``, newest first out last."""


class TableService(Service):
    """Tables on the server. ``vacant_timeout``: seconds a table with no seated bot waits at
    the start of a round for one to (re)join before it finishes; ``unclaimed_timeout``:
    seconds a table that has not started yet waits with no bot in any seat."""

    def __init__(self, *, vacant_timeout: float = 60.0, unclaimed_timeout: float = 60.0) -> None:
        self.vacant_timeout = vacant_timeout
        self.unclaimed_timeout = unclaimed_timeout
        self.tables: dict[int, ServerTable] = {}
        self.recovering: dict[int, frozenset[str]] = {}
        """Tables being rebuilt from the journal after a restart, and their seats' token
        hashes: requests for them are answered ``recovering`` until they are back."""
        self.to_recover: list[TableRecord] = []
        self.recovering_summaries: dict[int, dict[str, Any]] = {}
        """Per table being rebuilt, what ``table.list`` shows of it meanwhile."""

    def methods(self) -> Iterable[Method]:
        return table_methods(self)

    # -- helpers ---------------------------------------------------------------------------
    def _get(self, table_id: int) -> ServerTable:
        found = self.tables.get(table_id)
        if found is None:
            if table_id in self.recovering:
                raise recovering(f"table {table_id}")
            raise RpcError(Code.UNKNOWN_NAME, f"no table {table_id}")
        return found

    def _by_token(self, token: str) -> tuple[ServerTable, int]:
        with self._recovering_token(token):
            return table_seat(self.tables.values(), token)

    @contextlib.contextmanager
    def _recovering_token(self, token: str) -> Iterator[None]:
        """A ``bad-token`` for a token of a table still being rebuilt is ``recovering``."""
        try:
            yield
        except RpcError as error:
            if error.code != Code.BAD_TOKEN or not self.recovering:
                raise
            digest = token_hash(token)
            for table_id, hashes in self.recovering.items():
                if digest in hashes:
                    raise recovering(f"table {table_id}") from None
            raise

    def open_tables(self) -> int:
        """Tables not finished (recovered ones and those being rebuilt included): what
        ``max_tables`` bounds."""
        return sum(t.state != "finished" for t in self.tables.values()) + len(self.recovering)

    def owned_open(self, conn: Connection) -> int:
        return sum(
            t.state != "finished" and t.owner.conn_id == conn.id for t in self.tables.values()
        )

    def forget_finished(self) -> None:
        finished = [i for i, t in self.tables.items() if t.state == "finished"]
        for table_id in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.tables[table_id]

    @staticmethod
    def _seated(conn: Connection, table: ServerTable, index: int, token: str) -> dict[str, Any]:
        if table.state == "waiting" and table.autostart and table.ready():
            table.start(conn.server.manager)
        return {"table": table.id, "seat": index, "token": token, "info": table.info()}

    # -- methods ---------------------------------------------------------------------------

    async def join(
        self, conn: Connection, table: int, seat: int | None, events: bool, auto: list[Any]
    ) -> dict[str, Any]:
        may_sit(conn)
        found = self._get(table)
        phases = check_auto(auto, found.game)
        if found.state == "finished":
            raise RpcError(Code.BAD_INPUT, f"table {table} has finished")
        if seat is None:
            free = [s for s in found.seats if s.free]
            if not free:
                raise RpcError(Code.SEAT_TAKEN, f"table {table} has no free seat")
            chosen = free[0]
        else:
            if not 1 <= seat <= len(found.seats):
                raise RpcError(
                    Code.BAD_INPUT, f"table {table} has seats 1 to {len(found.seats)}, not {seat}"
                )
            chosen = found.seats[seat - 1]
            if not chosen.free:
                raise RpcError(Code.SEAT_TAKEN, f"seat {seat} of table {table} is taken")
        token = found.take(chosen, conn, events, phases)
        try:  # a seat whose token is not recorded is not given: a crash would lose it
            await conn.server.journal.durable()
        except RpcError:
            self._free(found, chosen.index)  # recorded free after the take, in order
            raise
        log.info("table %d: %s takes seat %d", table, conn, chosen.index)
        return self._seated(conn, found, chosen.index, token)

    async def rejoin(
        self, conn: Connection, token: str, events: bool, auto: list[Any]
    ) -> dict[str, Any]:
        with self._recovering_token(token):
            table, index = rejoin_table(self.tables.values(), conn, token, events, auto)
        return self._seated(conn, table, index, token)

    async def leave(self, conn: Connection, token: str) -> None:
        table, index = self._by_token(token)
        self._free(table, index)
        log.info("table %d: seat %d is given up by %s", table.id, index, conn)

    @staticmethod
    def _free(table: ServerTable, index: int) -> None:
        seat = table.seats[index - 1]
        seat.token = seat.conn = seat.bot = None
        seat.auto = frozenset()
        table.server.journal.table_seat(table.id, seat.describe(), None)
        table.seat_changed()

    async def start(self, conn: Connection, table: int, key: str | None) -> dict[str, Any]:
        found = self._get(table)
        found.owner.check(conn, key, f"table {table}", "start")
        if found.state != "waiting":
            raise RpcError(Code.BAD_INPUT, f"table {table} is {found.state}, not waiting")
        if not found.ready():
            free = ", ".join(str(s.index) for s in found.seats if s.free)
            raise RpcError(Code.BAD_INPUT, f"table {table} has free seats: {free}")
        found.start(conn.server.manager)
        return found.info()

    async def stop(self, conn: Connection, table: int, key: str | None) -> dict[str, Any]:
        found = self._get(table)
        found.owner.check(conn, key, f"table {table}", "stop")
        if found.state != "finished":
            who = "its creator" if conn.id == found.owner.conn_id else str(conn)
            log.info("table %d stopped by %s", table, who)
            found.stop(f"stopped by {who}", conn.server.limits.decision_timeout)
            await found.done.wait()
        return found.info()

    async def watch(self, conn: Connection, table: int) -> dict[str, Any]:
        found = self._get(table)
        if found.state == "finished":
            raise RpcError(Code.BAD_INPUT, f"table {table} has finished")
        known = found.subscribers.get(conn.id)
        if known is None or known.dropped or not known.events:
            host, cap = peer_host(conn.peer), conn.server.limits.watchers_per_peer
            if found.watchers_from(host) >= cap:
                raise RpcError(
                    Code.LIMIT_EXCEEDED,
                    f"{cap} connections from {host} watch table {table} already (at most {cap})",
                )
        found.subscribe(conn)
        return found.info()

    async def unwatch(self, conn: Connection, table: int) -> None:
        self._get(table).unsubscribe(conn)

    async def info(self, conn: Connection, table: int) -> dict[str, Any]:
        return self._get(table).info()

    async def list_tables(self, conn: Connection) -> list[dict[str, Any]]:
        """Every table: those in play, and those still being rebuilt (state
        ``recovering``, from the journal's record: what it can say before the replay)."""
        rebuilding = [
            summary
            for table_id, summary in self.recovering_summaries.items()
            if table_id in self.recovering and table_id not in self.tables
        ]
        return [table.info() for table in self.tables.values()] + rebuilding

    async def reveal_seed(self, conn: Connection, table: int, key: str | None) -> dict[str, Any]:
        found = self._get(table)
        if not found.revealed and not is_operator(conn, key):
            raise RpcError(
                Code.NOT_ALLOWED,
                f"table {table} is {found.state}: its seed is shown once it finishes "
                "(before, only to the operator key)",
            )
        return {"table": found.id, **found.commitment.public(True)}

    # -- lifecycle -------------------------------------------------------------------------
    async def prepare_recovery(self, server: RpcServer) -> None:
        """Read which tables the journal holds unfinished: they answer ``recovering`` until
        :meth:`recover` has rebuilt them (:mod:`croupier.protocol.tables.recovery`)."""
        pending_tables(self, server, await server.journal.read(unfinished_tables))

    async def recover(self, server: RpcServer) -> dict[str, int]:
        """Carry on the journal's unfinished tables (:mod:`croupier.protocol.tables.recovery`)."""
        return {"tables": await recover_tables(self, server)}

    async def connection_closed(self, connection: Connection) -> None:
        server = connection.server
        for table in self.tables.values():
            if table.owner.conn_id == connection.id and table.owner.present:
                table.owner.present = False
                if not server.stopping and table.state != "finished":  # the creator left
                    server.journal.table_creator_left(table.id)
            table.unsubscribe(connection)  # ends its pump task, which would wait for ever
            for seat in table.seats:
                if seat.conn is connection and table.state != "finished":
                    seat.conn = None
                    table.seat_changed()
                    log.info(
                        "table %d: the bot in seat %d is gone; the seat plays the default "
                        "until it rejoins with its token",
                        table.id,
                        seat.index,
                    )
            self.abandon_if_orphaned(table, server)

    @staticmethod
    def abandon_if_orphaned(table: ServerTable, server: RpcServer) -> None:
        """Stop ``table`` ``abandoned_timeout`` seconds from now if its creator has left and
        no bot of its own is connected then (the rule is the same for a table recovered
        after a restart: the journal keeps whether its creator had left)."""
        if table.orphaned() and not table.abandon_pending:
            table.abandon_pending = True
            wait = partial(table.end_if_abandoned, server.limits.abandoned_timeout)
            server.spawn(wait, f"table {table.id} abandoned?")

    async def shutdown(self) -> None:
        """Let every table finish its hand in progress, then flush what watchers are owed."""
        tables = [t for t in self.tables.values() if t.state != "finished"]
        for table in tables:
            table.resume_later = table.server.resumes  # left unfinished in the journal
            table.stop()
        for table in tables:
            await table.done.wait()
        with trio.move_on_after(2.0):
            for table in tables:
                await table.flush(2.0)
