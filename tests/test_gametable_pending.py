"""Players whose answers come from elsewhere (a remote bot: the request written, the answer
set by the connection's reader) are waited for in the table's own task
(:meth:`DecisionClock.answer_pending`): no task per decision, the same table as through
``decide``, and the same time limit: a timeout, stalls given back, a stopping table."""

from __future__ import annotations

import trio
import trio.lowlevel

from croupier.engine.gametable import GameStrategyPlayer, GameTable
from tests.test_gametable_direct import Spawns, Waiting


class Pending:
    def __init__(self) -> None:
        self.done = trio.Event()
        self.answer: object = None
        self.closed = False

    def result(self) -> object:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    def close(self) -> None:
        self.closed = True


class Remote:
    """Puts its questions to a long-lived "reader" task, which answers each after
    ``delay`` seconds (the first ``slow`` decisions after ``late`` seconds instead)."""

    def __init__(self, inner: GameStrategyPlayer, delay: float = 0.0) -> None:
        self.inner = inner
        self.delay = delay
        self.send, self.receive = trio.open_memory_channel[tuple[Pending, dict]](100)
        self.asked: list[Pending] = []

    async def ask(self, observation: dict) -> Pending:
        pending = Pending()
        self.asked.append(pending)
        self.send.send_nowait((pending, observation))
        return pending

    async def decide(self, observation: dict) -> dict:
        raise AssertionError("a player with ask is asked through it")

    async def reader(self) -> None:
        async for pending, observation in self.receive:
            if self.delay:
                await trio.sleep(self.delay)
            if not pending.closed:  # a late answer to a question given up is dropped
                try:
                    pending.answer = self.inner.decide_now(observation)
                except Exception as exc:
                    pending.answer = exc
            pending.done.set()


class Raising(GameStrategyPlayer):
    def decide_now(self, observation):
        raise ValueError("no idea")


async def play_remote(game, players, rounds=15, stalls=None, decision_time=2.0, stop_at=None):
    events: list = []
    table = GameTable(
        game,
        game.rules(),
        5,
        players,
        listeners=[events.append],
        stalls=stalls,
        decision_time=decision_time,
    )
    spawns = Spawns()
    async with trio.open_nursery() as nursery:
        for player in players:
            nursery.start_soon(player.reader)
        if stop_at is not None:

            async def stop() -> None:
                await trio.sleep(stop_at)
                table.limit_decisions(0)

            nursery.start_soon(stop)
        await trio.lowlevel.checkpoint()
        trio.lowlevel.add_instrument(spawns)
        try:
            await table.play(rounds)
        finally:
            trio.lowlevel.remove_instrument(spawns)
        nursery.cancel_scope.cancel()
    return events, dict(table.ledger.balances), spawns.tasks


def remote_seats(game, delay=0.0):
    return [Remote(GameStrategyPlayer(s.at(game.rules())), delay) for s in game.strategies[:3]]


async def test_remote_answers_take_no_task_and_play_the_same_table(manager):
    for name in ("blackjack", "baccarat"):
        game = manager.games.get(name)
        players = remote_seats(game)
        events, balances, tasks = await play_remote(game, players)
        assert sum(len(p.asked) for p in players) >= 15 and tasks == 0
        assert all(p.closed for player in players for p in player.asked)  # every call ended
        waited = [Waiting(GameStrategyPlayer(s.at(game.rules()))) for s in game.strategies[:3]]
        table = GameTable(game, game.rules(), 5, waited)
        expected: list = []
        table.listeners.append(expected.append)
        await table.play(15)
        assert (events, balances) == (expected, dict(table.ledger.balances))


async def test_a_remote_error_gets_the_default(manager):
    game = manager.games.get("baccarat")
    events, _, _ = await play_remote(game, [Remote(Raising(game.strategies[0]))], rounds=2)
    defaults = [e for e in events if e["kind"] == "default"]
    assert len(defaults) == 2 and "no idea" in defaults[0]["reason"]


async def test_a_slow_remote_answer_times_out_and_is_dropped(manager, virtual_clock):
    game = manager.games.get("baccarat")
    player = Remote(GameStrategyPlayer(game.strategies[0]), delay=2.5)
    start = trio.current_time()
    events, _, _ = await play_remote(game, [player], rounds=1)
    defaults = [e for e in events if e["kind"] == "default"]
    assert [e["reason"] for e in defaults] == ["timeout after 2s"]
    assert trio.current_time() - start == 2.0  # not a moment longer than its time
    assert player.asked[0].closed and player.asked[0].answer is None


async def test_the_time_the_loop_could_not_run_is_given_back(manager, virtual_clock):
    game = manager.games.get("baccarat")
    for stalled, reasons in ((1.0, []), (0.0, ["timeout after 2s"])):
        start = trio.current_time()

        def stalls(start=start, stalled=stalled) -> float:  # frozen a second, one second in
            return stalled if trio.current_time() - start > 1.0 else 0.0

        player = Remote(GameStrategyPlayer(game.strategies[0]), delay=2.5)
        events, _, _ = await play_remote(game, [player], rounds=1, stalls=stalls)
        assert [e["reason"] for e in events if e["kind"] == "default"] == reasons


async def test_a_stopping_table_cuts_the_wait(manager, virtual_clock):
    game = manager.games.get("baccarat")
    player = Remote(GameStrategyPlayer(game.strategies[0]), delay=10.0)
    start = trio.current_time()
    events, _, _ = await play_remote(game, [player], rounds=1, decision_time=30.0, stop_at=1.0)
    reasons = [e["reason"] for e in events if e["kind"] == "default"]
    assert reasons == ["no time left: the table is stopping"]
    assert trio.current_time() - start == 1.0
