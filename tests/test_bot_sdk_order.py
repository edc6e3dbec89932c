"""A ``decide`` the server sends before it answers ``table.join`` or ``table.rejoin``.

The table plays as soon as the seat is taken (or taken back after a restart), so its
first ``decide`` can reach the bot before the answer that tells the bot its seat. The SDK
and the terminal game hold that decision until the bot has its seat and the events sent
before it: a bot never decides without knowing its seat or what was dealt, and a person
reads "Back at table" before the prompt, not after it.

The server here is scripted over a real socket (:class:`~tests.protocol_helpers.Raw`),
so the order on the wire is exactly the bad one. The bot's ``on_table`` hook waits on a
gate until every task is blocked: by then a ``decide`` that does not wait would have run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio
import trio.testing

from croupier.clients.bot import play
from croupier.clients.bot.gamebot import GameBot
from tests.protocol_helpers import Raw

TABLE = 7
INFO = {"table": TABLE, "game": "baccarat", "state": "playing", "played": 0, "chips": [50, 60]}
EVENT = {"kind": "round", "round": 1, "text": "Round 1."}
OBSERVATION = {"round": 1, "legal": ["pass"]}
FINISHED = "table, seat 2"
"""The last hook: ``on_table`` with the finished table's info."""


class Careful(GameBot):
    """Logs its hooks with the seat it knew at each; ``on_table`` waits on :attr:`gate`."""

    game = "baccarat"
    name = "careful"

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []
        self.gate = trio.Event()
        self.at_table = trio.Event()

    async def on_table(self, info: dict[str, Any]) -> None:
        self.log.append(f"table, seat {self.seat}")
        self.at_table.set()
        await self.gate.wait()

    def on_event(self, event: Any) -> None:
        self.log.append(f"event {event['kind']}, seat {self.seat}")

    def decide(self, observation: Any) -> Any:
        self.log.append(f"decide, seat {self.seat}")
        return {"kind": "pass"}


async def expect(peer: Raw, method: str) -> list[Any]:
    """The next message, a request for ``method``."""
    message = await peer.receive()
    assert message[0] == 0 and message[2] == method, message
    return message


async def hello(peer: Raw) -> None:
    request = await expect(peer, "hello")
    await peer.send([1, request[1], None, {"server": "scripted", "protocol": 1}])


async def decide_first(peer: Raw, request: list[Any], bot: Careful, answer: Any) -> None:
    """An event and a ``decide`` sent before the answer to ``request``; then the bot's
    gate opens once everything that can run has run; then its answer to ``decide``."""
    await peer.send([2, "table.event", [TABLE, EVENT]])
    await peer.send([0, 1, "decide", [TABLE, OBSERVATION]])
    await peer.send([1, request[1], None, answer])
    await bot.at_table.wait()
    await trio.testing.wait_all_tasks_blocked()
    bot.gate.set()
    assert await peer.receive() == [1, 1, None, {"kind": "pass"}]
    await peer.send([2, "table.status", [TABLE, {**INFO, "state": "finished", "played": 1}]])


async def scripted(script: Callable[[Raw], Awaitable[None]], nursery: trio.Nursery) -> int:
    """Serve connections on a local port, each run by ``script`` in turn; the port."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = int(listeners[0].socket.getsockname()[1])

    async def serve() -> None:
        async with listeners[0]:
            while True:
                stream = await listeners[0].accept()
                async with stream:
                    await script(Raw(stream))

    nursery.start_soon(serve)
    return port


async def test_a_decide_before_the_join_answer_waits_for_the_seat_and_events(nursery):
    bot = Careful()

    async def script(peer: Raw) -> None:
        await hello(peer)
        create = await expect(peer, "table.create")
        await peer.send([1, create[1], None, INFO])
        join = await expect(peer, "table.join")
        await decide_first(peer, join, bot, {"token": "t", "seat": 2, "info": INFO})

    port = await scripted(script, nursery)
    with trio.fail_after(30):
        final = await play(bot, "127.0.0.1", port)
    assert final["played"] == 1
    assert bot.log == ["table, seat 2", "event round, seat 2", "decide, seat 2", FINISHED]


async def test_a_decide_before_the_rejoin_answer_waits_too(nursery):
    """After a lost connection the seat is taken back with its token: the same order."""
    bot = Careful()
    bot.gate.set()  # the first connection's on_table
    connections = 0

    async def script(peer: Raw) -> None:
        nonlocal connections
        connections += 1
        await hello(peer)
        if connections == 1:
            create = await expect(peer, "table.create")
            await peer.send([1, create[1], None, INFO])
            join = await expect(peer, "table.join")
            await peer.send([1, join[1], None, {"token": "t", "seat": 2, "info": INFO}])
            await bot.at_table.wait()
            bot.log.clear()
            bot.at_table, bot.gate = trio.Event(), trio.Event()
            return  # the connection closes: the SDK connects again
        rejoin = await expect(peer, "table.rejoin")
        assert rejoin[3][0] == "t"
        await decide_first(peer, rejoin, bot, {"token": "t", "seat": 2, "info": INFO})

    port = await scripted(script, nursery)
    with trio.fail_after(30):
        final = await play(bot, "127.0.0.1", port)
    assert final["played"] == 1 and connections == 2
    assert bot.log == ["table, seat 2", "event round, seat 2", "decide, seat 2", FINISHED]
