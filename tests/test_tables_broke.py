"""A table where nobody present can stake deals no more rounds (issue 34, item 3).

The person who created the table quits, the bot left with it goes broke: the person's
empty seat still has chips, so the game would deal round after round that stakes nothing,
as fast as the loop turns. The table waits instead (up to ``vacant_timeout``) for a seat
that can pay to come back, then finishes; a broke SDK bot says so and leaves. On the
memory net and virtual time: a spinning table never lets time pass, so the tests count the
rounds dealt after the bot's last stake, for blackjack and baccarat.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.clients.bot import GameBot, play, sdk
from croupier.clients.bot.sdk import Bot
from croupier.plugins.blackjack.play import Observation
from croupier.protocol import connect
from tests import memnet
from tests.servedtables import Recorder, table_server

VACANT = 5.0
SPIN = 50
"""Rounds dealt with nobody staking that prove a table spins (it should deal none)."""
OPTIONS = {
    "blackjack": {"starting_chips": 40, "min_bet": 10},
    "baccarat": {"starting_chips": 40, "min_bet": 20},
}


@pytest.fixture
async def served(nursery):
    server = table_server(vacant_timeout=VACANT, unclaimed_timeout=30)
    await memnet.serve(nursery, server)
    yield server
    server.stop()


def all_in(game: str, observation: dict[str, Any]) -> Any:
    """Stake every chip (so the first loss leaves none); stand in blackjack's play."""
    if observation["phase"] != "bet":
        return "stand" if "stand" in observation["legal"] else "decline"
    stake = min(observation["chips"], observation["max_bet"])
    return f"bet {stake}" if game == "blackjack" else {"kind": "bet", "banker": stake}


def person(game: str, observation: dict[str, Any]) -> Any:
    if game == "baccarat":
        return {"kind": "pass"}
    return f"bet {observation['min_bet']}" if observation["phase"] == "bet" else "stand"


def last_round(recorder: Recorder) -> int:
    return max((e.get("round") or 0 for e in recorder.events), default=0)


@pytest.mark.parametrize("game", ["blackjack", "baccarat"])
async def test_a_table_where_nobody_present_can_stake_deals_no_more(served, virtual_clock, game):
    watcher = Recorder()
    staked = 0  # the last round the bot was asked to stake in

    async def decide(table: int, observation: dict[str, Any]) -> Any:
        nonlocal staked
        staked = max(staked, observation["round"])
        return all_in(game, observation)

    async with (
        served.net.connect(name="eyes", role="watcher", on_notification=watcher) as w,
        served.net.connect(name="all-in", role="bot", handlers={"decide": decide}) as bot,
    ):
        async with served.net.connect(
            name="person", role="bot", handlers={"decide": _person(game)}
        ) as p:
            params = {"game": game, "seats": 2, "seed": 7, "options": OPTIONS[game]}
            info = await p.call_named("table.create", params)
            await w.call("table.watch", info["table"])
            await p.call("table.join", info["table"], 1)
            await bot.call("table.join", info["table"], 2)  # the table starts
        # the person has quit; the bot never leaves, broke or not
        await watcher.until(
            lambda: watcher.finished.is_set() or last_round(watcher) > staked + SPIN
        )
        assert watcher.finished.is_set(), f"{last_round(watcher) - staked} rounds dealt"
    final = watcher.statuses[-1]
    assert final["chips"][1] < final["min_chips"] <= final["chips"][0]  # broke; person not
    assert final["played"] == staked  # not one round after the bot's last stake
    assert final["reason"] == "nobody present can pay the minimum"
    broke = [s for s in watcher.statuses if s["state"] == "playing"][-1]
    assert broke["chips"][1] < broke["min_chips"]  # the table said so when it happened


def _person(game: str) -> Any:
    async def decide(table: int, observation: dict[str, Any]) -> Any:
        return person(game, observation)

    return decide


async def test_the_table_waits_for_the_person_to_come_back(served, virtual_clock):
    """Waiting, not finishing at once: a person whose seat still has chips takes it back
    with its token within ``vacant_timeout`` and the table deals again."""
    watcher = Recorder()
    game = "blackjack"
    back = trio.Event()

    async def came_back(table: int, observation: dict[str, Any]) -> Any:
        back.set()
        return person(game, observation)

    async with (
        served.net.connect(name="eyes", role="watcher", on_notification=watcher) as w,
        served.net.connect(name="all-in", role="bot", handlers={"decide": _all_in(game)}) as bot,
    ):
        async with served.net.connect(
            name="person", role="bot", handlers={"decide": _person(game)}
        ) as p:
            info = await p.call_named(
                "table.create", {"seats": 2, "seed": 7, "options": OPTIONS[game]}
            )
            await w.call("table.watch", info["table"])
            token = (await p.call("table.join", info["table"], 1))["token"]
            await bot.call("table.join", info["table"], 2)

        def bot_broke() -> bool:
            return any(s["chips"][1] < s["min_chips"] for s in watcher.statuses)

        await watcher.until(bot_broke)
        dealt = last_round(watcher)
        await trio.sleep(VACANT / 2)  # nothing is dealt meanwhile
        assert last_round(watcher) == dealt and not watcher.finished.is_set()
        async with served.net.connect(
            name="person", role="bot", handlers={"decide": came_back}
        ) as p:
            await p.call("table.rejoin", token)
            await back.wait()  # asked to bet: the table deals again
            stopped = await p.call("table.stop", info["table"], info["key"])
    assert stopped["played"] > dealt and stopped["reason"].startswith("stopped by")


