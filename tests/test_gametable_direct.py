"""Players that answer without waiting (a game's strategies) are asked directly: no trio
task per decision, the same table as through the decision clock, and the same outcomes
for a broken player or a table out of time."""

from __future__ import annotations

import trio
import trio.lowlevel

from croupier.engine.gametable import GameStrategyPlayer, GameTable


class Waiting:
    """The same strategy with only ``async decide``: asked through the decision clock."""

    def __init__(self, inner):
        self.inner = inner

    async def decide(self, observation):
        return await self.inner.decide(observation)


class BrokenNow:
    def decide_now(self, observation):
        raise ValueError("no idea")

    async def decide(self, observation):
        raise AssertionError("a player with decide_now is asked directly")


class AtOnce:
    """Answers the bet phase at once and asks its strategy for the rest through the clock,
    as a bot's seat answers the phases its bot left to the server."""

    def __init__(self, inner):
        self.inner = inner
        self.asked = 0

    def decide_at_once(self, observation):
        return self.inner.decide_now(observation) if observation["phase"] == "bet" else None

    async def decide(self, observation):
        self.asked += 1
        return await self.inner.decide(observation)


class Spawns(trio.abc.Instrument):
    def __init__(self):
        self.tasks = 0

    def task_spawned(self, task):
        self.tasks += 1


async def play(game, players, rounds=15):
    events = []
    table = GameTable(game, game.rules(), 5, players, listeners=[events.append])
    spawns = Spawns()
    trio.lowlevel.add_instrument(spawns)
    try:
        await table.play(rounds)
    finally:
        trio.lowlevel.remove_instrument(spawns)
    return events, dict(table.ledger.balances), spawns.tasks


def seats(game, wrap=lambda p: p):
    return [wrap(GameStrategyPlayer(s.at(game.rules()))) for s in game.strategies[:3]]


async def test_strategies_are_asked_with_no_task_and_play_the_same_table(manager):
    for name in manager.games.names():  # every built-in game, a new one too
        game = manager.games.get(name)
        events, balances, tasks = await play(game, seats(game))
        assert tasks == 0
        waited = await play(game, seats(game, Waiting))
        assert waited[2] >= 15  # the decision clock: a task per decision
        assert (events, balances) == waited[:2]


async def test_answers_given_at_once_take_no_task_and_play_the_same_table(manager):
    game = manager.games.get("blackjack")
    players = seats(game, AtOnce)
    events, balances, tasks = await play(game, players)
    asked = sum(player.asked for player in players)
    assert asked > 0 and tasks == asked  # a task for each decision asked, none for a bet
    waited = await play(game, seats(game, Waiting))
    assert waited[2] >= asked + 15 * len(players)  # every bet took a task
    assert (events, balances) == waited[:2]


async def test_a_direct_player_that_raises_gets_the_default(manager):
    game = manager.games.get("baccarat")
    events, _, _ = await play(game, [BrokenNow()], rounds=2)
    defaults = [e for e in events if e["kind"] == "default"]
    assert len(defaults) == 2 and "no idea" in defaults[0]["reason"]


async def test_a_table_out_of_time_still_takes_direct_answers(manager):
    """An answer that takes no time is within any limit: a stopping table's last hand is
    played by its strategies, not defaulted."""
    game = manager.games.get("baccarat")
    events = []
    player = GameStrategyPlayer(game.strategies[0])
    table = GameTable(game, game.rules(), 5, [player], listeners=[events.append])
    table.limit_decisions(0)
    assert await table.play(2) == 2
    assert [e for e in events if e["kind"] == "default"] == []
    assert sum(e["kind"] == "action" for e in events) == 2


async def test_a_table_of_direct_players_lets_other_tasks_run_every_round(manager):
    game = manager.games.get("baccarat")
    table = GameTable(game, game.rules(), 5, [GameStrategyPlayer(game.strategies[0])])
    ticks = []

    async def tick():
        while True:
            ticks.append(table.core.round)
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(tick)
        await trio.lowlevel.checkpoint()
        await table.play(5)
        nursery.cancel_scope.cancel()
    # it ran once a round (trio runs a batch of ready tasks in either order, so which round
    # each tick saw may lag by one)
    assert len(ticks) >= 5 and ticks == sorted(ticks) and ticks[-1] >= 3


async def test_a_cancelled_table_of_direct_players_stops_within_the_round(manager):
    game = manager.games.get("baccarat")
    table = GameTable(game, game.rules(), 5, [GameStrategyPlayer(game.strategies[0])])
    with trio.CancelScope() as scope:
        scope.cancel()
        await table.play(5)
    assert table.core.round <= 1
