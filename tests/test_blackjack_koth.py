"""The solver under the contest's rules (koth: ties lose, a natural is an ordinary 21),
checked against the round engine dealing every ordering of a small unseen pack."""

from __future__ import annotations

from itertools import permutations

import pytest
from tablekit import drive, stacked_core

from croupier.engine import CroupierError
from croupier.plugins.blackjack.play import Action
from croupier.plugins.blackjack.simulate import simulate
from croupier.plugins.blackjack.solver import solve_rules
from croupier.plugins.blackjack.solver.cards import counts_of, parse_cards
from croupier.plugins.blackjack.solver.hand import make_hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.strategy import local_strategy


def koth(manager, **changes):
    return manager.rule_sets.get("koth").rules.evolve(**changes)


def engine_average(manager, rules, hand: str, upcard: str, unseen: str, policy) -> float:
    """Mean result per unit bet of ``policy`` over every ordering of ``unseen``."""
    a, b = hand.split(",")
    total = n = 0
    for order in set(permutations(unseen.split(","))):
        deal = [a + "S", upcard + "H", b + "D"] + [r + "SHDC"[i % 4] for i, r in enumerate(order)]
        core = stacked_core(manager, rules, " ".join(deal), chips=(1000,))
        drive(core, answer_with(rules, policy))
        total += core.ledger.balances["seat-1"] - 1000
        n += 1
    return total / n / rules.min_bet


def answer_with(rules, policy):
    """The stake when asked, then the policy's moves in order."""
    moves = list(policy)
    return lambda d: Action("bet", rules.min_bet) if d.phase == "bet" else Action(moves.pop(0))


def evaluator(rules, hand: str, upcard: str, unseen: str, objective="ev-ties-lose"):
    cards = parse_cards(hand)
    up = parse_cards(upcard)[0]
    shoe = counts_of([*parse_cards(unseen), *cards, up])
    ev = Evaluator(rules, up, shoe, objective)
    return ev, make_hand(cards, True)


CASES = [
    ("T,7", "9", "A,2,3,7,8,T,T"),  # 17 against 9: ties at 17..19 lose
    ("A,T", "T", "A,2,5,6,9,T,T"),  # a natural against a ten: loses to the dealer's 21s
    ("9,2", "6", "A,3,4,5,8,T,T"),  # a double
    ("A,6", "7", "2,3,4,5,9,T,T"),  # soft 17
]


@pytest.mark.parametrize(("hand", "upcard", "unseen"), CASES)
def test_stand_and_double_match_every_deal_of_the_engine(manager, hand, upcard, unseen):
    rules = koth(manager)
    ev, h = evaluator(rules, hand, upcard, unseen)
    stand = engine_average(manager, rules, hand, upcard, unseen, ["stand"])
    assert ev.stand(h) == pytest.approx(stand, abs=1e-12)
    if ev.can_double(h):
        double = engine_average(manager, rules, hand, upcard, unseen, ["double"])
        assert ev.double(h) == pytest.approx(double, abs=1e-12)


@pytest.mark.parametrize(("hand", "upcard", "unseen"), CASES[:1] + CASES[2:])
def test_hit_then_stand_matches_the_engine(manager, hand, upcard, unseen):
    rules = koth(manager)
    ev, h = evaluator(rules, hand, upcard, unseen)
    ours = sum(p * ev.stand(h.add(r)) for p, r in ev.draws(h))
    theirs = engine_average(manager, rules, hand, upcard, unseen, ["hit", "stand"])
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_ties_lose_costs_exactly_the_push_probability(manager):
    """The same hand under casino betting (no peek): standing differs by P(tie) alone."""
    rules = koth(manager)
    spot = ("T,7", "9", "A,2,3,7,8,T,T")
    ev, h = evaluator(rules, *spot)
    casino_rules = rules.evolve(betting="casino")
    casino, _ = evaluator(casino_rules, *spot, objective="ev")
    assert casino.stand(h) == pytest.approx(
        engine_average(manager, casino_rules, *spot, ["stand"]), abs=1e-12
    )
    assert ev.stand(h) < casino.stand(h)


def test_koth_chart_and_edge_from_the_solver_by_name(manager):
    rules = koth(manager)
    out = manager.solvers.get("blackjack").solve({"rules": rules.to_dict()})
    assert "ties" not in out["objective"]  # the objective asked for is reported
    assert "a tie loses" in out["note"]
    assert out["house_edge"]["composition_dependent"] > 0.05  # ties lose: a steep game
    hand = manager.solvers.get("blackjack").solve(
        {"rules": rules.to_dict(), "hand": "A,T", "upcard": "T"}
    )["hand"]
    assert "natural" not in hand and hand["best"] == "stand"  # an ordinary 21, no bonus


@pytest.mark.slow
def test_simulated_koth_basic_earns_the_solvers_edge(manager):
    """The koth rules dealt from a fresh deck each round (the chart's assumption; the
    contest's shared deck leaves other cards): the simulator lands on the chart's edge."""
    rules = koth(manager, shoe="fresh-pack")
    edge = solve_rules(rules).edge_td
    report = simulate(manager, rules, local_strategy(manager, "basic", rules), 40_000, 1, seed=11)
    low, high = report["ci95"]
    sigma = (high - low) / 2 / 1.96
    assert abs(report["mean"] - (-edge)) < 3 * sigma
    assert report["conserved"]


def test_ties_lose_with_a_peek_is_refused(manager):
    rules = koth(manager, peek=True)
    with pytest.raises(CroupierError, match="without the dealer's peek"):
        manager.solvers.get("blackjack").solve({"rules": rules.to_dict()})


def test_a_bonus_payout_is_refused_where_naturals_earn_none(cli):
    """koth and classic settle a natural as an ordinary win: a 3:2 override would be
    silently ignored by the table and the solver alike, so both refuse it in one line."""
    for argv in (
        ("sim", "--rules", "koth", "--payout", "3:2", "--hands", "5", "--seed", "1"),
        ("sim", "--rules", "classic", "--payout", "6:5", "--hands", "5", "--seed", "1"),
        ("solve", "blackjack", "--rules", "koth", "--payout", "3:2"),
    ):
        status, _, err = cli(*argv)
        assert status == 1 and "pays no bonus for a natural" in err and err.count("\n") == 1