def _all_in(game: str) -> Any:
    async def decide(table: int, observation: dict[str, Any]) -> Any:
        return all_in(game, observation)

    return decide


class AllIn(Bot):
    """A blackjack SDK bot that stakes every chip."""

    name = "all-in"

    def bet(self, observation: Observation) -> int:
        return min(observation.chips, observation.max_bet)

    def decide(self, observation: Observation) -> str:
        return "stand"


class AllInBanker(GameBot):
    game = "baccarat"
    name = "all-in"

    def decide(self, observation: Any) -> Any:
        return all_in("baccarat", observation)


@pytest.mark.parametrize("game", ["blackjack", "baccarat"])
async def test_a_broke_sdk_bot_says_so_and_leaves(served, virtual_clock, monkeypatch, caplog, game):
    monkeypatch.setattr(sdk, "connect", served.net.connector())  # the SDK connects itself
    watcher = Recorder()
    outcome: dict[str, Any] = {}
    bot = AllIn() if game == "blackjack" else AllInBanker()
    seated = trio.Event()
    async with (
        served.net.connect(name="eyes", role="watcher", on_notification=watcher) as w,
        trio.open_nursery() as nursery,
    ):
        async with served.net.connect(name="person", role="bot") as p:
            params = {"game": game, "seats": 2, "seed": 7, "options": OPTIONS[game]}
            info = await p.call_named("table.create", {**params, "autostart": False})
            await w.call("table.watch", info["table"])
            await p.call("table.join", info["table"], 1)
        # the person has quit; the bot sits down and the table starts (with the key)

        async def sit() -> None:
            outcome.update(
                await play(
                    bot, table=info["table"], seat=2, reconnect=0, on_seated=lambda _: seated.set()
                )
            )

        nursery.start_soon(sit)
        await seated.wait()
        async with served.net.connect(name="starter") as starter:
            await starter.call("table.start", info["table"], info["key"])
        await watcher.finished.wait()
    final = watcher.statuses[-1]
    assert outcome["state"] == "playing" and outcome["chips"][1] < outcome["min_chips"]
    assert outcome["left"].startswith("all-in in seat 2 of table") and "leaves" in outcome["left"]
    assert any("less than the minimum" in r.getMessage() for r in caplog.records)
    assert final["played"] == outcome["played"]  # no round dealt after the bot went broke
    assert final["seats"][1]["kind"] == "free"  # given up, not just disconnected
    assert final["reason"] in ("every bot left", "nobody present can pay the minimum")


def test_a_broke_croupier_bot_says_so_in_one_line_and_exits_cleanly(cli, threaded_server):
    """README's flow: a person creates a 2-seat table and sits down, then quits (the seat
    keeps its chips); ``croupier bot lim17 --table T`` takes the other seat, plays until it
    is broke, then says so on one line, leaves and exits 0."""

    async def person() -> int:
        async with connect("127.0.0.1", threaded_server, name="person", role="bot") as p:
            params = {"seats": 2, "seed": 11, "options": {"starting_chips": 20}}
            table = await p.call_named("table.create", params)
            await p.call("table.join", table["table"], 1)
            return int(table["table"])  # quits: its seat keeps its token and its chips

    table = trio.run(person)
    where = f"127.0.0.1:{threaded_server}"
    status, out, err = cli("bot", "lim17", "--table", str(table), "--connect", where)
    assert status == 0, err
    said = [line for line in err.splitlines() if "less than the minimum" in line]
    assert len(said) == 1 and said[0].startswith("croupier: lim17 in seat 2 of table")
    assert "Traceback" not in err
    assert out.startswith(f"table {table}: ") and "(lim17 left it, broke)" in out

    async def info() -> dict[str, Any]:
        async with connect("127.0.0.1", threaded_server, name="look") as c:
            return dict(await c.call("table.info", table))

    seen = trio.run(info)
    assert seen["seats"][1]["kind"] == "free"  # given up
    assert seen["chips"][1] < seen["min_chips"] <= seen["chips"][0]
