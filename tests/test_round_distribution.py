"""The exact distribution of a round's net result: against brute force and the simulator.

The brute force plays the round card by card from an infinite deck (every card 1/13, tens
4/13), splitting, resplitting and doubling as the rules and the chart say, and keeps the
probability of each set of final hands; the dealer's outcomes are enumerated the same way.
It shares nothing with the solver but the chart it plays.
"""

from __future__ import annotations

import json
import math
from functools import cache

import pytest

from croupier.clients.cli.main import main
from croupier.engine import PluginManager
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import solve_rules
from croupier.plugins.blackjack.solver.chart import Chart
from croupier.plugins.blackjack.solver.distribution import chart_ev, round_distribution

P = [1 / 13] * 9 + [4 / 13]  # rank index 0 = ace .. 9 = ten


def best(cards: tuple[int, ...]) -> int:
    hard = sum(c + 1 for c in cards)
    return hard + 10 if 0 in cards and hard + 10 <= 21 else hard


@cache
def dealer_outcomes(up: int, h17: bool) -> dict[str, float]:
    """P(final total 17..21, 'bust', 'bj') for the dealer, by enumerating his draws."""
    out: dict[str, float] = {}

    def draw(cards: tuple[int, ...], p: float) -> None:
        total = best(cards)
        hard = sum(c + 1 for c in cards)
        soft = 0 in cards and hard + 10 <= 21
        if len(cards) == 2 and total == 21:
            out["bj"] = out.get("bj", 0.0) + p
        elif total > 21:
            out["bust"] = out.get("bust", 0.0) + p
        elif total > 17 or (total == 17 and not (soft and h17)):
            out[str(total)] = out.get(str(total), 0.0) + p
        else:
            for r in range(10):
                draw((*cards, r), p * P[r])

    draw((up,), 1.0)
    return out


def player_finals(
    rules: BlackjackRules, chart: Chart, c1: int, c2: int, up: int
) -> dict[object, float]:
    """P(final hands) for one deal: 'natural', 'surrender', or a sorted tuple of
    (total, bet) per hand (total 0 for a bust)."""
    if {c1, c2} == {0, 9}:
        return {"natural": 1.0}
    limit = 2 if c1 == 0 and not rules.resplit_aces else rules.max_split_hands

    def can_double(cards: tuple[int, ...], split: bool) -> bool:
        if rules.double == "none" or (split and not rules.double_after_split):
            return False
        if rules.double == "any":
            return True
        hard = sum(c + 1 for c in cards)
        soft = 0 in cards and hard + 10 <= 21
        return not soft and (9 if rules.double == "9-11" else 10) <= hard <= 11

    def final(total: int, bet: int) -> tuple[int, int]:
        return (total if total <= 21 else 0, bet)

    def hit_on(cards: tuple[int, ...], p: float, out: dict[object, float]) -> None:
        total = best(cards)
        if total >= 21 or chart.decide_ranks(list(cards), up, ["stand", "hit"]) == "stand":
            out[final(total, 1)] = out.get(final(total, 1), 0.0) + p
            return
        for r in range(10):
            hit_on((*cards, r), p * P[r], out)

    memo: dict[tuple[tuple[int, ...], int], dict[object, float]] = {}

    def one_hand(cards: tuple[int, ...], hands: int) -> dict[object, float]:
        """One hand's results: (total, bet), 'surrender' or 'split', by its card draws."""
        if (cards, hands) not in memo:
            memo[(cards, hands)] = play_hand(cards, hands)
        return memo[(cards, hands)]

    def play_hand(cards: tuple[int, ...], hands: int) -> dict[object, float]:
        split = hands > 1
        total = best(cards)
        if total >= 21:
            return {final(total, 1): 1.0}
        legal = ["stand", "hit"]
        if can_double(cards, split):
            legal.append("double")
        if not split and rules.surrender != "none":
            legal.append("surrender")
        if cards[0] == cards[1] and hands < limit and rules.max_split_hands >= 2:
            legal.append("split")
        if split and cards[0] == 0 and not rules.hit_split_aces:
            legal = [a for a in legal if a in ("stand", "split")]
        action = chart.decide_ranks(list(cards), up, legal)
        out: dict[object, float] = {}
        if action in ("stand", "surrender", "split"):
            out[final(total, 1) if action == "stand" else action] = 1.0
        elif action == "double":
            for r in range(10):
                key = final(best((*cards, r)), 2)
                out[key] = out.get(key, 0.0) + P[r]
        else:
            for r in range(10):
                hit_on((*cards, r), P[r], out)
        return out

    first = one_hand((c1, c2), 1)
    if "split" not in first:
        return {k if k == "surrender" else (k,): p for k, p in first.items()}
    # split hands are played one after another: (hands done, hands, waiting) -> P
    out: dict[object, float] = {}
    states: dict[tuple[tuple, int, int], float] = {((), 2, 2): first["split"]}
    while states:
        following: dict[tuple[tuple, int, int], float] = {}
        for (done, hands, waiting), p in states.items():
            if waiting == 0:
                out[done] = out.get(done, 0.0) + p
                continue
            for r in range(10):
                for result, q in one_hand((c1, r), hands).items():
                    if result == "split":
                        key = (done, hands + 1, waiting + 1)
                    else:
                        key = (tuple(sorted((*done, result))), hands, waiting - 1)
                    following[key] = following.get(key, 0.0) + p * P[r] * q
        states = following
    return out


