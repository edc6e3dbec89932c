"""One peer address watches one table from a few connections at most: every watcher costs
the table's server time each event, and one client holding hundreds of watching
connections slowed a bots' table about twelvefold (red team, wave 2). Other addresses, other
tables and a bot's own seat are not counted against it."""

from __future__ import annotations

from contextlib import AsyncExitStack

import attrs
import pytest

from croupier.protocol import Code, RpcError
from croupier.protocol.transport.client import connect_stream
from tests import memnet
from tests.servedtables import table_server

CAP = 3


async def served(nursery):
    server = table_server(vacant_timeout=30, unclaimed_timeout=30)
    server.limits = attrs.evolve(server.limits, watchers_per_peer=CAP)
    net = await memnet.serve(nursery, server)
    return server, net


def watcher(net, host: str, name: str):
    return connect_stream(net.dial(host), name=name, role="watcher", peer="memnet")


async def waiting_table(client) -> int:
    info = await client.call_named("table.create", {"seats": 1, "rounds": 1})
    return info["table"]


async def test_a_peer_watches_a_table_from_at_most_the_cap_of_connections(nursery):
    _server, net = await served(nursery)
    async with AsyncExitStack() as stack:
        owner = await stack.enter_async_context(net.connect(name="owner"))
        table, other_table = await waiting_table(owner), await waiting_table(owner)
        mine = [
            await stack.enter_async_context(watcher(net, "10.0.0.1", f"w{i}"))
            for i in range(CAP + 1)
        ]
        for client in mine[:CAP]:
            await client.call("table.watch", table)
        await mine[0].call("table.watch", table)  # watching again takes no second place
        with pytest.raises(RpcError) as refused:
            await mine[CAP].call("table.watch", table)
        assert refused.value.code == Code.LIMIT_EXCEEDED
        assert f"from 10.0.0.1 watch table {table}" in refused.value.message
        # another table, and another address, are not held up
        await mine[CAP].call("table.watch", other_table)
        elsewhere = await stack.enter_async_context(watcher(net, "10.0.0.2", "x"))
        await elsewhere.call("table.watch", table)
        # a watcher that stops watching (or goes) frees its place
        await mine[1].call("table.unwatch", table)
        await mine[CAP].call("table.watch", table)


async def test_a_seated_bot_getting_events_is_not_counted_as_a_watcher(nursery):
    _server, net = await served(nursery)
    async with AsyncExitStack() as stack:
        owner = await stack.enter_async_context(net.connect(name="owner"))
        info = await owner.call_named("table.create", {"seats": CAP, "rounds": 1})
        table = info["table"]
        for i in range(CAP - 1):  # seated with events, from the same address as the watchers
            bot = await stack.enter_async_context(
                connect_stream(net.dial("10.0.0.1"), name=f"b{i}", role="bot", peer="memnet")
            )
            await bot.call("table.join", table)
        for i in range(CAP):
            client = await stack.enter_async_context(watcher(net, "10.0.0.1", f"w{i}"))
            await client.call("table.watch", table)
