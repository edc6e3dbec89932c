"""A scored server tournament (``tournament.start`` with ``scored``): each bot's scorecard
in the result and in its standings line, the same as a local scored run's; its costliest
decisions say at which table (tourney, round, table) and round they were taken; a game
with no oracle is one line; a recovered tournament keeps the scores of the tables it
books from the journal."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import GameStrategyEntry, play_tournament
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.tournaments.results import result_from_dict, result_to_dict
from tests import test_recovery_tournaments as recovery
from tests.test_scoring import _Plain

SETTINGS = {"tourneys": 2, "rounds": 2, "hands": 6, "seed": 19}


@pytest.fixture
async def served(nursery):
    manager = PluginManager(autoload=False, plugins=[("plain", _Plain)])
    server = Server(manager, default_game="blackjack", seed=41)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()


def always_play(observation: Any) -> Any:
    """A TCP bot that antes the minimum and plays every hand (folding is worth more with
    less than Q-6-4)."""
    if observation["phase"] == "bet":
        return {"kind": "bet", "ante": observation["min_bet"]}
    return {"kind": "play"}


async def test_a_scored_server_tournament_holds_each_bots_scorecard(served):
    manager = served.manager
    game = manager.games.get("three-card-poker")
    options = game.rules(None, {})
    config = TournamentConfig.of(game, options, scored=True, **SETTINGS)
    local = await play_tournament(
        manager,
        config,
        [
            GameStrategyEntry(name, game.name, game.strategy(name).at(options))
            for name in ("optimal", "always-play")
        ],
    )
    finished = trio.Event()
    infos: list[dict[str, Any]] = []

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status":
            infos.append(params[1])
            if params[1]["state"] == "finished":
                finished.set()

    start = {
        "game": "three-card-poker",
        "bots": ["optimal", "tcp"],
        **SETTINGS,
        "open": True,
        "operator_key": served.operator_key,
        "scored": True,
    }
    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        with pytest.raises(RpcError) as refused:
            await c.call_named("tournament.start", {**start, "game": "no-oracle-poker"})
        assert refused.value.code == Code.BAD_INPUT
        assert "has no oracle, so its play cannot be scored" in str(refused.value)
        with pytest.raises(RpcError) as refused:
            await c.call_named("tournament.start", {**start, "scored": False, "score_bets": True})
        assert refused.value.code == Code.BAD_INPUT and "score_bets goes with" in str(refused.value)
        with pytest.raises(RpcError) as refused:  # its oracle values every bet already
            await c.call_named("tournament.start", {**start, "score_bets": True})
        assert refused.value.code == Code.BAD_INPUT
        assert "three-card-poker's oracle values every bet it can already" in str(refused.value)
        info = await c.call_named("tournament.start", start)
        assert info["settings"]["scored"] is True and "score_bets" not in info["settings"]

        async def decide(tournament: int, observation: Any) -> Any:
            return always_play(observation)

        handlers = {"decide": decide}
        async with connect(
            "127.0.0.1", served.port, name="always", role="bot", handlers=handlers
        ) as bot:
            await bot.call("tournament.join", info["tournament"])
            with trio.fail_after(60):
                await finished.wait()
    result = infos[-1]["result"]
    want = local.to_dict()
    assert result["scores"] == want["scores"] and len(result["scores"]) == 2
    optimal, always = result["scores"]
    assert optimal["decisions"] > 0 and optimal["loss_per_decision"][0] == 0.0
    assert always["loss_per_decision"][0] > 0.0
    lines = {line["bot"]: line for line in result["standings"]}
    assert lines[0]["skill"] == optimal and lines[1]["skill"] == always
    assert [line["skill"] for line in want["standings"]] == [
        line["skill"] for line in result["standings"]
    ]
    worst = always["costliest"][0]
    tourney, round_, table = worst["table"]  # where it was taken, for a replay to show
    assert 1 <= tourney <= 2 and 1 <= round_ <= 2 and table >= 1 and 1 <= worst["round"] <= 6
    assert worst["taken"] == "play" and worst["best"] == "fold"
    live = [i["live"] for i in infos if i.get("live") and i["live"]["standings"]]
    assert live and all("skill" in line for line in live[-1]["standings"])


async def test_a_tournament_tables_scores_survive_the_journal(served):
    """What the journal keeps of a scored tournament's table (and a recovered tournament
    books) holds its scorecards."""
    manager = served.manager
    game = manager.games.get("three-card-poker")
    options = game.rules(None, {})
    config = TournamentConfig.of(game, options, scored=True, **SETTINGS)
    booked = []
    await play_tournament(
        manager,
        config,
        [
            GameStrategyEntry(name, game.name, game.strategy(name).at(options))
            for name in ("optimal", "always-play")
        ],
        on_table=booked.append,
    )
    assert booked and all(r.scores for r in booked)
    for result in booked:
        again = result_from_dict(result_to_dict(result))
        assert again.scores == result.scores


@pytest.mark.parametrize("keep", [0, 3])
async def test_a_recovered_scored_tournament_ends_with_the_same_scorecards(nursery, tmp_path, keep):
    """A crash once ``keep`` tables were recorded: the restarted server books them with
    their scorecards from the journal, plays the rest scored, and ends with the result of
    a run that never stopped, scorecards and skill lines included."""
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    server = await recovery.serve(nursery, whole)
    done = trio.Event()

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status" and params[1]["state"] == "finished":
            done.set()

    start = {
        "game": "three-card-poker",
        "bots": ["optimal", "always-play", "pair-plus", "optimal"],
        **SETTINGS,
        "scored": True,
    }
    async with connect("127.0.0.1", server.port, name="c", on_notification=status) as c:
        tid = (await c.call_named("tournament.start", start))["tournament"]
        with trio.fail_after(60):
            await done.wait()
    await recovery.stop(server)
    state, _, want = recovery.head(whole, tid)
    assert state == "finished" and want["tables"] > keep and len(want["scores"]) == 4
    recovery.crash_after(whole, cut, tid, keep)
    server = await recovery.serve(nursery, cut)
    found = recovery.tournaments_of(server).tournaments[tid]
    assert len(found.known) == keep and all(r.scores for r in found.known.values())
    await found.done.wait()
    await recovery.stop(server)
    state, reason, got = recovery.head(cut, tid)
    assert (state, reason) == ("finished", "played")
    assert got["scores"] == want["scores"]
    assert [s.get("skill") for s in got["standings"]] == [s.get("skill") for s in want["standings"]]
    assert got == want
