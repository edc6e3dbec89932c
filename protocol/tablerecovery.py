"""Crash recovery of tables: rebuild every unfinished table from the journal and go on.

A table's play depends only on its game, options, seed, starting chips and the actions
applied, so a restarted server rebuilds it from what the journal holds: the same
:class:`~croupier.engine.gametable.GameTable` (same seats, same players, same decision
time) is made again from the seed, and the actions of every **settled** round are replayed
into its game through the game interface
(:class:`~croupier.engine.logreplay.LogReplay`, a page of :data:`PAGE` rounds at a time, so
a long table needs the memory of a page), which checks that every event comes out as it was
recorded and leaves the game (its shoe, its ledger) exactly where it was after the last
settled round. The round that was in progress was never written (a round is one
row, written whole once it settles), so it is dealt again from the same seed: nothing is
settled twice, and a table of strategies ends exactly as if it had never stopped.

Then the table plays on live: strategy seats carry on; a bot seat waits for its bot to take
it back (``table.rejoin`` with its token, compared by hash: :mod:`croupier.protocol.rejoin`)
for up to ``vacant_timeout`` seconds, and plays the default while it is empty, as after any
lost connection. A table that had not started waits for its seats again. Recovered tables
count against the server's ``max_tables``; those beyond it, and any the server cannot
rebuild (its game is no longer installed, its replay differs), are marked finished with
the reason.
"""

from __future__ import annotations

import logging
import math
from functools import partial
from typing import TYPE_CHECKING, Any

import trio

from croupier.engine import CroupierError
from croupier.engine.gamelog import GameTally
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.engine.logreplay import LogReplay
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.journal.recovery import TableRecord, settled_rounds, unfinished_tables
from croupier.protocol.ownership import Ownership
from croupier.protocol.prepare import prepare_strategies
from croupier.protocol.server import Server
from croupier.protocol.tablerun import ServerTable

if TYPE_CHECKING:
    from croupier.protocol.tables import TableService

log = logging.getLogger("croupier.tables")

PAGE = 1000
"""Settled rounds read from the journal and replayed at a time."""
PROGRESS_EVERY = 10.0
"""Seconds between the lines a long replay logs about its progress."""


async def recover_tables(service: TableService, server: Server) -> int:
    """Rebuild the journal's unfinished tables into ``service`` and set them going; how many."""
    records: list[TableRecord] = await server.journal.read(unfinished_tables)
    if records:  # the server listens once they are rebuilt: say what it is doing meanwhile
        rounds = sum(record.last_round for record in records)
        log.info(
            "recovering %d unfinished table(s): %d settled rounds to replay", len(records), rounds
        )
    rebuilt: list[ServerTable] = []
    open_ = service.open_tables()
    for record in records:
        if open_ >= server.limits.max_tables:
            reason = (
                f"not recovered: the server takes at most {server.limits.max_tables} open "
                "tables (--tables)"
            )
            server.journal.table_given_up(record.id, reason)
            log.warning("table %d %s", record.id, reason)
            continue
        try:
            table = await rebuild_table(server, service, record)
        except Exception as exc:  # a game no longer installed, a replay that differs
            reason = f"not recovered: {exc}"
            server.journal.table_given_up(record.id, reason)
            log.error("table %d %s", record.id, reason)
            continue
        service.tables[table.id] = table
        rebuilt.append(table)
        open_ += 1
        await trio.sleep(0)
    for table in rebuilt:  # every table rebuilt first: none plays while the others replay
        if table.state == "waiting":
            expire = partial(table.expire_unclaimed, service.unclaimed_timeout)
            server.spawn(expire, f"table {table.id} waits for bots")
        else:
            server.spawn(partial(resume, table), f"table {table.id}")
    return len(rebuilt)


async def rebuild_table(server: Server, service: TableService, record: TableRecord) -> ServerTable:
    """The table ``record`` describes, its settled rounds replayed (not yet running)."""
    if record.unreadable is not None:
        raise CroupierError(record.unreadable)
    game = server.manager.games.get(record.game)
    options = game.rules(None, record.rules)
    settings = record.settings
    fill: list[str | None] = list(settings.get("fill", []))
    names = [name for name in fill if name is not None]
    ready = await prepare_strategies(server, game, names, options)
    fill_players: dict[int, GamePlayer] = {
        i + 1: GameStrategyPlayer(ready[name]) for i, name in enumerate(fill) if name is not None
    }
    decision_time = settings.get("decision_time")
    table = ServerTable(
        server,
        record.id,
        rule_set=record.rule_set,
        commitment=SeedCommitment(record.seed, record.salt),
        seats=int(settings["seats"]),
        fill=fill,
        fill_players=fill_players,
        rounds=settings.get("rounds"),
        decision_time=math.inf if decision_time is None else float(decision_time),
        autostart=bool(settings.get("autostart", True)),
        vacant_timeout=service.vacant_timeout,
        owner=Ownership.recovered(record.key_sha256),
        game=game,
        options=options,
    )
    for row in record.seats:
        seat = table.seats[row.seat - 1]
        if row.kind == "bot" and row.token_sha256 is not None:
            seat.token_sha256, seat.bot = row.token_sha256, row.player
    if record.state == "waiting":
        return table
    replayed: list[dict[str, Any]] = []
    engine = GameTable(
        game,
        options,
        record.seed,
        table.players(),
        chips=record.chips,
        decision_time=table.decision_time,
        listeners=[replayed.append],
        stalls=server.loop_watch.stalled,
    )
    replay = LogReplay(engine.core, game, len(table.seats), replayed)
    tally = GameTally.of(len(table.seats), game)
    after, played, chips_after = 0, 0, list(record.chips)
    said = trio.current_time()
    while page := await server.journal.read(
        partial(settled_rounds, table=record.id, after=after, limit=PAGE)
    ):
        if trio.current_time() - said >= PROGRESS_EVERY:
            said = trio.current_time()
            log.info("table %d: %d of %d rounds replayed", record.id, played, record.last_round)
        events = [event for settled in page for event in settled.events]
        replay.feed(events)
        for event in events:  # the faults too: defaults are the players', not the game's
            tally.add(event)
        after, played, chips_after = page[-1].first, page[-1].round, page[-1].chips
    balances = engine.ledger.balances
    chips = [balances[seat_account(seat.index)] for seat in table.seats]
    if chips != chips_after:
        raise CroupierError(f"its replay ends with chips {chips}, the journal {chips_after}")
    if record.last_round != played:  # the pages missed a round
        raise CroupierError(
            f"its replay ends at round {played}, the journal at {record.last_round}"
        )
    engine.tally = tally
    table.resumed(engine, played)
    server.journal.table_recovered(record.id, record.last_event)
    return table


async def resume(table: ServerTable) -> None:
    """Play a recovered table on, once its bots are back (or ``vacant_timeout`` passed)."""
    waiting = [seat for seat in table.seats if seat.held]
    if waiting:
        with trio.move_on_after(table.vacant_timeout):
            while not all(seat.present for seat in waiting) and not table.stop_requested:
                await table.wait_seats()
    log.info("table %d resumes after round %d", table.id, table.played)
    await table.run()
