"""The history methods: what the server's journal holds, finished or running.

Tables and tournaments are listed newest first with filters (game, state, created since)
and paging (``limit`` from ``offset``); one table or tournament comes with its settings and
result, a table's events page by page, and its log as the JSON lines that
``croupier.engine.gamelog.replay_game`` reads. Every read runs in the journal's thread after
the writes queued before it, so a table that just finished is in the history. A server
started with ``--data :memory:`` has no journal and answers ``bad-input``.

A finished tournament's table is replayed from its seed and its ``tcp`` seats' recorded
answers (:mod:`croupier.protocol.tournament_replay`): ``history.tournament_table`` gives its
record as ``history.table`` gives a server table's, ``history.tournament_events`` its events.

The journal has one thread, which writes too: reads take turns in a fair pool of one slot
(:func:`read_pool`), so a client that sends many reads gets one at a time and everybody
else's come between them, rather than all of them queueing ahead in the thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import attrs

from croupier.engine import CroupierError
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal import queries
from croupier.protocol.tournament_replay import StoredTable, read_table, replayed_events
from croupier.protocol.transport.fairpool import FairPool
from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection, RpcServer

_OPT_STR = (str, type(None))
_POOL = "history.reads"


def page_cost(params: dict[str, Any]) -> float:
    """Tokens a history read takes from its caller's request budget: 5, plus 1 per 20
    items of the page asked for (a full page of 1000: 55)."""
    limit: int = params.get("limit", 0)
    return 5.0 + max(0, limit) / 20


def read_pool(server: RpcServer) -> FairPool:
    """The server's turns at the journal thread for history reads: one read at a time, the
    connections in turn, a few waiting per connection (``busy`` beyond), as the workers'."""
    pool = server.state.get(_POOL)
    if pool is None:
        limits = server.limits
        pool = server.state[_POOL] = FairPool(
            "history",
            1,
            max_waiting=limits.work_queue,
            per_owner=limits.work_queue_per_connection,
            max_wait=limits.solver_timeout,
        )
    return pool


async def _read(conn: Connection, fn: Callable[..., Any]) -> Any:
    try:
        async with read_pool(conn.server).turn(conn.id):
            return await conn.server.journal.read(fn)
    except queries.Missing as exc:
        raise RpcError(Code.UNKNOWN_NAME, str(exc)) from None
    except CroupierError as exc:
        raise RpcError(Code.BAD_INPUT, str(exc)) from None


