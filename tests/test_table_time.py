"""A blackjack table's decisions against the clock: a stopping table's decisions share one
deadline, time the loop could not run is given back to a decision, and the loop watch that
measures it."""

from __future__ import annotations

import pytest
import trio
from bjtable import blackjack_table, typed_events

from croupier.engine import PluginManager
from croupier.plugins.blackjack.play import Action

MANAGER = PluginManager(autoload=False)


async def test_a_stopping_tables_decisions_share_one_deadline(autojump_clock):
    """SIGTERM's grace bounds the rest of the hand, not each decision: three silent seats
    took three graces (10.6 s for one silent player's hand at a server)."""

    class Silent:
        async def decide(self, observation):
            if observation["phase"] == "bet":
                return Action("bet", observation["min_bet"]).to_dict()
            await trio.sleep_forever()

    rules = MANAGER.rule_sets.get("vegas-s17").rules.evolve(insurance=False, surrender="none")
    events: list = []
    table = blackjack_table(
        MANAGER, rules, 8, [Silent()] * 3, decision_time=10, listeners=[typed_events(events)]
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.play_round)
        await trio.sleep(1)  # seat 1 is thinking
        start = trio.current_time()
        table.limit_decisions(2.0)
    assert trio.current_time() - start == pytest.approx(2.0)
    defaults = [e for e in events if e.kind == "default"]
    assert len(defaults) >= 2 and {e.seat for e in defaults} >= {1, 2}
    assert all(e.reason == "no time left: the table is stopping" for e in defaults)


@pytest.mark.parametrize("stalled", [0.0, 1.5])
async def test_a_decision_does_not_count_time_the_table_could_not_listen(autojump_clock, stalled):
    """A bot that answered in time while the server was frozen (its answer waiting in a
    socket) got a timeout default: a wrong game result. Time the loop lost is given back."""

    class Slow:
        async def decide(self, observation):
            if observation["phase"] == "bet":
                return Action("bet", observation["min_bet"]).to_dict()
            await trio.sleep(2.5)  # 0.5 s late by the clock, in time once stalls are given back
            return Action("stand").to_dict()

    start = trio.current_time()

    def stalls() -> float:  # the loop "froze" for ``stalled`` seconds one second in
        return stalled if trio.current_time() - start > 1.0 else 0.0

    rules = MANAGER.rule_sets.get("vegas-s17").rules.evolve(insurance=False, surrender="none")
    events: list = []
    table = blackjack_table(
        MANAGER,
        rules,
        8,
        [Slow()],
        decision_time=2,
        listeners=[typed_events(events)],
        stalls=stalls,
    )
    await table.play_round()
    defaults = [e for e in events if e.kind == "default"]
    if stalled:
        assert not defaults
        assert any(e.kind == "action" and e.action == "stand" for e in events)
    else:
        assert [e.reason for e in defaults] == ["timeout after 2s"]


async def test_the_loop_watch_counts_the_time_the_loop_could_not_run(mock_clock):
    import trio.testing

    from croupier.protocol.transport.loopwatch import TICK, LoopWatch

    watch = LoopWatch()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch.run)
        await trio.testing.wait_all_tasks_blocked()
        mock_clock.jump(TICK)  # on time: nothing lost
        await trio.testing.wait_all_tasks_blocked()
        assert watch.stalled() == 0.0
        mock_clock.jump(1.0)  # the loop could not run for a second
        assert watch.stalled() == pytest.approx(1.0 - TICK)  # seen before the watch wakes
        await trio.testing.wait_all_tasks_blocked()
        assert watch.stalled() == pytest.approx(1.0 - TICK)  # and counted once when it does
        nursery.cancel_scope.cancel()
