"""Strategies made ready for a table's rules, off the event loop.

``basic`` solves its chart for the rules first: seconds of CPU that must never stall the
server (every client would freeze and innocent bots would time out). A strategy that needs
the rules is adapted in a worker process with a fair turn in the solver pool, as a solve
is; the adapted strategy carries its chart back, so playing it never solves anything.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import cast

from croupier.engine import BlackjackRules, CroupierError
from croupier.engine.players import Player, Strategy, StrategyPlayer
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.server import Connection
from croupier.protocol.workers import PluginFailure, internal_error, run_job

PREPARED = 32
"""Strategies made ready kept per server (by name and rules): a table or tournament under
rules seen recently starts at once, with no worker involved."""


async def prepare_strategy(conn: Connection, strategy: Strategy, rules: BlackjackRules) -> Strategy:
    """``strategy.for_rules(rules)``, computed in a worker when it needs the rules."""
    if strategy.adapt is None:
        return strategy
    server = conn.server
    cache: OrderedDict[tuple[str, BlackjackRules], Strategy] = server.state.setdefault(
        "prepared", OrderedDict()
    )
    key = (strategy.name, rules)
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    try:
        ready = await run_job(
            server.solver_pool,
            conn.id,
            f"strategy {strategy.name!r}",
            strategy.for_rules,
            rules,
            timeout=server.limits.solver_timeout,
        )
    except CroupierError as exc:
        raise RpcError(Code.BAD_INPUT, str(exc)) from None
    except PluginFailure as exc:
        raise internal_error(exc) from None
    cache[key] = cast(Strategy, ready)
    if len(cache) > PREPARED:
        cache.popitem(last=False)
    return cache[key]


async def prepare_strategies(
    conn: Connection, strategies: dict[str, Strategy], rules: BlackjackRules
) -> dict[str, Strategy]:
    """:func:`prepare_strategy` for each strategy (by name)."""
    return {name: await prepare_strategy(conn, s, rules) for name, s in strategies.items()}


async def strategy_player(conn: Connection, name: str, rules: BlackjackRules) -> Player:
    """The player for the built-in strategy ``name`` under ``rules``: a Strategy made
    ready for the rules, or a plugin's ready Player."""
    found: object = conn.server.manager.strategies.get(name)
    if isinstance(found, Strategy):
        return StrategyPlayer(await prepare_strategy(conn, found, rules))
    if callable(getattr(found, "decide", None)):
        return cast(Player, found)
    raise RpcError(Code.BAD_INPUT, f"strategy {name!r} cannot sit at a table (not a Strategy)")
