"""Blackjack bets scored by the exact edge of the round they go into: a counter's bets
follow the edge (its stake-weighted edge is above the mean edge of its rounds), a flat
bettor's do not (the two are equal); the first round of a fresh single deck has the edge
the solver gives that deck."""

from __future__ import annotations

import json
from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.engine.games import Plain
from croupier.engine.gametable import GameTable
from croupier.engine.scoring import oracle_for
from croupier.plugins.blackjack.oracle import BlackjackOracle
from croupier.plugins.blackjack.round_edge import round_edge
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.solver.analysis import solve_rules


class Bettor:
    """Stands on every hand; bets ``high`` times the minimum into a round whose exact edge
    (from its own count of the shoe: a table listener shows it the events) is positive,
    else the minimum. ``high=1``: a flat bettor."""

    def __init__(self, options: dict[str, Any], high: int) -> None:
        self.oracle = BlackjackOracle(options)
        self.rules = rules_from_options(BlackjackRules(), options)
        self.high = high

    async def decide(self, observation: Plain) -> Plain:
        phase = observation["phase"]
        if phase == "bet":
            low = int(observation["min_bet"])
            edge = round_edge(self.rules, tuple(self.oracle.unseen)) if self.high > 1 else 0
            return {"kind": "bet", "amount": low * (self.high if edge > 0 else 1)}
        if phase in ("insurance", "surrender"):
            return {"kind": "decline"}
        return {"kind": "stand"}


@pytest.mark.slow
def test_a_counters_bets_follow_the_edge_and_a_flat_bettors_do_not(manager: PluginManager):
    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17", {"decks": 1, "penetration": 0.8})
    counter, flat = Bettor(options, 10), Bettor(options, 1)
    table = GameTable(
        game,
        options,
        21,
        [counter, flat],
        chips=[10**5, 10**5],
        oracle=oracle_for(manager, "blackjack").new(options),
        listeners=[counter.oracle.see, flat.oracle.see],
    )
    assert table.scorer is not None
    table.scorer.bets = True  # a whole solve per round: only when asked
    trio.run(table.play, 12)
    bets = [d for d in table.scorer.decisions() if d.phase == "bet"]
    assert len(bets) == 24 and all(d.loss == 0.0 for d in bets)
    # the first round of the fresh deck: the edge the solver gives a full single deck
    rules = rules_from_options(BlackjackRules(), options)
    assert bets[0].edge == pytest.approx(-solve_rules(rules).edge_cd, abs=1e-9)
    edges = {d.round: d.edge for d in bets}
    assert min(edges.values()) < 0 < max(edges.values())  # the count moved both ways
    assert all(d.edge == edges[d.round] for d in bets)  # both seats bet into one round
    high, low = table.scorer.card(1).to_dict()["bets"], table.scorer.card(2).to_dict()["bets"]
    assert high["count"] == low["count"] == 12
    assert high["mean_edge"] == pytest.approx(low["mean_edge"])  # the same rounds
    assert low["staked_edge"] == pytest.approx(low["mean_edge"])  # flat: no skill at betting
    assert high["staked_edge"] > high["mean_edge"]  # its big bets went into the good rounds
    big = [d for d in bets if d.seat == 1 and d.staked > 10]
    assert big and all(d.edge is not None and d.edge > 0 for d in big)


def test_bets_are_left_unscored_unless_asked(manager: PluginManager):
    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17", {"decks": 1})
    table = GameTable(
        game,
        options,
        21,
        [Bettor(options, 1)],
        chips=[10**5],
        oracle=oracle_for(manager, "blackjack").new(options),
    )
    trio.run(table.play, 2)
    assert table.scorer is not None
    assert [d for d in table.scorer.decisions() if d.phase == "bet"] == []
    assert "bets" not in table.scorer.card(1).to_dict()


def test_croupier_tournament_reports_each_bots_bets_and_score_bets_only_where_dear(cli: Any):
    """The report of how a bot's bets followed the edge, in --json and in words: the
    strategies ante the minimum, flat, so their stake-weighted edge is their mean edge.
    Three Card Poker's oracle values every ante with ``--score`` alone, so ``--score-bets``
    asks for nothing there and is refused in one line, as ``table.create`` and
    ``tournament.start`` refuse ``score_bets`` (the contest's blackjack asks no bet: its
    bets are the table's)."""
    argv = ("tournament", "--game", "three-card-poker", "optimal", "always-play")
    settings = ("--tourneys", "1", "--rounds", "2", "--seed", "5")
    status, out, err = cli(*argv, *settings, "--score", "--json")
    assert status == 0, err
    result = json.loads(out)
    assert "score_bets" not in result["settings"]
    for card in result["scores"]:
        bets = card["bets"]
        assert bets["count"] == card["rounds"] > 0
        assert bets["staked_edge"] == pytest.approx(bets["mean_edge"])  # flat
        assert bets["mean_edge"] < 0  # the house's edge on the ante
    status, text, err = cli(*argv, *settings, "--score")
    assert status == 0, err
    assert "optimal's" in text and "bets: mean edge" in text and "weighted by stake" in text
    status, _, err = cli(*argv, *settings, "--score", "--score-bets")
    assert status != 0 and err.count("\n") == 1 and "Traceback" not in err
    assert "three-card-poker's oracle values every bet it can already" in err
    status, _, err = cli(*argv, *settings, "--score-bets")
    assert status != 0 and err.count("\n") == 1 and "--score-bets goes with --score" in err