class HistoryService(Service):
    """``history.*``: the journal's tables and tournaments (see the module docstring)."""

    def methods(self) -> Iterable[Method]:
        filters = (
            Param("game", _OPT_STR, None, doc="only this game; nil: every game"),
            Param(
                "state",
                _OPT_STR,
                None,
                doc="waiting, playing, finished or running (not finished); nil: any",
            ),
            Param("since", (float, type(None)), None, doc="created at or after (Unix time)"),
            Param("limit", (int,), 50, doc=f"at most this many (1 to {queries.MAX_PAGE})"),
            Param("offset", (int,), 0, doc="skip this many (paging)"),
        )
        table = Param("table", (int,), doc="a table id")
        page = (
            Param("offset", (int,), 0, doc="skip this many"),
            Param("limit", (int,), queries.MAX_PAGE, doc=f"1 to {queries.MAX_PAGE}"),
        )
        at_table = (
            Param("tournament", (int,), doc="a tournament id"),
            Param("tourney", (int,), doc="the table's tourney"),
            Param("round", (int,), doc="its round"),
            Param("table", (int,), doc="its number in the round"),
        )
        methods = [
            Method(
                "history.tables",
                filters,
                self.tables,
                "the journal's tables, newest first",
                returns="{total, tables: [summary]}",
                watcher=True,
            ),
            Method(
                "history.tournaments",
                filters,
                self.tournaments,
                "the journal's tournaments, newest first",
                returns="{total, tournaments: [summary]}",
                watcher=True,
            ),
            Method(
                "history.table",
                (table,),
                self.table,
                "one table: settings, seats, result",
                returns="table record",
                watcher=True,
            ),
            Method(
                "history.events",
                (table, *page),
                self.events,
                "a table's events in order",
                returns="[event]",
                watcher=True,
            ),
            Method(
                "history.export",
                (table, *page),
                self.export,
                "a table's log as JSON lines (line 0: the header)",
                returns="{lines, next}",
                watcher=True,
            ),
            Method(
                "history.scores",
                (table, *page),
                self.scores,
                "a scored table's scored decisions in order (round, seat): each "
                "{round, seat, phase, taken, best, value_taken, value_best, loss, staked, "
                "edge, table}; empty for a table that was not scored",
                returns="[scored decision]",
                watcher=True,
            ),
            Method(
                "history.tournament",
                (Param("tournament", (int,), doc="a tournament id"),),
                self.tournament,
                "one tournament: settings, entries, result",
                returns="tournament record",
                watcher=True,
            ),
            Method(
                "history.tournament_table",
                at_table,
                self.tournament_table,
                "one table of a finished tournament: settings, seats, result, replayed from "
                "its seed and its tcp seats' recorded answers",
                returns="table record",
                watcher=True,
            ),
            Method(
                "history.tournament_events",
                (*at_table, *page),
                self.tournament_events,
                "a finished tournament's table's events in order, as it was dealt (replayed "
                "from its seed and its tcp seats' recorded answers)",
                returns="[event]",
                watcher=True,
            ),
        ]
        return [attrs.evolve(m, cost=page_cost) for m in methods]

    async def tables(
        self,
        conn: Connection,
        game: str | None,
        state: str | None,
        since: float | None,
        limit: int,
        offset: int,
    ) -> Any:
        return await _read(conn, partial(queries.list_tables, **_args(locals())))

    async def tournaments(
        self,
        conn: Connection,
        game: str | None,
        state: str | None,
        since: float | None,
        limit: int,
        offset: int,
    ) -> Any:
        return await _read(conn, partial(queries.list_tournaments, **_args(locals())))

    async def table(self, conn: Connection, table: int) -> Any:
        return await _read(conn, partial(queries.get_table, table=table))

    async def events(self, conn: Connection, table: int, offset: int, limit: int) -> Any:
        return await _read(
            conn, partial(queries.table_events, table=table, offset=offset, limit=limit)
        )

    async def export(self, conn: Connection, table: int, offset: int, limit: int) -> Any:
        return await _read(
            conn, partial(queries.export_lines, table=table, offset=offset, limit=limit)
        )

    async def scores(self, conn: Connection, table: int, offset: int, limit: int) -> Any:
        return await _read(
            conn, partial(queries.table_scores, table=table, offset=offset, limit=limit)
        )

    async def tournament(self, conn: Connection, tournament: int) -> Any:
        return await _read(conn, partial(queries.get_tournament, tournament=tournament))

    async def _stored(
        self, conn: Connection, tournament: int, tourney: int, round_: int, table: int
    ) -> StoredTable:
        found: StoredTable = await _read(
            conn,
            partial(read_table, tournament=tournament, tourney=tourney, round_=round_, table=table),
        )
        return found

    async def tournament_table(
        self, conn: Connection, tournament: int, tourney: int, round: int, table: int
    ) -> Any:
        stored = await self._stored(conn, tournament, tourney, round, table)
        events = await _replayed(conn, stored)
        return {**stored.record(), "events": len(events)}

    async def tournament_events(
        self,
        conn: Connection,
        tournament: int,
        tourney: int,
        round: int,
        table: int,
        offset: int,
        limit: int,
    ) -> Any:
        try:
            queries.check_page(limit, offset)
        except CroupierError as exc:
            raise RpcError(Code.BAD_INPUT, str(exc)) from None
        stored = await self._stored(conn, tournament, tourney, round, table)
        events = await _replayed(conn, stored)
        return events[offset : offset + limit]


async def _replayed(conn: Connection, stored: StoredTable) -> list[dict[str, Any]]:
    try:
        return await replayed_events(conn, stored)
    except CroupierError as exc:
        raise RpcError(Code.BAD_INPUT, str(exc)) from None


def _args(given: dict[str, Any]) -> dict[str, Any]:
    return {k: given[k] for k in ("game", "state", "since", "limit", "offset")}
