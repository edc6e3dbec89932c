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

A table playing writes a **checkpoint** every ``checkpoint_every`` settled rounds (its game's
state as plain data, :attr:`~croupier.engine.games.Game.checkpoints`, with the tally; one row
per table, replaced each time). Recovery restores the latest one into a fresh table, checks
it (its digest, and its round and chips against the journal's row of that round) and replays
only the rounds after it, checked as above; a checkpoint that fails any check, or rounds
after it that do not replay, leave a log line saying why and the table is replayed whole.

A **scored** table is always replayed whole, its oracle seeing every event and decision
again as it did (its values depend on the cards seen since the shuffle), and its scorecards
start from the rounds the journal has scores of
(:mod:`croupier.protocol.journal.scores`); the rounds after them (settled, but their answers
not yet in when the server stopped) are scored again from the replay, and the table goes on
scoring.

The server serves while it recovers: before it accepts anyone it reads which tables it will
rebuild (:func:`pending_tables`), and until each is rebuilt a request naming it (or a token
of one of its seats) is answered ``recovering``, which clients retry; replays yield to the
event loop every :data:`SLICE` rounds, so ``hello`` and ``ping`` are answered at once.

Then the table plays on live: strategy seats carry on; a bot seat waits for its bot to take
it back (``table.rejoin`` with its token, compared by hash: :func:`croupier.protocol.slots.holds`)
for up to ``vacant_timeout`` seconds, and plays the default while it is empty, as after any
lost connection. A table that had not started waits for its seats again. Recovered tables
count against the server's ``max_tables``; those beyond it, and any the server cannot
rebuild (its game is no longer installed, its replay differs), are marked finished with
the reason.
"""

from __future__ import annotations

import hashlib
import json
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
from croupier.engine.scoring import oracle_for
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.journal.recovery import (
    Checkpoint,
    TableRecord,
    round_holding,
    settled_rounds,
    table_checkpoint,
)
from croupier.protocol.journal.scores import scored_rounds
from croupier.protocol.ownership import Ownership
from croupier.protocol.prepare import prepare_strategies
from croupier.protocol.tables.run import ServerTable
from croupier.protocol.transport.server import RpcServer

if TYPE_CHECKING:
    from croupier.protocol.tables.service import TableService

log = logging.getLogger("croupier.tables")

PAGE = 1000
"""Settled rounds read from the journal and replayed at a time."""
SLICE = 20
"""Settled rounds replayed between two turns of the event loop (about 10-30 ms): the server
answers pings, hellos and other tables' requests while a long table replays."""
PROGRESS_EVERY = 10.0
"""Seconds between the lines a long replay logs about its progress."""


def pending_tables(service: TableService, server: RpcServer, records: list[TableRecord]) -> None:
    """Before the server accepts anyone: the tables it will rebuild answer ``recovering``
    from now until they are rebuilt (:attr:`TableService.recovering`); those beyond
    ``max_tables`` are given up at once."""
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
        service.recovering[record.id] = frozenset(
            row.token_sha256 for row in record.seats if row.token_sha256 is not None
        )
        service.to_recover.append(record)
        service.recovering_summaries[record.id] = summary(record)
        open_ += 1
    if service.to_recover:  # the server serves meanwhile: say what it is doing
        rounds = sum(record.last_round for record in service.to_recover)
        log.info(
            "recovering %d unfinished table(s): %d settled rounds to replay",
            len(service.to_recover),
            rounds,
        )


async def recover_tables(service: TableService, server: RpcServer) -> int:
    """Rebuild the tables :func:`pending_tables` found into ``service``, setting each going
    once it is rebuilt (the server answers its requests ``recovering`` until then); how
    many were rebuilt."""
    rebuilt = 0
    while service.to_recover and not server.stopping:  # else they wait for the next start
        record = service.to_recover.pop(0)
        try:
            table = await rebuild_table(server, service, record)
        except Exception as exc:  # a game no longer installed, a replay that differs
            reason = f"not recovered: {exc}"
            server.journal.table_given_up(record.id, reason)
            log.error("table %d %s", record.id, reason)
            service.recovering.pop(record.id, None)
            continue
        service.tables[table.id] = table
        service.recovering.pop(record.id, None)
        rebuilt += 1
        if stopping(server):  # stopped meanwhile: it stays unfinished in the journal
            table.resume_later = True
            table.finish(table.stop_reason)
        elif table.state == "waiting":
            expire = partial(table.expire_unclaimed, service.unclaimed_timeout)
            server.spawn(expire, f"table {table.id} waits for bots")
        else:
            server.spawn(partial(resume, table), f"table {table.id}")
        service.abandon_if_orphaned(table, server)  # as when its creator's connection closed
        await trio.sleep(0)
    return rebuilt


def stopping(server: RpcServer) -> bool:
    """Whether the server is stopping now (a call: mypy would keep a loop's narrowing of the
    property across the awaits in which it may change)."""
    return server.stopping


async def rebuild_table(
    server: RpcServer, service: TableService, record: TableRecord
) -> ServerTable:
    """The table ``record`` describes, its settled rounds replayed (not yet running): from
    its latest checkpoint when it has a good one, else from its first round."""
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
        owner=Ownership.recovered(record.key_sha256, present=not record.creator_left),
        game=game,
        options=options,
        scored=bool(settings.get("scored")),
        score_bets=bool(settings.get("score_bets")),
    )
    for row in record.seats:
        seat = table.seats[row.seat - 1]
        if row.kind == "bot" and row.token_sha256 is not None:
            seat.token_sha256, seat.bot = row.token_sha256, row.player
    if record.state == "waiting":
        return table
    checkpoint = await server.journal.read(partial(table_checkpoint, table=record.id))
    if checkpoint is not None and game.checkpoints is not None and not table.scored:
        try:
            engine, played = await Replay(server, record, table).run(checkpoint)
        except CroupierError as exc:
            log.warning(
                "table %d: its checkpoint after round %d is not used (%s): replaying all %d rounds",
                record.id,
                checkpoint.round,
                exc,
                record.last_round,
            )
        else:
            table.resumed(engine, played)
            server.journal.table_recovered(record.id, record.last_event, record.game)
            return table
    engine, played = await Replay(server, record, table).run(None)
    if engine.scorer is not None:  # the rounds scored before the restart, as they were
        engine.scorer.restore(await server.journal.read(partial(scored_rounds, table=record.id)))
    table.resumed(engine, played)
    server.journal.table_recovered(record.id, record.last_event, record.game)
    return table


