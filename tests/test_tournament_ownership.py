"""A tournament belongs to its creator: its tcp seats need the join key it got, only it
(or its key, or the operator) stops it, one client runs one at a time, and one left with
nobody in it finishes."""

from __future__ import annotations

import contextlib

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server, ServerLimits, connect
from croupier.protocol.transport.client import connect_stream
from tests import memnet

LONG = {"bots": ["lim17"] * 8, "tourneys": 200, "rounds": 50, "hands": 5, "seed": 3}


async def serve(nursery, **limits) -> tuple[Server, int]:
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=9,
        limits=ServerLimits(**limits),
    )
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    return server, port


async def test_a_closed_tournaments_seats_need_its_join_key(nursery):
    _, port = await serve(nursery)
    async with (
        connect("127.0.0.1", port, name="owner") as owner,
        connect("127.0.0.1", port, name="bot", role="bot") as bot,
    ):
        info = await owner.call_named("tournament.start", {"bots": ["tcp", "tcp"]})
        assert info["join_key"] and "join_key" not in await bot.call(
            "tournament.info", info["tournament"]
        )
        for key in (None, "guess"):
            with pytest.raises(RpcError, match="is not open") as exc:
                await bot.call("tournament.join", info["tournament"], [], key)
            assert exc.value.code == Code.NOT_ALLOWED
        joined = await bot.call("tournament.join", info["tournament"], [], info["join_key"])
        assert joined["entry"] == 1


@pytest.mark.slow
async def test_the_creator_stops_a_tournament_and_gets_the_standings_so_far(nursery):
    server, port = await serve(nursery)
    async with (
        connect("127.0.0.1", port, name="owner") as owner,
        connect("127.0.0.1", port, name="stranger") as stranger,
    ):
        info = await owner.call_named("tournament.start", LONG)
        tid = info["tournament"]
        with pytest.raises(RpcError, match="belongs to another client") as exc:
            await stranger.call("tournament.stop", tid)
        assert exc.value.code == Code.NOT_ALLOWED
        with pytest.raises(RpcError, match="a client runs at most 1 open tournaments") as quota:
            await owner.call_named("tournament.start", LONG)
        assert quota.value.code == Code.LIMIT_EXCEEDED
        with trio.fail_after(300):  # a hang guard: stop once some hands are played
            while not (await owner.call("tournament.info", tid))["progress"]["done"]:
                await trio.sleep(0.05)
        final = await owner.call("tournament.stop", tid)
        assert final["state"] == "finished" and final["reason"] == "stopped by its creator"
        result = final["result"]
        assert result["conserved"] and 0 < final["progress"]["done"] < 200 * 50
        assert sum(s["hands"] for s in result["standings"]) > 0
        other = await stranger.call_named("tournament.start", LONG)  # a slot is free again
        stopped = await stranger.call("tournament.stop", other["tournament"], server.operator_key)
        assert stopped["reason"] == "stopped by its creator"
        again = await owner.call_named("tournament.start", LONG)
        by_key = await stranger.call("tournament.stop", again["tournament"], again["key"])
        assert by_key["reason"].startswith("stopped by #")


async def test_a_tournament_its_creator_left_with_no_bot_connected_finishes(nursery):
    _, port = await serve(nursery, abandoned_timeout=0.3)
    async with connect("127.0.0.1", port, name="leaves") as c:
        info = await c.call_named("tournament.start", LONG)
    async with connect("127.0.0.1", port, name="w") as w:
        with trio.fail_after(20):
            while (await w.call("tournament.info", info["tournament"]))["state"] != "finished":
                await trio.sleep(0.1)
        final = await w.call("tournament.info", info["tournament"])
    assert final["reason"] == "abandoned: its creator left and none of its tcp bots is connected"
    assert final["result"]["conserved"]


async def test_one_address_runs_at_most_half_the_tournaments(nursery, virtual_clock):
    """Connection after connection from one address: two of the four tournament slots,
    and another address still starts one (tcp seats: they wait for bots, on virtual time)."""
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=9)
    net = await memnet.serve(nursery, server)
    waiting = {"bots": ["tcp", "tcp"], "join_time": 600}
    async with contextlib.AsyncExitStack() as stack:
        greedy = [
            await stack.enter_async_context(connect_stream(net.dial("10.0.0.66"), name=f"g{i}"))
            for i in range(3)
        ]
        for client in greedy[:2]:
            assert (await client.call_named("tournament.start", waiting))["state"] == "waiting"
        with pytest.raises(RpcError, match="one address runs at most 2 of the server's 4 open "):
            await greedy[2].call_named("tournament.start", waiting)
        other = await stack.enter_async_context(connect_stream(net.dial("10.0.0.7"), name="o"))
        assert (await other.call_named("tournament.start", waiting))["state"] == "waiting"
    server.stop()
