"""Order-free ratings: the Bradley-Terry fit, its intervals, its independence of game order,
and the server's leaderboard refit after each tournament, kept in the journal with history."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine import PluginManager
from croupier.engine.ratings import fit
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.journal import Journal

NAMES = ["a", "b", "c", "d"]


def result_lists(draw_scores):
    return [[(n, s) for n, s in zip(NAMES, scores, strict=True)] for scores in draw_scores]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 5), min_size=4, max_size=4), min_size=1, max_size=12),
    st.randoms(use_true_random=False),
)
def test_permuted_results_give_the_same_ratings(scores, rnd):
    results = result_lists(scores)
    shuffled = [rnd.sample(r, len(r)) for r in results]  # the entries in another order too
    rnd.shuffle(shuffled)
    assert fit(shuffled) == fit(results)


def test_the_stronger_bot_rates_higher_with_an_interval():
    rnd = random.Random(5)
    results = []
    for _ in range(200):  # a beats b 80% of the time, b beats c 80%
        a, b, c = rnd.random() + 0.6, rnd.random() + 0.3, rnd.random()
        results.append([("a", a), ("b", b), ("c", c)])
    lines = fit(results)
    assert [r.name for r in lines] == ["a", "b", "c"]
    for r in lines:
        assert r.low < r.rating < r.high and r.games == 200 and r.comparisons == 400
    assert lines[0].low > lines[2].high  # a and c told apart
    assert abs(sum(r.rating for r in lines) / 3 - 1500) < 1e-6  # centred on 1500


def test_ties_rate_equal_and_nothing_rates_nothing():
    lines = fit([[("x", 5), ("y", 5)]] * 3)
    assert lines[0].rating == pytest.approx(lines[1].rating) == pytest.approx(1500)
    assert fit([]) == []


@pytest.fixture
async def journaled(nursery, tmp_path):
    journal = Journal(str(tmp_path / "j.db"))
    manager = PluginManager(autoload=False)
    server = Server(manager, default_game="blackjack", seed=9, journal=journal)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()
    await journal.aclose()


async def play_one(port: int, bots: list[str], seed: int) -> dict[str, Any]:
    finished = trio.Event()
    infos: list[dict[str, Any]] = []

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status":
            infos.append(params[1])
            if params[1]["state"] == "finished":
                finished.set()

    async with connect("127.0.0.1", port, name="t", on_notification=status) as c:
        settings = {"tourneys": 4, "rounds": 3, "hands": 3, "seed": seed}
        await c.call_named("tournament.start", {"bots": bots, **settings})
        with trio.fail_after(30):
            await finished.wait()
        return dict(await c.call_named("leaderboard", {"name": "lim17"}))


async def test_the_leaderboard_is_refit_after_each_tournament(journaled):
    first = await play_one(journaled.port, ["lim17", "never-bust", "mimic-dealer"], 1)
    assert first["fit"] == 1 and {b["name"] for b in first["bots"]} == {
        "lim17",
        "never-bust",
        "mimic-dealer",
    }
    assert all(b["low"] <= b["rating"] <= b["high"] and b["games"] == 4 for b in first["bots"])
    assert first["bots"][0]["rank"] == 1 and first["bots"][0]["skill"] is None
    second = await play_one(journaled.port, ["lim17", "lim17", "never-bust"], 2)
    assert second["fit"] == 2
    games = {b["name"]: b["games"] for b in second["bots"]}
    assert games == {"lim17": 8, "never-bust": 8, "mimic-dealer": 4}  # lim17#2 is lim17
    assert [f["fit"] for f in second["history"]["fits"]] == [1, 2]  # kept with its history


async def test_a_server_without_a_journal_has_no_leaderboard(nursery):
    server = Server(PluginManager(autoload=False), seed=1)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    try:
        async with connect("127.0.0.1", server.port, name="t") as c:
            with pytest.raises(RpcError) as caught:
                await c.call_named("leaderboard", {})
            assert caught.value.code == Code.BAD_INPUT and "no journal" in caught.value.message
    finally:
        server.stop()


def test_the_leaderboard_command_reads_a_journal_offline(cli, tmp_path):
    from croupier.protocol import ratings
    from croupier.protocol.journal.schema import open_for_writing

    path = str(tmp_path / "j.db")
    conn = open_for_writing(path)
    first = fit([[("basic", 300), ("lim17", 200)]] * 3 + [[("basic", 100), ("lim17", 200)]])
    conn.executemany(ratings.INSERT, ratings.rows(1, 7, first))
    conn.close()
    status, out, err = cli("leaderboard", "--data", path, "--bot", "lim17")
    assert status == 0, err
    rows = [line.split() for line in out.splitlines() if "│" in line]
    assert [(row[0], row[2]) for row in rows] == [("1", "basic"), ("2", "lim17")]
    assert "lim17 at fit 1 (tournament 7)" in out
    status, out, _ = cli("leaderboard", "--data", path, "--json")
    assert [b["name"] for b in json.loads(out)["bots"]] == ["basic", "lim17"]
    status, _, err = cli("leaderboard", "--data", str(tmp_path / "none.db"))
    assert status == 1 and err.count("\n") == 1 and "no journal at" in err


def test_the_leaderboard_shows_the_scored_figures_pooled_over_tournaments(manager, tmp_path):
    from croupier.engine.tournament import TournamentConfig
    from croupier.engine.tournament_run import run_tournament
    from croupier.plugins.blackjack.entries import StrategyEntry
    from croupier.plugins.blackjack.strategy import local_strategy
    from croupier.protocol import ratings
    from croupier.protocol.journal.schema import open_for_writing
    from croupier.protocol.leaderboard import board

    game = manager.games.get("blackjack")
    options = manager.rule_sets.get("koth").rules.to_dict()
    conn = open_for_writing(str(tmp_path / "j.db"))
    results = []
    for seed in (1, 2):  # two scored tournaments: figures pooled over both
        config = TournamentConfig.of(game, options, seed, tourneys=2, rounds=2, scored=True)
        rules = manager.rule_sets.get("koth").rules
        entries = [
            StrategyEntry("basic", local_strategy(manager, "basic", rules)),
            StrategyEntry("lim17", manager.strategies.get("lim17")),
        ]
        result = run_tournament(manager, config, entries).to_dict()
        results.append(result)
        conn.execute(
            "INSERT INTO tournaments (id, game, rules, seed, settings, bots, state, reason,"
            " created, result) VALUES (?, 'blackjack', '{}', ?, '{}', '[]', 'finished',"
            " 'played', 0, ?)",
            (seed, str(seed), json.dumps(result)),
        )
    fitted = fit([r for result in results for r in ratings.results_of(result)])
    conn.executemany(ratings.INSERT, ratings.rows(1, 2, fitted))
    lines = {b["name"]: b for b in board(conn)["bots"]}
    conn.close()
    for i, name in enumerate(("basic", "lim17")):
        cards = [result["scores"][i] for result in results]
        decisions = sum(c["decisions"] for c in cards)
        loss = sum(c["decisions"] * c["loss_per_decision"][0] for c in cards) / decisions
        skill = lines[name]["skill"]
        assert skill["decisions"] == decisions > 0
        assert skill["ev_loss_per_decision"] == pytest.approx(loss)
    assert (
        lines["lim17"]["skill"]["ev_loss_per_decision"]
        > lines["basic"]["skill"]["ev_loss_per_decision"]
    )
