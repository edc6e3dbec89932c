"""The total-dependent edge says which chart it plays: the one built for the shoe, or the
infinite-deck chart played in it (what many published tables mean)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from croupier.engine import CroupierError
from croupier.plugins.blackjack.solver import solve_rules


@pytest.mark.parametrize(
    ("rule_set", "decks"), [("vegas-s17", 1), ("vegas-h17", 2), ("single-deck", 6)]
)
def test_the_shoes_own_chart_is_never_worse_than_the_infinite_decks(manager, rule_set, decks):
    rules = manager.rule_sets.get(rule_set).rules.evolve(decks=decks)
    own = solve_rules(rules)
    infinite = solve_rules(rules, td_chart="infinite")
    # both charts are played exactly in the same shoe; the one built for it can only do
    # as well or better, and composition-dependent play better still
    assert own.edge_td <= infinite.edge_td
    assert own.edge_cd <= own.edge_td
    assert infinite.chart == solve_rules(rules.evolve(decks=None)).chart
    assert infinite.edge_cd == own.edge_cd  # the chart choice changes nothing else


def test_in_an_infinite_deck_the_two_are_one(manager):
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=None)
    assert solve_rules(rules, td_chart="infinite").edge_td == solve_rules(rules).edge_td


@pytest.mark.slow
def test_one_deck_the_charts_differ_and_the_output_says_which(cli):
    argv = ("solve", "blackjack", "--decks", "1", "--json")
    own = json.loads(cli(*argv)[1])
    status, out, err = cli(*argv, "--td-chart", "infinite")
    assert status == 0, err
    infinite = json.loads(out)
    assert (
        own["house_edge"]["total_dependent_chart"] == "the chart built for 1 deck(s), played in it"
    )
    assert (
        infinite["house_edge"]["total_dependent_chart"]
        == "the infinite-deck chart, played in 1 deck(s)"
    )
    assert own["house_edge"]["total_dependent"] < infinite["house_edge"]["total_dependent"]
    assert (
        own["chart"]["hard"] != infinite["chart"]["hard"]
        or own["chart"]["soft"] != infinite["chart"]["soft"]
        or own["chart"]["pairs"] != infinite["chart"]["pairs"]
    )
    status, out, _ = cli("solve", "blackjack", "--decks", "1", "--td-chart", "infinite")
    assert "(total-dependent: the infinite-deck chart, played in 1 deck(s))" in out
    # docs/blackjack-solver.md quotes both edges as the command prints them
    printed = [f"{100 * e['house_edge']['total_dependent']:.4f}%" for e in (own, infinite)]
    assert f"house edge: {printed[1]} playing this chart" in out
    doc = (Path(__file__).parent.parent / "docs" / "blackjack-solver.md").read_text()
    quoted = re.search(r"one deck:\s+(-[\d.]+%) against (-[\d.]+%)", doc)
    assert quoted is not None and list(quoted.groups()) == printed


def test_a_bad_td_chart_is_refused(manager):
    solver = manager.solvers.get("blackjack")
    with pytest.raises(CroupierError, match="td_chart is actual or infinite, not 'finite'"):
        solver.solve({"rules": {"decks": 2}, "td_chart": "finite"})
