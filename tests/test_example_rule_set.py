"""The README's plugin of a table of its own (examples/rule-set-plugin/my_table.py) works as
the README says: the table plays its rules, the simulator and the server seat it, and its
solver answers."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import trio
from bjtable import blackjack_table, strategy_seat, typed_events

from croupier.engine import CroupierError, PluginManager
from croupier.plugins.blackjack.simulate import simulate
from croupier.plugins.blackjack.strategy import local_strategy
from croupier.protocol import Server, connect

PATH = Path(__file__).parent.parent / "examples" / "rule-set-plugin" / "my_table.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("my_table", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def mine() -> PluginManager:
    return PluginManager(autoload=False, plugins=[("my-table", load())])


def test_its_table_plays_its_own_rules(mine):
    rules = mine.rule_sets.get("my-table").rules
    events: list[Any] = []
    player = strategy_seat(local_strategy(mine, "lim15", rules))
    table = blackjack_table(mine, rules, 3, [player], listeners=[typed_events(events)])
    trio.run(table.play, 300)
    assert table.ledger.conserved()
    # the dealer's totals per round: the turned hole card, then each card it draws
    dealer: dict[int, list[int]] = {}
    live: set[int] = set()  # rounds whose player hand was still in play at the dealer's turn
    for e in events:
        if e.kind == "reveal" or (e.kind == "deal" and e.seat is None and e.reason == "draw"):
            dealer.setdefault(e.round, []).append(e.total)
        if e.kind == "settle" and e.outcome != "bust":
            live.add(e.round)
    assert all(t < 16 for totals in dealer.values() for t in totals[:-1])  # draws below 16
    stood_on_16 = [r for r, totals in dealer.items() if totals[-1] == 16 and r in live]
    assert stood_on_16  # where an S17 dealer would have drawn
    wins = [e for e in events if e.kind == "chips" and e.reason == "win"]
    assert wins and all(e.amount == 20 for e in wins)  # even money on a bet of 10


def test_the_simulator_and_the_solver_reach_it(mine):
    rules = mine.rule_sets.get("my-table").rules
    report = simulate(mine, rules, mine.strategies.get("lim15"), 2_000, 1, seed=1)
    assert report["hands"] == 2_000 and report["ci95"] is not None
    assert mine.solvers.get("dice-ways").solve({"total": 7})["ways"] == 6
    for total in ("seven", 1, 13, 99):  # 1 and 99 were taken, with 0 ways
        with pytest.raises(CroupierError, match="'total' must be an integer from 2 to 12"):
            mine.solvers.get("dice-ways").solve({"total": total})
    with pytest.raises(CroupierError, match="pays no bonus for a natural"):
        simulate(mine, rules.evolve(blackjack_pays="3:2"), mine.strategies.get("lim15"), 1, 1, 1)


async def test_a_server_seats_it(nursery):
    server = Server(
        PluginManager(autoload=False, plugins=[("my-table", load())]),
        default_game="blackjack",
        seed=2,
    )
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    async with connect("127.0.0.1", port, name="c") as client:
        info = await client.call_named(
            "table.create", {"rules": "my-table", "fill": ["lim15"], "rounds": 20, "seed": 4}
        )
        with trio.fail_after(20):
            while info["state"] != "finished":
                await trio.sleep(0.02)
                info = await client.call("table.info", info["table"])
    assert info["played"] == 20 and info["chips"][0] + info["house"] == 1000
    server.stop()
