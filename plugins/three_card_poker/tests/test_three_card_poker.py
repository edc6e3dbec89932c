"""Three Card Poker: hand ranks from first principles, the solver against brute force, the
table's settlement, the simulator against the solver, and a bot on the server."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from croupier.engine.cards import cards
from croupier.engine.gamesim import simulate_game
from croupier.plugins.three_card_poker.hands import (
    FLUSH,
    HIGH,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    category,
    qualifies,
    value,
)
from croupier.plugins.three_card_poker.solver import (
    ANTE_BONUSES,
    PAYTABLES,
    counts,
    pair_plus_edge,
    solve_ante,
)

ALL = list(itertools.combinations(range(52), 3))


def test_categories_count_as_combinatorics_says():
    found = Counter(category(value(h)) for h in ALL)
    sequences = 12  # A23 .. QKA
    assert found[STRAIGHT_FLUSH] == sequences * 4
    assert found[TRIPS] == 13 * comb(4, 3)
    assert found[STRAIGHT] == sequences * 4**3 - sequences * 4
    assert found[FLUSH] == 4 * comb(13, 3) - sequences * 4
    assert found[PAIR] == 13 * comb(4, 2) * 48
    assert found[HIGH] == comb(52, 3) - sum(found[c] for c in range(1, 6))


def test_ranking_details():
    def v(text):
        return value(cards(text))

    assert v("AS 2H 3D") < v("2S 3H 4D") < v("QS KH AD")  # the wheel is the lowest straight
    assert v("AS KH JD") < v("2S 2H 3D") < v("2S 5S 9S") < v("2S 3H 4D") < v("2S 2H 2D")
    assert v("KS KH 2D") > v("QS QH AD")  # the pair first, then the kicker
    assert v("9S 9H AD") > v("9D 9C KS")
    assert v("QS 5H 4D") == v("QD 5C 4H")  # suits never break ties
    assert qualifies(v("QS 3H 2D")) and not qualifies(v("JS TH 8D"))


def brute(hand):
    mine = value(hand)
    tally = Counter()
    rest = [c for c in range(52) if c not in hand]
    for dealer in itertools.combinations(rest, 3):
        d = value(dealer)
        if not qualifies(d):
            tally["no_qualify"] += 1
        else:
            tally["wins" if mine > d else "ties" if mine == d else "losses"] += 1
    return tally


@pytest.mark.parametrize("text", ["QS 6H 4D", "AS 2D 3H", "5C 5D KS", "JS TS 9S", "2C 3D 5H"])
def test_the_dealers_hands_are_counted_exactly(text):
    hand = cards(text)
    found = counts(hand)
    expected = brute(hand)
    assert (found.no_qualify, found.wins, found.ties, found.losses) == (
        expected["no_qualify"],
        expected["wins"],
        expected["ties"],
        expected["losses"],
    )


@pytest.mark.slow
def test_the_suit_classes_give_the_same_edge_as_every_hand_one_by_one():
    bonuses = ANTE_BONUSES["5-4-1"]
    total = Fraction(0)
    for hand in ALL:
        ev = counts(hand).play(bonuses.get(category(value(hand)), 0))
        total += max(ev, Fraction(-1))
    assert total / len(ALL) == solve_ante("5-4-1")["ante_ev"]


def test_the_best_play_is_a_threshold_on_the_hands_rank():
    result = solve_ante("5-4-1")
    assert result["monotone"]  # every hand above the weakest played is played
    weakest, strongest_fold = result["weakest_played"], result["strongest_folded"]
    assert counts(weakest).play(0) > -1 > counts(strongest_fold).play(0)
    assert 0 < result["play_probability"] < 1
    assert result["ante_ev"] < 0 and result["element_of_risk"] < -result["ante_ev"]


def test_pair_plus_edge_follows_from_the_counts():
    found = Counter(category(value(h)) for h in ALL)
    for name, pays in PAYTABLES.items():
        ev = sum(Fraction(found[c] * pays.get(c, -1), len(ALL)) for c in range(6))
        assert pair_plus_edge(name) == -ev


@pytest.fixture
def poker(manager):
    return manager.games.get("three-card-poker")


def test_the_table_settles_by_the_rules(poker):
    from croupier.plugins.three_card_poker.core import PokerCore

    events = []
    core = PokerCore(poker.rules(), 7, [10_000, 10_000], events.append)
    plays = {1: "play", 2: "fold"}
    for _ in range(60):
        flow = core.play_round()
        turn = next(flow)
        try:
            while True:
                if turn.observation["phase"] == "bet":
                    action = {"kind": "bet", "ante": 10, "pair_plus": 10 * (turn.seat == 2)}
                else:
                    action = {"kind": plays[turn.seat]}
                assert core.check(turn, action) is None
                turn = flow.send(action)
        except StopIteration:
            pass
    assert core.ledger.conserved()
    # seat 1 always plays 10 + 10: settle every round from the cards, independently
    expected = 10_000
    dealers = [e for e in events if e["kind"] == "dealer"]
    mine = [e for e in events if e["kind"] == "result" and e["seat"] == 1]
    pp = [e for e in events if e["kind"] == "result" and e["seat"] == 2]
    for dealer, result in zip(dealers, mine, strict=True):
        d, m = value(cards(" ".join(dealer["cards"]))), value(cards(" ".join(result["cards"])))
        bonus = {STRAIGHT_FLUSH: 5, TRIPS: 4, STRAIGHT: 1}.get(category(m), 0)
        if not qualifies(d):
            expected += 10
        elif m > d:
            expected += 20
        elif m < d:
            expected -= 20
        expected += 10 * bonus
    assert core.chips(1) == expected
    # seat 2 folds (loses its ante) and bets pair plus 10 on its own hand
    expected2 = 10_000
    for result in pp:
        pays = PAYTABLES["40-30-6-3-1"].get(category(value(cards(" ".join(result["cards"])))))
        expected2 += -10 + (10 * pays if pays is not None else -10)
    assert core.chips(2) == expected2


@pytest.mark.slow
def test_the_optimal_strategy_earns_the_solvers_ante_edge(poker):
    """A smoke size (20,000 hands): the exact counts and the table's settling are checked
    above, hand by hand."""
    report = simulate_game(poker, poker.rules(), "optimal", 20_000, 1, 2026)
    edge = float(-solve_ante("5-4-1")["ante_ev"])
    per_ante = report["mean"] / 10
    se = report["sd"] / 10 / report["hands"] ** 0.5
    assert abs(per_ante + edge) < 3.5 * se and report["conserved"]
    assert report["rates"]["plays"] == pytest.approx(
        float(solve_ante()["play_probability"]), abs=0.01
    )


def test_solve_cli(cli):
    status, out, err = cli("solve", "three-card-poker", "--hand", "KS KH 2D", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["hand"]["best"] == "play" and data["hand"]["category"] == "pair"
    assert Fraction(data["exact"]["ante_edge"]) == -solve_ante("5-4-1")["ante_ev"]
    status, _, err = cli("solve", "three-card-poker", "--hand", "KS KS 2D")
    assert status == 1 and "three different cards" in err
    status, _, err = cli("solve", "three-card-poker", "--ante-bonus", "9-9-9")
    assert status == 1 and "ante_bonus is one of 5-4-1, 5-3-1, none" in err