class Replay:
    """One attempt at rebuilding a table's game: restored from a checkpoint (checked against
    the journal's row of its round) or made fresh, then the settled rounds after it replayed
    and checked event for event, a slice of :data:`SLICE` rounds at a time (the server
    answers other requests between slices)."""

    def __init__(self, server: RpcServer, record: TableRecord, table: ServerTable) -> None:
        self.server, self.record, self.table = server, record, table
        self.replayed: list[dict[str, Any]] = []
        oracle = None
        if table.scored:  # it sees every event and decision again, as the table did
            oracle = oracle_for(server.manager, table.game.name).new(table.options)
        self.engine = GameTable(
            table.game,
            table.options,
            record.seed,
            table.players(),
            chips=record.chips,
            decision_time=table.decision_time,
            listeners=[self.replayed.append],
            stalls=server.loop_watch.stalled,
            oracle=oracle,
            defer_scoring=True,
        )
        if self.engine.scorer is not None:  # the bets as the table scored them
            self.engine.scorer.bets = table.score_bets

    async def run(self, checkpoint: Checkpoint | None) -> tuple[GameTable, int]:
        """The game table after the journal's last settled round, and that round."""
        record, engine = self.record, self.engine
        seats = len(self.table.seats)
        tally = GameTally.of(seats, self.table.game)
        after, played, chips_after = 0, 0, list(record.chips)
        if checkpoint is not None:
            after, played, chips_after = await self._restore(checkpoint)
            tally, engine.tally = engine.tally, tally  # the replay's own emits count nowhere
            log.info(
                "table %d: restored from its checkpoint after round %d; %d rounds to replay",
                record.id,
                played,
                record.last_round - played,
            )
        replay = LogReplay(engine.core, self.table.game, seats, self.replayed, scorer=engine.scorer)
        said = trio.current_time()
        while page := await self.server.journal.read(
            partial(settled_rounds, table=record.id, after=after, limit=PAGE)
        ):
            if trio.current_time() - said >= PROGRESS_EVERY:
                said = trio.current_time()
                log.info("table %d: %d of %d rounds replayed", record.id, played, record.last_round)
            for start in range(0, len(page), SLICE):
                events = [
                    event for settled in page[start : start + SLICE] for event in settled.events
                ]
                replay.feed(events)
                for event in events:  # the faults too: defaults are the players', not the game's
                    tally.add(event)
                await trio.sleep(0)
            after, played, chips_after = page[-1].first, page[-1].round, page[-1].chips
        chips = self._chips()
        if chips != chips_after:
            raise CroupierError(f"its replay ends with chips {chips}, the journal {chips_after}")
        if record.last_round != played:  # the pages missed a round
            raise CroupierError(
                f"its replay ends at round {played}, the journal at {record.last_round}"
            )
        engine.tally = tally
        return engine, played

    async def _restore(self, checkpoint: Checkpoint) -> tuple[int, int, list[int]]:
        """Restore ``checkpoint`` into the fresh table, checked: its digest, its data, and
        the chips of the journal's row of its round. Where the replay goes on from."""
        if hashlib.sha256(checkpoint.data.encode()).hexdigest() != checkpoint.digest:
            raise CroupierError("its digest does not match its data")
        try:
            state = json.loads(checkpoint.data)
        except ValueError as exc:
            raise CroupierError(f"it is not JSON: {exc}") from None
        if not isinstance(state, dict):
            raise CroupierError("it is not a map")
        row = await self.server.journal.read(
            partial(round_holding, table=self.record.id, event=checkpoint.last)
        )
        if row is None or row.round != checkpoint.round:
            raise CroupierError(f"the journal has no round {checkpoint.round} ending there")
        self.engine.restore_state(state)
        if self.engine.core.round != checkpoint.round or self._chips() != row.chips:
            raise CroupierError(
                f"it restores round {self.engine.core.round} with chips {self._chips()}, the "
                f"journal has round {row.round} with {row.chips}"
            )
        return row.first, row.round, row.chips

    def _chips(self) -> list[int]:
        balances = self.engine.ledger.balances
        return [balances[seat_account(seat.index)] for seat in self.table.seats]


