"""A table belongs to its creator: only it (or its key, or the operator) starts or stops
it, and one its creator left with nobody playing finishes on its own. On the memory net
and virtual time; a table playing without pause lets time pass only as the test moves it
(``pass_time``)."""

from __future__ import annotations

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server, ServerLimits
from tests import memnet
from tests.workclock import pass_time


async def serve(nursery, **limits) -> tuple[Server, memnet.MemoryNet]:
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=9,
        limits=ServerLimits(**limits),
    )
    return server, await memnet.serve(nursery, server)


async def test_only_the_creator_its_key_or_the_operator_start_and_stop_a_table(
    nursery, virtual_clock
):
    server, net = await serve(nursery)
    held = {"fill": ["lim17"], "rounds": 5, "autostart": False}
    async with (
        net.connect(name="owner") as owner,
        net.connect(name="stranger") as stranger,
    ):
        mine = await owner.call_named("table.create", held)
        table, key = mine["table"], mine["key"]
        assert "key" not in await stranger.call("table.info", table)  # only the creator has it
        for method in ("table.start", "table.stop"):
            with pytest.raises(RpcError, match="belongs to another client") as exc:
                await stranger.call(method, table)
            assert exc.value.code == Code.NOT_ALLOWED
            with pytest.raises(RpcError, match="belongs to another client"):
                await stranger.call(method, table, "not-the-key")
        assert (await stranger.call("table.start", table, key))["state"] == "playing"

        endless = await owner.call_named("table.create", {"fill": ["lim17"], "rounds": 10**6})
        stopped = await stranger.call("table.stop", endless["table"], server.operator_key)
        assert stopped["state"] == "finished" and stopped["reason"].startswith("stopped by #")
        assert stopped["chips"][0] + stopped["house"] == 1000  # settled, chips conserved

        again = await owner.call_named("table.create", {"fill": ["lim17"], "rounds": 10**6})
        done = await owner.call("table.stop", again["table"])
        assert done["reason"] == "stopped by its creator" and done["played"] < 10**6


async def test_a_table_its_creator_left_with_nobody_playing_finishes(nursery, virtual_clock):
    _, net = await serve(nursery, abandoned_timeout=0.5)
    async with net.connect(name="leaves") as c:
        rich = {"starting_chips": 10**9}  # plays on until stopped
        params = {"fill": ["lim17"], "rounds": 10**6, "options": rich}
        info = await c.call_named("table.create", params)
    # the table plays without pause, so time passes only as the test moves it
    await pass_time(virtual_clock, 1.0)  # twice the timeout: stopped after its hand
    async with net.connect(name="w") as w:
        for _ in range(100):
            final = await w.call("table.info", info["table"])
            if final["state"] == "finished":
                break
    assert final["reason"] == "abandoned: its creator left and no bot plays at it"
    assert final["chips"][0] + final["house"] == 10**9


async def test_a_table_whose_creator_left_plays_on_for_its_bots(nursery, virtual_clock):
    _, net = await serve(nursery, abandoned_timeout=0.2)
    async with net.connect(name="bot", role="bot", handlers={"decide": stand}) as b:
        async with net.connect(name="creator") as c:
            params = {"seats": 2, "fill": ["lim17"], "options": {"starting_chips": 10**9}}
            info = await c.call_named("table.create", params)
        await b.call("table.join", info["table"])
        await pass_time(virtual_clock, 1.0)  # well past the timeout: the bot plays, it goes on
        now = await b.call("table.info", info["table"])
        assert now["state"] == "playing", now["reason"]


async def stand(table, observation):
    if observation["phase"] == "bet":
        return {"kind": "bet", "amount": observation["min_bet"]}
    return {"kind": "stand" if observation["phase"] == "play" else "decline"}


async def test_a_pending_abandoned_timer_does_not_hold_the_shutdown_up(virtual_clock):
    """SIGTERM waited the whole abandoned_timeout (30 s) for a table its creator had left."""
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=9,
        limits=ServerLimits(shutdown_grace=1),
    )
    with trio.fail_after(10):  # the grace is 1 s; the timer was 30 s
        async with trio.open_nursery() as nursery:
            net = await memnet.serve(nursery, server)
            async with net.connect(name="leaves") as c:
                params = {"fill": ["lim17"], "rounds": 10**6, "options": {"starting_chips": 10**9}}
                await c.call_named("table.create", params)
            await pass_time(virtual_clock, 0.2)  # the creator is gone: the 30 s timer runs
            server.stop()  # serve returns, and the nursery closes, within the grace
