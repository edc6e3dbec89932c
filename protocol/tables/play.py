"""A table's rounds, dealt one after another until it has a reason to finish: its rounds
played, a stop, every bot gone, nobody present who can pay the minimum, its creator's journal
quota used. Between rounds it records the chips (and a checkpoint every ``checkpoint_every``
rounds) in the journal, keeps the journal close behind, and pauses while the journal cannot
write: a table never deals what it cannot record."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import trio

from croupier.engine.gametable import GameTable
from croupier.engine.ledger import seat_account

if TYPE_CHECKING:
    from croupier.protocol.tables.run import ServerTable

log = logging.getLogger("croupier.tables")


async def play_rounds(table: ServerTable, engine: GameTable) -> str:
    """Deal ``table``'s rounds on ``engine`` until it should finish; why it finishes."""
    minimum = table.min_chips
    broke = _broke(table, engine, minimum)
    while True:
        if table.stop_requested:
            return table.stop_reason
        if table.rounds is not None and table.played >= table.rounds:
            return f"{table.rounds} rounds played"
        if table.has_bots and not await _someone_seated(table):
            return "every bot left"
        if table.server.journal.failed is not None:
            await _pause(table)
            continue  # stopped meanwhile, perhaps
        quota = table.server.limits.journal_quota
        if quota and table.owner.host and table.server.journal.usage(table.owner.host) >= quota:
            return f"its creator's address used its journal quota ({quota:,} bytes)"
        if not await _someone_can_stake(table, engine, minimum):
            return _not_dealt(table, len(broke) == len(table.seats))
        if not await engine.play_round():
            return "no seat can pay the minimum"
        table.played += 1
        now_broke = _broke(table, engine, minimum)
        if now_broke - broke:  # tell the seats (a bot that cannot play on leaves)
            for index in sorted(now_broke - broke):
                log.info("table %d: seat %d cannot pay the minimum any more", table.id, index)
            table.broadcast_status()
        broke = now_broke
        if table.server.journal.enabled:
            balances = engine.ledger.balances
            chips = [balances[seat_account(seat.index)] for seat in table.seats]
            table.server.journal.table_round(table.id, table.played, chips)
            every = table.server.limits.checkpoint_every
            if every > 0 and table.played % every == 0:
                _checkpoint(table, engine)
            if table.server.journal.sync_rounds:  # serve --sync: durable before the next
                await table.server.journal.durable(patient=True)
            else:
                await table.server.journal.keep_up()  # never more than a moment ahead
        # A round of strategies and vacant seats never waits on anything: yield, so
        # that connections (a bot rejoining, a watcher) get their turn between rounds.
        await trio.sleep(0)


def _not_dealt(table: ServerTable, all_broke: bool) -> str:
    """Why a table that will deal no more rounds finishes."""
    if table.stop_requested:
        return table.stop_reason
    return "no seat can pay the minimum" if all_broke else "nobody present can pay the minimum"


def _broke(table: ServerTable, engine: GameTable, minimum: int) -> set[int]:
    """The seats with fewer chips than a round needs (``Game.seat_minimum``)."""
    balances = engine.ledger.balances
    return {s.index for s in table.seats if balances[seat_account(s.index)] < minimum}


def _can_stake(table: ServerTable, engine: GameTable, minimum: int) -> bool:
    """A seat that someone plays (a strategy, a connected bot) has the minimum."""
    broke = _broke(table, engine, minimum)
    return any(
        (seat.strategy is not None or seat.present) and seat.index not in broke
        for seat in table.seats
    )


async def _someone_can_stake(table: ServerTable, engine: GameTable, minimum: int) -> bool:
    """True when a seat someone plays can pay the minimum. When only empty seats (a
    person who quit, a bot gone) can, no round is dealt (it would stake nothing, at
    full speed): the table waits up to ``vacant_timeout`` for one of them to come back,
    as it waits for absent bots, then gives up (False). At once when no seat can."""
    if _can_stake(table, engine, minimum):
        return True
    if len(_broke(table, engine, minimum)) == len(table.seats):
        return False
    log.info(
        "table %d: nobody present can pay the minimum; it waits up to %g s for a seat "
        "that can to come back",
        table.id,
        table.vacant_timeout,
    )
    with trio.move_on_after(table.vacant_timeout):
        while not _can_stake(table, engine, minimum):
            if table.stop_requested:
                return False
            await table.wait_seats()
    return _can_stake(table, engine, minimum)


async def _pause(table: ServerTable) -> None:
    """The journal cannot write: deal nothing it cannot record. Seats and watchers get a
    ``table.status`` whose info says why (``paused``), and another once play resumes."""
    journal = table.server.journal
    table.paused = f"the server cannot write its journal ({journal.failed})"
    log.warning("table %d pauses: %s", table.id, table.paused)
    table.broadcast_status()
    try:
        with trio.CancelScope() as table.pause_scope:
            await journal.writable()
    finally:
        table.pause_scope = None
        table.paused = None
    log.info("table %d resumes: its journal writes again", table.id)
    table.broadcast_status()
    await trio.sleep(0)  # a journal closed meanwhile stays failed: never spin here


def _checkpoint(table: ServerTable, engine: GameTable) -> None:
    """Write the table's state after this round to the journal (when its game can save
    it): a restarted server replays only the rounds after it."""
    try:
        state = engine.save_state()
    except Exception as exc:  # a game plugin's bug costs the checkpoint, not the table
        log.error("table %d: no checkpoint after round %d: %r", table.id, table.played, exc)
        return
    if state is not None:
        table.server.journal.table_checkpoint(table.id, table.played, state)


async def _someone_seated(table: ServerTable) -> bool:
    """True when a bot holds a seat, waiting up to ``vacant_timeout`` for one to join."""
    with trio.move_on_after(table.vacant_timeout):
        while not any(seat.present for seat in table.seats):
            if table.stop_requested:
                return False
            await table.wait_seats()
    return any(seat.present for seat in table.seats)