def summary(record: TableRecord) -> dict[str, Any]:
    """A table being rebuilt as ``table.list`` shows it: the keys of ``table.info``, state
    ``recovering``, ``played`` its last settled round, and nil for what only its replay
    will tell (its chips, hands and house)."""
    settings = record.settings
    return {
        "table": record.id,
        "game": record.game,
        "state": "recovering",
        "rule_set": record.rule_set,
        "rules": dict(record.rules),
        **SeedCommitment(record.seed, record.salt).public(False),
        "seats": [
            {"seat": row.seat, "kind": row.kind, "player": row.player} for row in record.seats
        ],
        "rounds": settings.get("rounds"),
        "played": record.last_round,
        "decision_time": settings.get("decision_time"),
        "reason": None,
        "min_chips": None,
        "chips": None,
        "hands": None,
        "house": None,
    }


async def resume(table: ServerTable) -> None:
    """Play a recovered table on, once its bots are back (or ``vacant_timeout`` passed)."""
    waiting = [seat for seat in table.seats if seat.held]
    if waiting:
        with trio.move_on_after(table.vacant_timeout):
            while not all(seat.present for seat in waiting) and not table.stop_requested:
                await table.wait_seats()
    log.info("table %d resumes after round %d", table.id, table.played)
    await table.run()