def net(finals: object, dealer: str, rules: BlackjackRules) -> float:
    pays = float(rules.blackjack_pays)
    if finals == "natural":
        return 0.0 if dealer == "bj" else pays
    if dealer == "bj":
        if rules.peek:
            return -1.0
        if finals == "surrender":
            return -0.5
        return -float(sum(b for _, b in finals))  # type: ignore[union-attr]
    if finals == "surrender":
        return -0.5
    total = 0.0
    for player, bet in finals:  # type: ignore[union-attr]
        if player == 0:
            total -= bet
        elif dealer == "bust" or player > int(dealer):
            total += bet
        elif player < int(dealer):
            total -= bet
    return total


def brute_force(rules: BlackjackRules, chart: Chart) -> dict[float, float]:
    out: dict[float, float] = {}
    for up in range(10):
        dealer = dealer_outcomes(up, rules.hits_soft_17)
        for c1 in range(10):
            for c2 in range(10):
                p = P[up] * P[c1] * P[c2]
                for finals, q in player_finals(rules, chart, c1, c2, up).items():
                    for d, pd in dealer.items():
                        x = round(net(finals, d, rules), 9) + 0.0
                        out[x] = out.get(x, 0.0) + p * q * pd
    return out


CASES = [
    pytest.param(  # 3:2, S17, DAS, split to 4 hands, late surrender, peek (40 s; the last
        {},  # case below exercises the same splitting without the fourth hand)
        marks=pytest.mark.slow,
    ),
    {"dealer": "h17", "double_after_split": False, "resplit_aces": True, "surrender": "none"},
    pytest.param(  # hitting and resplitting aces: the slow brute force
        {"hit_split_aces": True, "resplit_aces": True, "double": "10-11", "blackjack_pays": "6:5"},
        marks=pytest.mark.slow,
    ),
    pytest.param(  # 12 s; no peek and 3 hands are each checked by the exact solver's tests
        {"peek": False, "surrender": "none", "max_split_hands": 3},
        marks=pytest.mark.slow,
    ),
]


@pytest.mark.parametrize("options", CASES)
def test_infinite_deck_distribution_equals_brute_force(options: dict[str, object]) -> None:
    rules = BlackjackRules().evolve(decks=None, **options)
    chart = solve_rules(rules).chart
    exact = round_distribution(rules, chart).outcomes
    brute = brute_force(rules, chart)
    assert set(exact) == {x for x, p in brute.items() if p > 1e-15}
    for x, p in brute.items():
        assert exact.get(x, 0.0) == pytest.approx(p, abs=1e-13), x
    if rules.double_after_split and rules.max_split_hands == 4:
        assert max(exact) == 8.0  # four split hands, all doubled and won


@pytest.mark.slow  # 11 s; the infinite deck's distribution above is checked outcome by outcome
def test_finite_shoe_mean_is_the_solver_ev() -> None:
    rules = BlackjackRules().evolve(decks=2)
    analysis = solve_rules(rules)
    dist = round_distribution(rules, analysis.chart)
    assert dist.total == pytest.approx(1.0, abs=1e-13)
    assert dist.mean == pytest.approx(-analysis.edge_td, abs=1e-13)
    assert dist.mean == pytest.approx(chart_ev(rules, analysis.chart), abs=1e-13)


@pytest.mark.slow  # 400,000 hands; tests/test_kernel.py checks the kernel round for round
def test_simulated_sd_is_within_its_interval_of_the_exact_sd(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The kernel's SD from a fresh shoe each round, against the exact SD; the SD's
    standard error comes from the exact fourth central moment."""
    manager = PluginManager()
    rules = manager.rule_sets.get("vegas-s17").rules
    dist = round_distribution(rules, solve_rules(rules).chart)
    hands = 400_000
    argv = ["sim", "--rules", "vegas-s17", "--strategy", "basic", "--shoe", "fresh-pack"]
    argv += ["--hands", str(hands), "--seed", "11", "--workers", "1", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    m4 = math.fsum(p * (x - dist.mean) ** 4 for x, p in dist.outcomes.items())
    se_sd = math.sqrt((m4 - dist.variance**2) / hands) / (2 * dist.sd)
    assert abs(report["sd"] - dist.sd) < 4 * se_sd
    assert abs(report["mean"] - dist.mean) < 4 * dist.sd / math.sqrt(hands)
