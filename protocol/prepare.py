"""Strategies made ready for a table's options, off the event loop.

A game's strategy may depend on the table's options (blackjack's ``basic`` solves its chart
for the rules first): seconds of CPU that must never stall the server (every client would
freeze and innocent bots would time out). Such a strategy is adapted
(:meth:`~croupier.engine.games.GameStrategy.at`) in a worker process with a fair turn in
the solver pool, as a solve is; the adapted strategy carries its chart back, so playing it
never solves anything.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import cast

from croupier.engine import CroupierError
from croupier.engine.games import Game, GameStrategy, Plain
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.server import Connection, RpcServer
from croupier.protocol.workers import PluginFailure, internal_error, run_job

PREPARED = 32
"""Strategies made ready kept per server (by game, name and options): a table or
tournament under options seen recently starts at once, with no worker involved."""


async def prepare_strategy(
    conn: Connection, game: Game, strategy: GameStrategy, options: Plain
) -> GameStrategy:
    """``strategy.at(options)``, computed in a worker when it depends on the options."""
    return await prepare_on(conn.server, conn.id, game, strategy, options, conn.address)


async def prepare_on(
    server: RpcServer,
    owner: int,
    game: Game,
    strategy: GameStrategy,
    options: Plain,
    group: str | None = None,
) -> GameStrategy:
    """:func:`prepare_strategy` for ``owner`` (a connection id; 0: the server itself, as
    when it recovers its tables) of ``group`` (its peer address; None: the server)."""
    if strategy.for_options is None:
        return strategy
    cache: OrderedDict[tuple[str, str, str], GameStrategy] = server.state.setdefault(
        "prepared", OrderedDict()
    )
    key = (game.name, strategy.name, json.dumps(options, sort_keys=True, default=str))
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    try:
        ready = await run_job(
            server.solver_pool,
            owner,
            f"strategy {strategy.name!r}",
            strategy.at,
            dict(options),
            timeout=server.limits.solver_timeout,
            group=group,
        )
    except CroupierError as exc:
        raise RpcError(Code.BAD_INPUT, str(exc)) from None
    except PluginFailure as exc:
        raise internal_error(exc) from None
    cache[key] = cast(GameStrategy, ready)
    if len(cache) > PREPARED:
        cache.popitem(last=False)
    return cache[key]


async def prepare_strategies(
    conn: Connection | RpcServer, game: Game, names: list[str], options: Plain
) -> dict[str, GameStrategy]:
    """:func:`prepare_strategy` for each of ``game``'s strategies ``names`` (an unknown name
    is a one-line error naming the known ones); given the server rather than a connection,
    for the server itself (recovery)."""
    server, owner, group = (
        (conn, 0, None) if isinstance(conn, RpcServer) else (conn.server, conn.id, conn.address)
    )
    ready: dict[str, GameStrategy] = {}
    for name in names:
        if name not in ready:
            strategy = game.strategy(name)
            ready[name] = await prepare_on(server, owner, game, strategy, options, group)
    return ready
