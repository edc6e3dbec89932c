"""Bots' answers go ahead of bulk requests: while the server waits for a ``decide``, a
connection with a read full of requests handles one per turn, so the bot's answer (and the
table it unblocks) waits behind a request of each busy connection, not a read's worth."""

from __future__ import annotations

from typing import Any

import msgpack

from croupier.protocol import Connection, Method, Server, ServerLimits, Service
from croupier.protocol.services import default_services
from croupier.protocol.transport.session import DISPATCH_TURN
from tests import memnet
from tests.protocol_helpers import make_manager

REQUESTS = 20 * DISPATCH_TURN


class Counting(Service):
    """``tick`` (quick bulk work, counted) and ``play`` (asks the caller's ``decide`` and
    says how many ticks had been handled when the answer was)."""

    def __init__(self) -> None:
        self.ticks = 0

    def methods(self) -> list[Method]:
        return [
            Method("tick", (), self.tick, "count", quick=True),
            Method("play", (), self.play, "ask decide"),
        ]

    async def tick(self, conn: Connection) -> int:
        self.ticks += 1
        return self.ticks

    async def play(self, conn: Connection) -> dict[str, Any]:
        answer = await conn.call("decide", [{"legal": ["hit", "stand"]}])
        return {"action": answer, "ticks": self.ticks}


async def test_a_decide_answer_is_dispatched_before_another_connections_queued_requests(
    nursery, virtual_clock
):
    counting = Counting()
    limits = ServerLimits(request_rate=None, address_rate=None)  # the lane alone
    server = Server(make_manager(), seed=1, limits=limits, services=[*default_services(), counting])
    net = await memnet.serve(nursery, server)
    bot, bulk = net.raw("10.0.0.1"), net.raw("10.0.0.2")
    await bot.hello()
    await bulk.hello()
    await bot.send([0, 1, "play", []])
    request = await bot.receive()
    assert request[:3] == [0, request[1], "decide"]
    await bulk.send_bytes(b"".join(msgpack.packb([0, i, "tick", []]) for i in range(REQUESTS)))
    await bot.send([1, request[1], None, "stand"])
    answer = await bot.receive()
    assert answer[3]["action"] == "stand"
    # the answer was handled after a couple of the queued requests, not after turns of 64
    assert answer[3]["ticks"] <= 4
    for i in range(REQUESTS):  # and the bulk requests were all answered, in order
        assert await bulk.receive() == [1, i, None, i + 1]
