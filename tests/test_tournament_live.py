"""A tournament's live view (``live`` in ``tournament.status``): the round's tables as they
start, the standings and a chip-curve point per bot after each booked round."""

from __future__ import annotations

from typing import Any

import trio

from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import play_tournament
from croupier.plugins.blackjack.entries import StrategyEntry
from croupier.protocol.tournaments.live import MAX_TABLES, LiveView


def test_the_live_view_follows_the_rounds_and_ends_at_the_result(manager):
    names = ["lim17", "never-bust", "mimic-dealer", "lim17"]
    entries = [StrategyEntry(n, manager.strategies.get(n)) for n in names]
    koth = manager.rule_sets.get("koth").rules.to_dict()
    config = TournamentConfig.of(
        manager.games.get("blackjack"), koth, 3, tourneys=12, rounds=4, hands=3
    )
    live = LiveView(names, config.starting_chips)
    seen: list[dict[str, Any]] = []

    def started(tournament, jobs):
        live.started(tournament, jobs)
        seen.append(live.to_dict())
        # no more tables are listed than allowed, each with its bots' chips
        assert (
            len(live.tables) == min(len(jobs), MAX_TABLES) == min(live.tables_in_round, MAX_TABLES)
        )
        assert all(len(t["bots"]) == len(t["chips"]) for t in live.tables)

    def progress(runs):
        live.booked()
        assert live.tables == [] and live.tables_in_round == 0

    result = trio.run(
        lambda: play_tournament(manager, config, entries, progress=progress, started=started)
    )
    assert [s["round"] for s in seen] == [1, 2, 3, 4]
    final = live.to_dict()
    # the last standings are the result's (scores aside), and each curve ends at its mean
    assert final["standings"] == [
        {k: v for k, v in line.items() if k != "scores"} for line in result.to_dict()["standings"]
    ]
    by_bot = {line["bot"]: line["mean"] for line in final["standings"]}
    for bot, curve in enumerate(final["curves"]):
        assert curve["chips"][0] == config.starting_chips
        assert len(curve["chips"]) == config.rounds + 1
        assert curve["chips"][-1] == by_bot[bot]
    assert [c["name"] for c in final["curves"]] == [
        "lim17",
        "never-bust",
        "mimic-dealer",
        "lim17#2",
    ]
