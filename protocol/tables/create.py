"""``table.create``: its parameters checked (quotas, the game and its rules, seats, seed,
rounds, decision time, the strategies that fill seats) and the table they make, recorded in
the journal and waiting for its bots or playing at once."""

from __future__ import annotations

import logging
import math
from functools import partial
from typing import TYPE_CHECKING, Any

from croupier.engine import CroupierError
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer
from croupier.engine.scoring import check_score_bets, oracle_for
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.ownership import Ownership, check_peer_quota, check_quota
from croupier.protocol.prepare import prepare_strategies
from croupier.protocol.tables.run import ServerTable
from croupier.protocol.transport.admission import peer_host
from croupier.protocol.transport.server import Connection
from croupier.protocol.workers import game_plugin_bug

if TYPE_CHECKING:
    from croupier.protocol.tables.service import TableService

log = logging.getLogger("croupier.tables")

MAX_SEATS = 7
MAX_SEED = 2**64 - 1


async def create_table(
    service: TableService,
    conn: Connection,
    rules: str | None,
    options: dict[str, Any],
    seed: int | None,
    seats: int,
    fill: list[Any],
    rounds: int | None,
    decision_time: float | None,
    autostart: bool,
    game: str | None,
    scored: bool,
    score_bets: bool = False,
) -> dict[str, Any]:
    """``table.create`` for ``conn``: the new table's info and its key."""
    server = conn.server
    if server.stopping:
        raise RpcError(Code.SHUTTING_DOWN, "the server is shutting down")
    server.journal.check()
    check_quota(service.owned_open(conn), server.limits.tables_per_connection, "tables")
    host = peer_host(conn.peer)
    limits = server.limits
    used = server.journal.usage(host)
    if limits.journal_quota and used >= limits.journal_quota:
        raise RpcError(
            Code.LIMIT_EXCEEDED,
            f"the tables of {host} have written {used:,} bytes to the journal, its quota "
            f"(--journal-quota) is {limits.journal_quota:,}: no more tables",
        )
    check_peer_quota(
        service.tables.values(), host, limits.peer_tables(), limits.max_tables, "tables"
    )
    if service.open_tables() >= server.limits.max_tables:
        raise RpcError(Code.LIMIT_EXCEEDED, f"at most {server.limits.max_tables} open tables")
    played = server.game(game)  # unknown: unknown-name
    if scored:
        oracle_for(server.manager, played.name)  # none: one line (bad input)
    if score_bets:
        if not scored:
            raise RpcError(Code.BAD_INPUT, "score_bets goes with scored: true")
        check_score_bets(server.manager, played.name)  # no dear bets: one line
    rules = played.default_rules(rules)
    if rules is not None and rules not in played.rule_sets:
        known = ", ".join(played.rule_sets)
        raise RpcError(
            Code.UNKNOWN_NAME, f"{played.name} has no rule set {rules!r}; known: {known}"
        )
    try:
        options = played.rules(rules, options)
    except CroupierError:
        raise
    except Exception as exc:
        raise RpcError(Code.INTERNAL_ERROR, game_plugin_bug(server.manager, played, exc)) from None
    if seats > played.max_seats:
        raise RpcError(Code.BAD_INPUT, f"a {played.name} table has 1 to {played.max_seats} seats")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise RpcError(Code.BAD_INPUT, f"a seed is 0 to 2**64-1, not {seed}")
    if not 1 <= seats <= MAX_SEATS:
        raise RpcError(Code.BAD_INPUT, f"a table has 1 to {MAX_SEATS} seats, not {seats}")
    if len(fill) > seats:
        raise RpcError(Code.BAD_INPUT, f"fill names {len(fill)} seats, the table has {seats}")
    if any(name is not None and not isinstance(name, str) for name in fill):
        raise RpcError(Code.BAD_INPUT, "fill holds strategy names or nil")
    limit = server.limits.decision_timeout
    if decision_time is None:
        # no limit (a person at the terminal): only the one waiting can be kept waiting
        if sum(1 for i in range(seats) if i >= len(fill) or fill[i] is None) != 1:
            raise RpcError(
                Code.BAD_INPUT, "decision_time nil (no limit) needs exactly one bot seat"
            )
        decision_time = math.inf
    elif not 0 < decision_time <= limit:
        raise RpcError(Code.BAD_INPUT, f"decision_time must be in (0, {limit:g}] seconds")
    most = server.limits.max_rounds
    if rounds is not None and not 1 <= rounds <= most:
        raise RpcError(Code.BAD_INPUT, f"rounds must be 1 to {most:,} (or nil), not {rounds}")
    for name in fill:  # an unknown strategy is named before what else the call lacks
        if name is not None:
            played.strategy(name)
    if rounds is None and fill and len(fill) == seats and None not in fill:
        raise RpcError(Code.BAD_INPUT, "a table of strategies only needs a number of rounds")
    names = [name for name in fill if name is not None]
    ready = await prepare_strategies(conn, played, names, options)
    fill_players: dict[int, GamePlayer] = {
        i + 1: GameStrategyPlayer(ready[name]) for i, name in enumerate(fill) if name is not None
    }
    if seed is None:
        seed = server.derive_seed("table")
    table = ServerTable(
        server,
        server.next_game_id(),
        rule_set=rules,
        commitment=SeedCommitment(seed),
        seats=seats,
        fill=list(fill),
        fill_players=fill_players,
        rounds=rounds,
        decision_time=decision_time,
        autostart=autostart,
        vacant_timeout=service.vacant_timeout,
        owner=Ownership(conn.id, host=host),
        game=played,
        options=options,
        scored=scored,
        score_bets=score_bets,
    )
    service.forget_finished()
    service.tables[table.id] = table
    log.info("table %d created by %s (%s, %d seats)", table.id, conn, rules, seats)
    settings = {
        "seats": seats,
        "fill": list(fill),
        "rounds": rounds,
        "decision_time": None if math.isinf(decision_time) else decision_time,
        "autostart": autostart,
        **({"scored": True} if scored else {}),
        **({"score_bets": True} if score_bets else {}),
    }
    server.journal.table_created(
        table.info(),
        settings,
        f"{conn.client} (#{conn.id})",
        table.owner.key,
        table.commitment,
        address=host,
    )
    if not table.has_bots and autostart:
        table.start(server.manager)
    else:  # waits for its bots, or (autostart false) for table.start
        expire = partial(table.expire_unclaimed, service.unclaimed_timeout)
        server.spawn(expire, f"table {table.id} waits for bots")
    return {**table.info(), "key": table.owner.key}
