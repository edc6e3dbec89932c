"""Tables of another game on the server: baccarat with a remote bot, a watcher and a
built-in strategy, the same as blackjack tables but for the game's own data."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.protocol import Code, RpcError, connect
from tests.servedtables import Recorder, start_table_server


@pytest.fixture
async def served(nursery):
    server = await start_table_server(nursery, vacant_timeout=30, unclaimed_timeout=30)
    yield server
    server.stop()


async def test_a_bot_plays_baccarat_against_a_strategy_and_a_watcher_sees_it(served):
    asked: list[dict[str, Any]] = []

    async def decide(table: int, observation: Any) -> Any:
        asked.append(observation)
        if observation["refused"] is None and len(asked) == 1:
            return {"kind": "bet", "dragon": 20}  # refused: asked again with the reason
        return {"kind": "bet", "player": 20, "tie": 20}

    watcher = Recorder()
    async with (
        connect("127.0.0.1", served.port, name="w", on_notification=watcher) as w,
        connect("127.0.0.1", served.port, name="b", role="bot", handlers={"decide": decide}) as bot,
    ):
        info = await w.call_named(
            "table.create",
            {"game": "baccarat", "seats": 2, "fill": [None, "banker"], "rounds": 12, "seed": 8},
        )
        assert info["game"] == "baccarat" and info["rules"]["decks"] == 8
        assert info["rule_set"] is None and info["chips"] == [2000, 2000]
        await w.call("table.watch", info["table"])
        joined = await bot.call("table.join", info["table"])
        assert joined["seat"] == 1
        await watcher.finished.wait()
    final = watcher.statuses[-1]
    assert final["played"] == 12 and final["reason"] == "12 rounds played"
    assert sum(final["chips"]) + final["house"] == 4000
    coups = watcher.kinds("coup")
    assert len(coups) == 12 and all(c["winner"] in ("player", "banker", "tie") for c in coups)
    refused = watcher.kinds("refused")
    assert len(refused) == 1 and "not dragon" in refused[0]["reason"]
    assert asked[1]["refused"] == refused[0]["reason"]
    assert asked[0]["legal"] == ["bet", "pass"] and asked[0]["min_bet"] == 20
    # the bot's chips follow from its bets and the coups: player and tie, 20 each
    chips = 2000
    for coup in coups:
        winner = coup["winner"]
        chips += {"player": 40 - 40, "tie": 20 + 180 - 40, "banker": -40}[winner]
    assert final["chips"][0] == chips


async def test_a_table_of_strategies_is_reproducible_from_its_seed(served):
    async def once() -> dict[str, Any]:
        watcher = Recorder()
        async with connect("127.0.0.1", served.port, name="c", on_notification=watcher) as c:
            create = {
                "game": "baccarat",
                "rules": "no-commission",
                "seats": 3,
                "fill": ["banker", "player", "tie"],
                "rounds": 40,
                "seed": 3,
                "autostart": False,
            }
            info = await c.call_named("table.create", create)
            await c.call("table.watch", info["table"])
            await c.call("table.start", info["table"], info["key"])
            await watcher.finished.wait()
            return watcher.statuses[-1]

    first, second = await once(), await once()
    assert first["chips"] == second["chips"] and first["rules"]["commission"] == "none"


@pytest.mark.parametrize(
    ("params", "code", "message"),
    [
        ({"game": "poker"}, Code.UNKNOWN_NAME, "unknown game 'poker'"),
        ({"game": "baccarat", "rules": "vegas-s17"}, Code.UNKNOWN_NAME, "no rule set 'vegas-s17'"),
        ({"game": "baccarat", "options": {"h17": True}}, Code.BAD_INPUT, "has no option 'h17'"),
        ({"game": "baccarat", "fill": ["lim17"], "rounds": 1}, Code.UNKNOWN_NAME, "no strategy"),
        # named before the rounds a table of strategies also lacks
        ({"game": "baccarat", "fill": ["lim17"]}, Code.UNKNOWN_NAME, "no strategy 'lim17'"),
        ({"game": "baccarat", "seats": 8}, Code.BAD_INPUT, "1 to 7 seats"),
    ],
)
async def test_bad_game_tables_are_clear_errors(served, params, code, message):
    async with connect("127.0.0.1", served.port, name="c") as c:
        with pytest.raises(RpcError) as caught:
            await c.call_named("table.create", params)
    assert caught.value.code == code and message in caught.value.message


async def test_an_sdk_game_bot_plays_baccarat_in_ten_lines(served):
    from croupier.clients.bot import GameBot, play

    class Counter(GameBot):
        game = "baccarat"
        events = True

        def __init__(self) -> None:
            super().__init__()
            self.coups: list[str] = []

        def decide(self, observation):
            return {"kind": "bet", "banker": observation["min_bet"]}

        def on_event(self, event):
            if event["kind"] == "coup":
                self.coups.append(event["winner"])

    bot = Counter()
    final = await play(bot, "127.0.0.1", served.port, create={"seats": 1, "rounds": 10})
    assert final["game"] == "baccarat" and final["played"] == 10
    assert len(bot.coups) == 10
    wins, losses = bot.coups.count("banker"), bot.coups.count("player")
    assert final["chips"][0] == 2000 + 19 * wins - 20 * losses  # 20 on banker wins 19


async def test_a_bot_plays_three_card_poker_both_decisions(served):
    from croupier.clients.bot import GameBot, play

    class Plays(GameBot):
        game = "three-card-poker"

        def __init__(self) -> None:
            super().__init__()
            self.phases: list[str] = []

        def decide(self, observation):
            self.phases.append(observation["phase"])
            if observation["phase"] == "bet":
                return {"kind": "bet", "ante": observation["min_bet"]}
            return {"kind": "play"}

    bot = Plays()
    create = {"seats": 2, "fill": [None, "optimal"], "rounds": 8, "seed": 4}
    final = await play(bot, "127.0.0.1", served.port, create=create)
    assert final["game"] == "three-card-poker" and final["played"] == 8
    assert bot.phases == ["bet", "play"] * 8
    assert sum(final["chips"]) + final["house"] == 2000


def test_a_game_tournaments_log_replays_and_an_edit_is_caught(cli, tmp_path):
    log = tmp_path / "bac.jsonl"
    argv = ("tournament", "--game", "baccarat", "banker", "tie", "player", "player")
    status, out, err = cli(
        *argv, "--tourneys", "3", "--rounds", "4", "--seed", "6", "--log", str(log)
    )
    assert status == 0, err
    status, again, err = cli("tournament", "--replay", str(log))
    assert status == 0 and again.replace("replayed", "played") == out, err
    lines = log.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"kind": "action"' in line and "tie" in line)
    lines[at] = lines[at].replace('"tie": 20', '"tie": 40')
    log.write_text("\n".join(lines) + "\n")
    status, _, err = cli("tournament", "--replay", str(log))
    assert status == 1 and "replay differs at event" in err and err.count("\n") == 1


@pytest.mark.slow
def test_local_tournaments_of_other_games(cli):
    import json

    argv = ("tournament", "--game", "baccarat", "banker", "tie", "player", "--tourneys", "6")
    argv += ("--rounds", "10", "--seed", "2", "--json")
    status, out, err = cli(*argv)
    assert status == 0, err
    result = json.loads(out)
    assert {s["name"] for s in result["standings"]} == {"banker", "tie", "player"}
    assert all(s["hands"] == 6 * 10 * 5 and s["faults"] == 0 for s in result["standings"])
    status, again, _ = cli(*argv, "--workers", "2")
    assert json.loads(again)["standings"] == result["standings"]  # wherever tables are played
    status, out, err = cli(
        "tournament", "--game", "three-card-poker", "optimal", "always-play", "pair-plus",
        "--tourneys", "4", "--rounds", "50", "--seed", "3", "--json",
    )  # fmt: skip
    assert status == 0, err
    standings = json.loads(out)["standings"]
    assert all(s["faults"] == 0 for s in standings)  # pair plus only when it can pay
    for s in standings:  # a bot that cannot cover an ante and its play has left the run
        assert s["broke"] == sum(score < 20 for score in s["scores"])
    for extra, message in [
        (
            ("lim17",),
            "a baccarat tournament seats its strategies (player, banker, tie), not 'lim17'",
        ),
        (("banker", "--set", "decks=0"), "a baccarat shoe holds 1 to 16 decks, not 0"),
    ]:
        status, _, err = cli("tournament", "--game", "baccarat", *extra)
        assert status == 1 and message in err, err


def test_croupier_bot_plays_another_games_strategy(cli, threaded_server):
    import json

    where = f"127.0.0.1:{threaded_server}"
    argv = ("bot", "banker", "--game", "baccarat", "--connect", where, "--seed", "5")
    status, out, err = cli(*argv, "--rounds", "30", "--seats", "2", "--fill", "-", "player")
    assert status == 0, err
    assert "banker sits at seat 1 of table 1 (baccarat, seed 5" in err
    assert out.startswith("table 1: 30 rounds (30 rounds played); banker in seat 1: ")
    status, out, err = cli(*argv, "--rules", "no-commission", "--set", "min_bet=5", "--json")
    table = json.loads(out)["table"]
    assert status == 0 and table["rule_set"] == "no-commission", err
    assert table["rules"]["commission"] == "none" and table["rules"]["min_bet"] == 5
    net = json.loads(out)["net"]
    assert table["chips"][0] == 2000 + net and sum(table["chips"]) + table["house"] == 2000
    for extra, message in [
        (("--h17",), "--h17/--s17 is a blackjack rule; baccarat's options are"),
        (("--set", "decks=99"), "a baccarat shoe holds 1 to 16 decks, not 99"),
        (("--rules", "vegas-s17"), "baccarat has no rule set 'vegas-s17'"),
    ]:
        status, _, err = cli(*argv, *extra)
        assert status == 1 and message in err and err.count("\n") == 1, err
    status, _, err = cli("bot", "lim17", "--game", "baccarat", "--connect", where)
    assert status == 1 and "baccarat has no strategy 'lim17'; known: player, banker" in err
    status, _, err = cli("bot", "lim17", "--connect", where, "--set", "decks=2")
    assert status == 1 and "--set applies to --game" in err
