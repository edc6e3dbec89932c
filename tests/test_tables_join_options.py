"""``table.join``'s ``events`` and ``auto`` options: fewer notifications and round trips for
bots that do not need them, the same play. On the memory net and virtual time."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.clients.bot import Bot, play, sdk
from croupier.clients.bot.samples import sample_bot
from croupier.engine import PluginManager
from croupier.plugins.blackjack.play import Observation
from croupier.protocol import Code, RpcError, Server
from tests import memnet
from tests.test_tables_service import Recorder


@pytest.fixture
async def served(nursery):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=31)
    await memnet.serve(nursery, server)
    yield server
    server.stop()


async def _seat(net: memnet.MemoryNet, events: bool, auto: list[str]) -> tuple[Recorder, list[str]]:
    """A lim17 bot at a 2-seat table (seat 2: the lim17 strategy), joined with the options;
    what it was notified of and the phases it was asked about."""
    rec = Recorder()
    phases: list[str] = []

    async def decide(table: int, observation: Any) -> str:
        phases.append(observation["phase"])
        return "hit" if observation["total"] < 17 else "stand"

    async with net.connect(
        name="opt", role="bot", handlers={"decide": decide}, on_notification=rec
    ) as bot:
        info = await bot.call_named(
            "table.create", {"seats": 2, "fill": [None, "lim17"], "rounds": 12, "seed": 8}
        )
        await bot.call("table.join", info["table"], 1, events, auto)
        with trio.fail_after(20):
            await rec.finished.wait()
    return rec, phases


async def test_a_bot_without_events_gets_the_status_only_and_plays_the_same(served, virtual_clock):
    full, full_phases = await _seat(served.net, True, [])
    quiet, quiet_phases = await _seat(served.net, False, [])
    assert full.events and not quiet.events
    assert [s["state"] for s in quiet.statuses] == ["playing", "finished"]
    assert quiet.statuses[-1]["chips"] == full.statuses[-1]["chips"]
    assert quiet_phases == full_phases and "bet" in full_phases


async def test_auto_phases_are_answered_by_the_server_with_the_default(served, virtual_clock):
    asked, asked_phases = await _seat(served.net, True, [])
    auto, auto_phases = await _seat(served.net, True, ["bet", "insurance", "surrender"])
    assert "bet" in asked_phases and set(auto_phases) == {"play"}
    assert auto.statuses[-1]["chips"] == asked.statuses[-1]["chips"]
    bets = [e for e in auto.kinds("action") if e["seat"] == 1 and e["action"] == "bet"]
    assert len(bets) == 12 and {b["amount"] for b in bets} == {10}
    assert not auto.kinds("default")  # an answer given on request, not a fault


async def test_a_bad_auto_phase_is_a_one_line_error(served, virtual_clock):
    async with served.net.connect(name="bad", role="bot") as bot:
        info = await bot.call_named("table.create", {"seats": 1, "rounds": 1})
        with pytest.raises(RpcError) as caught:
            await bot.call("table.join", info["table"], None, True, ["play"])
    assert caught.value.code == Code.BAD_INPUT
    assert "auto phases are bet, insurance, surrender, not 'play'" in caught.value.message


def test_the_sdk_asks_only_for_what_a_bot_uses():
    manager = PluginManager(autoload=False)
    assert sample_bot("lim17", manager).join_options() == (
        False,
        ["bet", "insurance", "surrender"],
    )
    assert sample_bot("basic", manager).join_options()[0] is False
    assert sample_bot("hilo", manager).join_options() == (True, ["surrender"])

    class Forced(Bot):
        events = True

        def decide(self, observation: Observation) -> str:
            return "stand"

    assert Forced().join_options() == (True, ["bet", "insurance", "surrender"])


async def test_an_sdk_function_bot_plays_without_events(served, virtual_clock, monkeypatch):
    monkeypatch.setattr(sdk, "connect", served.net.connector())  # the SDK connects itself
    final = await play(lambda o: "stand", create={"rounds": 3})
    assert final["played"] == 3 and final["state"] == "finished"
