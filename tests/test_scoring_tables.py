"""A scored server table: the oracle's questions answered off the table's path, each
seat's scorecard in table.info and table.status."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.protocol import connect
from tests.servedtables import Recorder, start_table_server


@pytest.fixture
async def served(nursery):
    server = await start_table_server(nursery, vacant_timeout=30, unclaimed_timeout=30)
    yield server
    server.stop()


async def test_a_scored_three_card_poker_table_reports_each_seats_figures(served):
    async def decide(table: int, observation: Any) -> Any:
        if observation["phase"] == "bet":
            return {"kind": "bet", "ante": observation["min_bet"]}
        return {"kind": "play"}  # plays every hand: loses where folding is better

    watcher = Recorder()
    async with (
        connect("127.0.0.1", served.port, name="w", on_notification=watcher) as w,
        connect("127.0.0.1", served.port, name="b", role="bot", handlers={"decide": decide}) as bot,
    ):
        create = {
            "game": "three-card-poker",
            "seats": 2,
            "fill": [None, "optimal"],
            "rounds": 30,
            "seed": 5,
            "scored": True,
        }
        info = await w.call_named("table.create", create)
        assert "scores" not in info  # not started: nothing scored yet
        await w.call("table.watch", info["table"])
        await bot.call("table.join", info["table"])
        await watcher.finished.wait()
        decisions = [
            sum(1 for e in watcher.kinds("action") if e.get("seat") == seat) for seat in (1, 2)
        ]
        assert decisions == [60, 60]  # a bet and a play a round
        # the answers come from a thread, after the table if it plays faster: look again
        # until they are all in (the watchers' subscriptions end with the table)
        with trio.fail_after(30):
            while True:
                final = await w.call("table.info", info["table"])
                if [s["decisions"] for s in final["scores"]] == decisions:
                    break
                await trio.sleep(0.05)
    remote, optimal = final["scores"]
    assert remote["rounds"] == optimal["rounds"] == 30
    assert optimal["loss_per_decision"][0] == 0.0
    assert remote["loss_per_decision"][0] > 0.0  # it played hands worth folding
    assert len(remote["costliest"]) > 0 and remote["costliest"][0]["best"] == "fold"
