"""CPU work runs off the event loop in worker processes the server can stop.

The clocks here are real (worker processes are real), so each bound is an order of
magnitude away from what it tells apart.
"""

from __future__ import annotations

import pytest
import trio

from croupier.plugins.blackjack_solver import basic_strategy
from croupier.protocol import connect
from croupier.protocol.errors import Code, RpcError
from tests.protocol_helpers import make_server
from tests.servedtables import start_table_server


async def test_a_solve_over_its_time_is_stopped_and_frees_its_worker_at_once(nursery):
    server, _ = make_server(solver_threads=1, solver_timeout=1.0)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    async with (
        connect("127.0.0.1", port, name="hog") as hog,
        connect("127.0.0.1", port, name="other") as other,
    ):
        with pytest.raises(RpcError, match="ran for 1 s and was stopped") as exc:
            await hog.call("solve", "slow", {"seconds": 120})
        assert exc.value.code == Code.LIMIT_EXCEEDED
        # the only worker was stopped with the call (a thread would sleep on for 2 minutes)
        with trio.fail_after(30):
            assert await other.call("solve", "add", {"a": 1, "b": 2}) == {"sum": 3}


async def test_a_client_whose_queue_is_full_hears_busy_not_a_timeout(nursery):
    server, _ = make_server(solver_threads=1, work_queue_per_connection=1)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    async with (
        connect("127.0.0.1", port, name="hog") as hog,
        connect("127.0.0.1", port, name="other") as other,
        trio.open_nursery() as inner,
    ):
        for _ in range(2):  # one runs, one waits: the hog's queue is full
            inner.start_soon(hog.call, "solve", "slow", {"seconds": 3})
        await trio.sleep(0.5)
        with pytest.raises(RpcError, match="nothing was run") as exc:
            await hog.call("solve", "add", {"a": 1, "b": 2})
        assert exc.value.code == Code.BUSY
        # another client still gets its turn before the hog's second solve
        with trio.fail_after(30):
            assert await other.call("solve", "add", {"a": 1, "b": 2}) == {"sum": 3}


@pytest.mark.parametrize("method", ["table.create", "tournament.start"])
async def test_basic_strategy_is_solved_in_a_worker_never_in_the_server(nursery, method):
    """The chart for new rules is computed in a worker process: the server's own solver
    cache never sees the rules (solving there froze every client for seconds)."""
    server = await start_table_server(nursery)
    options = {"decks": 3, "surrender": "none", "double_after_split": False}
    before = basic_strategy.cache_info().misses
    async with connect("127.0.0.1", server.port, name="c") as c:
        if method == "table.create":
            params = {"rules": "vegas-s17", "options": options, "fill": ["basic"], "rounds": 2}
        else:
            params = {"bots": ["basic", "lim17"], "rules": "vegas-s17", "options": options}
            params.update(tourneys=1, rounds=1, hands=1)
        info = await c.call_named(method, params)
    assert info["state"] in ("playing", "waiting", "finished")
    assert basic_strategy.cache_info().misses == before


async def test_a_chart_made_ready_once_is_kept_for_the_next_table(nursery):
    server = await start_table_server(nursery)
    params = {"rules": "vegas-s17", "options": {"decks": 5}, "fill": ["basic"], "rounds": 1}
    async with connect("127.0.0.1", server.port, name="c") as c:
        await c.call_named("table.create", params)
        (key,) = server.state["prepared"]
        first = server.state["prepared"][key]
        await c.call_named("table.create", params)
    assert list(server.state["prepared"]) == [key] and server.state["prepared"][key] is first
