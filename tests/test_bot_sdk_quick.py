"""A bot whose hooks are plain functions is answered on its connection's reader: a
``decide`` takes no task on the bot's side (the SDK answers from its strategy without a
trip through trio's scheduler); an ``async`` hook still gets a task of its own, and a
``decide`` that comes while the seat is being taken waits for it as before."""

from __future__ import annotations

import trio
import trio.lowlevel

from croupier.clients.bot import Bot
from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.sdk import _Seat, as_bot
from croupier.plugins.blackjack.play import Observation
from croupier.protocol.transport.client import connect_stream
from croupier.protocol.transport.session import Session
from tests import memnet

ASKED = Observation("play", 1, 1, ("hit", "stand"), 100, total=12).to_dict()


class Spawns(trio.abc.Instrument):
    def __init__(self) -> None:
        self.tasks = 0

    def task_spawned(self, task: trio.lowlevel.Task) -> None:
        self.tasks += 1


async def ask(bot: object) -> tuple[object, int]:
    """The answer a server gets to one ``decide`` of ``bot``, and the tasks it took."""
    server_end, bot_end = memnet.stream_pair()

    async def hello(_session: Session, _request: object) -> dict[str, int]:
        return {"version": 1}

    server = Session(server_end, on_request=hello)
    seat = _Seat(as_bot(bot))  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.run)
        async with connect_stream(
            bot_end, name="b", role="bot", handlers={"decide": seat.decide}, quick=seat.quick
        ):
            spawns = Spawns()
            trio.lowlevel.add_instrument(spawns)
            try:
                answer = await server.call("decide", [1, ASKED])
            finally:
                trio.lowlevel.remove_instrument(spawns)
        nursery.cancel_scope.cancel()
    return answer, spawns.tasks


async def test_a_plain_bot_answers_decide_with_no_task():
    answer = await ask(lambda o: "hit" if o.total < 17 else "stand")
    assert answer == ({"kind": "hit", "amount": 0}, 0)


async def test_an_async_bot_answers_decide_in_a_task_of_its_own():
    async def decide(observation: Observation) -> str:
        await trio.lowlevel.checkpoint()
        return "stand"

    assert await ask(decide) == ({"kind": "stand", "amount": 0}, 1)


def test_which_bots_answer_at_once():
    class Plain(Bot):
        def decide(self, observation):
            return "hit"

    class AsyncBet(Plain):
        async def bet(self, observation):
            return None

    class OwnAnswer(Plain):
        async def answer(self, observation):
            return await super().answer(observation)

    class Game(GameBot):
        def decide(self, observation):
            return {"kind": "fold"}

    async def later(observation):
        return "hit"

    assert Plain().answers_at_once() and Game().answers_at_once()
    assert as_bot(lambda o: "hit").answers_at_once()
    assert not any(bot.answers_at_once() for bot in (AsyncBet(), OwnAnswer(), as_bot(later)))


async def test_a_decide_while_the_seat_is_taken_is_not_answered_on_the_reader():
    seat = _Seat(as_bot(lambda o: "hit"))
    assert seat.quick("decide") and not seat.quick("ping")

    async def deliver(method, params):
        return None

    async with seat.gate.taking(deliver):
        assert not seat.quick("decide")
    assert seat.quick("decide")
