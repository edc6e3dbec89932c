"""The blackjack solver against first principles: brute force on small shoes, an
independent infinite-deck recursion, hand-checkable spots and the published figures."""

from __future__ import annotations

from functools import cache

import bj_oracle as oracle
import msgpack
import numpy as np
import pytest

from croupier.engine import CroupierError, SpecError
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import basic_strategy, dealer, solve, solve_rules
from croupier.plugins.blackjack.solver.analysis import Analysis, UpcardSolver
from croupier.plugins.blackjack.solver.cards import ACE, TEN, parse_cards
from croupier.plugins.blackjack.solver.hand import make_hand
from croupier.plugins.blackjack.solver.hands import INFINITE_PROBS, Evaluator

INF_S17 = BlackjackRules(decks=None, surrender="none")


@cache
def inf_s17() -> Analysis:
    """``solve_rules(INF_S17)``, solved once for the file's tests (they only read it;
    sixteen of them asked for it, a quarter of a second each)."""
    return solve_rules(INF_S17)


SMALL_SHOE = (2, 2, 2, 2, 2, 2, 2, 3, 2, 6)  # 25 cards: small enough to brute-force


# -- the dealer ------------------------------------------------------------------------


def test_published_infinite_deck_bust_probabilities():
    bust6 = dealer.distribution(5, False, "nopeek", INFINITE_PROBS)[dealer.BUST]
    bust2 = dealer.distribution(1, False, "nopeek", INFINITE_PROBS)[dealer.BUST]
    assert round(bust6, 5) == 0.42315
    assert round(bust2, 5) == 0.35361


@pytest.mark.parametrize("h17", [False, True])
def test_infinite_dealer_agrees_with_a_simple_recursion(h17):
    @cache
    def finals(total: int, soft: bool) -> tuple[float, ...]:
        """Independent: dealer totals by (total, soft), drawing from an infinite deck."""
        if total > 21:
            return (0, 0, 0, 0, 0, 1)
        if total > 17 or (total == 17 and not (soft and h17)):
            return tuple(1.0 if i == total - 17 else 0.0 for i in range(6))
        acc = [0.0] * 6
        for value in range(1, 11):
            p = 4 / 13 if value == 10 else 1 / 13
            t, s = total + value, soft
            if value == 1 and t + 10 <= 21:
                t, s = t + 10, True
            if t > 21 and s:
                t, s = t - 10, False
            for i, q in enumerate(finals(t, s)):
                acc[i] += p * q
        return tuple(acc)

    for up in range(10):
        start = (11, True) if up == ACE else (up + 1, False)
        got = dealer.distribution(up, h17, "plain", INFINITE_PROBS)
        assert got[:6] == pytest.approx(finals(*start), abs=1e-14)


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("mode", ["peek", "nopeek"])
def test_finite_dealer_agrees_with_brute_force(h17, mode):
    shoe = (4,) * 9 + (16,)  # one deck
    for up in range(10):
        left = list(shoe)
        left[up] -= 1
        left[3] -= 1  # a player card out of the shoe too
        expected = [0.0] * 7
        size = sum(left)
        for hole in range(10):
            rest = list(left)
            rest[hole] -= 1
            for final, p in oracle.dealer_finals(up, hole, rest, h17).items():
                weight = p * left[hole] / size
                if final == "bj":
                    if mode == "nopeek":
                        expected[6] += weight
                else:
                    expected[5 if final == 22 else final - 17] += weight
        got = dealer.distribution(up, h17, mode, tuple(left))
        batch = dealer.distributions(up, h17, mode, np.array([left]))[0]
        assert got == pytest.approx(expected, abs=1e-14)
        assert list(batch) == pytest.approx(expected, abs=1e-14)


# -- hands in a small shoe: brute force in the real deal order -------------------------


def small_rules(**changes):
    return BlackjackRules(decks=1, surrender="late", **changes)


@pytest.mark.parametrize("peek", [True, False])
@pytest.mark.parametrize(
    ("cards", "up"), [([9, 5], 9), ([9, 5], 5), ([0, 5], 8), ([4, 5], 0), ([1, 2], 9)]
)
def test_hand_values_agree_with_brute_force(cards, up, peek):
    rules = small_rules(peek=peek, dealer="h17")
    ev = Evaluator(rules, up, SMALL_SHOE)
    hand = make_hand(cards, True)
    shoe = list(SMALL_SHOE)
    for r in [*cards, up]:
        shoe[r] -= 1
    worlds = oracle.initial_worlds(shoe, up, peek)
    assert ev.stand(hand) == pytest.approx(oracle.stand(cards, worlds, up, True), abs=1e-13)
    assert ev.hit(hand) == pytest.approx(oracle.hit(cards, worlds, up, True), abs=1e-13)
    assert ev.double(hand) == pytest.approx(oracle.double(cards, worlds, up, True), abs=1e-13)
    mass = sum(w for w, _, _ in worlds)
    assert ev.mass(hand) == pytest.approx(mass, abs=1e-15)
    if peek:
        assert ev.surrender(hand) == pytest.approx(-0.5 * mass)


# -- hand-checkable spots --------------------------------------------------------------


def test_standing_on_16_is_twice_the_bust_chance_minus_one():
    solution = solve({"rules": {"decks": "inf"}, "hand": "T,6", "upcard": "6"})
    bust = dealer.distribution(5, False, "nopeek", INFINITE_PROBS)[dealer.BUST]
    assert solution["hand"]["actions"]["stand"]["ev"] == pytest.approx(2 * bust - 1, abs=1e-14)


def test_standing_on_20_against_a_ten_conditioned_on_the_peek():
    solution = solve({"rules": {"decks": "inf"}, "hand": "T,T", "upcard": "T"})
    d = dealer.distribution(TEN, False, "peek", INFINITE_PROBS)
    no_bj = 1 - 1 / 13
    expected = (d[0] + d[1] + d[2] + d[5] - d[4]) / no_bj
    assert solution["hand"]["actions"]["stand"]["ev"] == pytest.approx(expected, abs=1e-14)
    assert solution["conditioned_on_no_dealer_blackjack"] is True


def test_a_finite_hand_is_composition_dependent():
    one = {"decks": 1}
    a = solve({"rules": one, "hand": "T,6", "upcard": "T"})["hand"]["actions"]["stand"]
    b = solve({"rules": one, "hand": "9,7", "upcard": "T"})["hand"]["actions"]["stand"]
    assert a["ev"] != pytest.approx(b["ev"], abs=1e-6)


# -- the whole game --------------------------------------------------------------------


def test_published_infinite_deck_house_edge():
    analysis = inf_s17()
    assert round(100 * analysis.edge_cd, 4) == 0.5117
    assert analysis.edge_td == pytest.approx(analysis.edge_cd, abs=1e-15)


def test_infinite_deck_chart_well_known_cells():
    chart = inf_s17().chart
    assert chart.hard[11][ACE] == "H"  # S17: hit 11 against an ace
    assert chart.hard[16][TEN] == "H"
    assert chart.hard[12][3] == "S" and chart.hard[12][2] == "H"
    assert chart.soft[18][2] == "Ds" and chart.soft[18][8] == "H"
    assert chart.pairs[7][ACE] == "P" and chart.pairs[TEN][5] == "S"
    assert chart.pairs[8][6] == "S" and chart.pairs[8][5] == "P"  # 9,9: stand on 7
    assert chart.pairs[1][1] == "Ph"  # 2,2 against 2: split only because of DAS
    h17 = solve_rules(INF_S17.evolve(dealer="h17", surrender="late")).chart
    assert h17.hard[11][ACE] == "Dh"
    assert h17.hard[16][TEN] == "Rh"
    assert h17.hard[15][TEN] == "Rh"


def test_finite_shoe_chart_and_edges():
    analysis = solve_rules(BlackjackRules(decks=1, surrender="none"))
    assert analysis.edge_cd < analysis.edge_td  # composition-dependent play is better
    assert analysis.edge_td - analysis.edge_cd < 0.001
    assert analysis.edge_cd < 0  # single deck S17 DAS 3:2 favours the player


def test_chart_decides_like_a_player():
    chart = basic_strategy(INF_S17.evolve(surrender="late", dealer="h17"))
    assert chart.decide(["T", "6"], "T", ["hit", "stand", "surrender"]) == "surrender"
    assert chart.decide(["K", "6"], 10, ["hit", "stand"]) == "hit"
    assert chart.decide(["8", "8"], "T", ["hit", "stand", "split", "surrender"]) == "split"
    assert chart.decide(["8", "8"], "T", ["hit", "stand"]) == "hit"
    assert chart.decide(["A", "7"], "3", ["hit", "stand", "double"]) == "double"
    assert chart.decide(["A", "7"], "3", ["hit", "stand"]) == "stand"
    assert chart.decide(["T", "2", "9"], "A", ["hit", "stand"]) == "stand"
    assert chart.decide([1, 11], 11, ["hit", "stand"]) == "hit"  # soft 12: A,A unsplittable
    assert chart.decide(["A"], "6", ["hit", "stand"]) == "hit"
    with pytest.raises(CroupierError, match="unknown card"):
        chart.decide(["T", "Z"], "6", ["hit"])


def test_chart_round_trips_as_plain_data():
    chart = inf_s17().chart
    again = type(chart).from_dict(chart.to_dict())
    assert again.to_dict() == chart.to_dict()


def test_classic_win_probability_calculator():
    """Independent: the classic six-function calculator, infinite deck, dealer H17."""

    @cache
    def dealer_final(total: int, soft: bool) -> dict[int, float]:
        if total > 21 and soft:
            return dealer_final(total - 10, False)
        if total > 21:
            return {22: 1.0}
        if total > 17 or (total == 17 and not soft):
            return {total: 1.0}
        out: dict[int, float] = {}
        for value in range(1, 11):
            p = 4 / 13 if value == 10 else 1 / 13
            t, s = total + value, soft
            if value == 1 and not soft and t + 10 <= 21:
                t, s = t + 10, True
            for k, q in dealer_final(t, s).items():
                out[k] = out.get(k, 0.0) + p * q
        return out

    def player_stand(total: int, up: int) -> float:
        start = (11, True) if up == 1 else (up, False)
        score = 0.0
        for final, p in dealer_final(*start).items():
            score += p * (1.0 if final == 22 or final < total else 0.5 if final == total else 0)
        return score

    @cache
    def player_turn(total: int, soft: bool, up: int) -> float:
        if total > 21 and soft:
            return player_turn(total - 10, False, up)
        if total > 21:
            return 0.0
        return max(player_stand(total, up), player_hit(total, soft, up))

    def player_hit(total: int, soft: bool, up: int) -> float:
        acc = 0.0
        for value in range(1, 11):
            p = 4 / 13 if value == 10 else 1 / 13
            t, s = total + value, soft
            if value == 1 and not soft and t + 10 <= 21:
                t, s = t + 10, True
            acc += p * player_turn(t, s, up)
        return acc

    solution = solve({"rules": {"decks": None, "dealer": "h17"}, "objective": "win-probability"})
    chart = solution["chart"]
    for column, up_name in enumerate(chart["upcards"]):
        up = 1 if up_name == "A" else 10 if up_name == "T" else int(up_name)
        for total in range(5, 21):
            hit, stand = player_hit(total, False, up), player_stand(total, up)
            assert chart["hard"][str(total)][column] == ("H" if hit > stand else "S")
            cell = chart["values"]["hard"][str(total)][column]
            assert cell["hit"] == pytest.approx(hit, abs=1e-13)
            assert cell["stand"] == pytest.approx(stand, abs=1e-13)
        for total in range(13, 21):
            hit, stand = player_hit(total, True, up), player_stand(total, up)
            assert chart["soft"][str(total)][column] == ("H" if hit > stand else "S")


# -- the plugin and its errors ---------------------------------------------------------


def test_solver_is_registered(manager):
    solver = manager.solvers.get("blackjack")
    solution = solver.solve({"rules": {"decks": "inf"}, "dealer": True})
    assert solution["dealer"]["6"]["bust"] == pytest.approx(0.4231504920849962)
    assert "chart" not in solution
    problem = {"rules": {"decks": 1}, "chart": True, "hand": "8,8", "upcard": "9"}
    full = solver.solve(problem)
    assert msgpack.unpackb(msgpack.packb(full), strict_map_key=False) == full  # wire-ready


def test_upcard_solver_matches_the_hand_query():
    solver = UpcardSolver(BlackjackRules(decks=2), TEN, "ev")
    values = solver.action_values(7, 7)
    hand = solve({"rules": {"decks": 2}, "hand": "8,8", "upcard": "K"})["hand"]
    mass = solver.main.mass(make_hand([7, 7], True))
    for action, value in values.items():
        assert hand["actions"][action]["ev"] == pytest.approx(value / mass, abs=1e-14)


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        ({"rules": {"betting": "koth", "blackjack_pays": "1:1"}}, "without the dealer's peek"),
        ({"rules": {"betting": "koth", "peek": False}}, "pays no bonus for a natural"),
        ({"rules": {"dealer": "classic", "betting": "nope"}}, "betting"),
        ({"hand": "T,X", "upcard": "T"}, "unknown card"),
        ({"hand": "T,6"}, "go together"),
        ({"hand": "T,6,9", "upcard": "T"}, "bust"),
        ({"hand": "T", "upcard": "T"}, "at least two cards"),
        ({"hand": "T,6", "upcard": "T,6"}, "one card"),
        ({"objective": "fun"}, "objective"),
        ({"bogus": 1}, "unknown problem key"),
        ({"rules": {"decks": 0}}, "decks"),
        ({"rules": {"decks": 1}, "hand": "A,A,A,A,A,2", "upcard": "A"}, "hold only"),
        ({"rules": "vegas"}, "rules"),
    ],
)
def test_bad_problems_are_one_line_errors(problem, message):
    with pytest.raises(CroupierError, match=message) as info:
        solve(problem)
    assert "\n" not in str(info.value)


def test_bad_card_points_at_the_column():
    with pytest.raises(SpecError) as info:
        parse_cards("T,6,Z")
    assert info.value.position == 4


def test_early_surrender_loses_half_before_the_peek():
    rules = {"decks": 2, "surrender": "early"}
    hand = solve({"rules": rules, "hand": "T,6", "upcard": "A"})["hand"]
    assert hand["actions"]["surrender"]["round_ev"] == pytest.approx(-0.5, abs=1e-15)
    late = solve({"rules": {**rules, "surrender": "late"}, "hand": "T,6", "upcard": "A"})
    assert late["hand"]["actions"]["surrender"]["ev"] == pytest.approx(-0.5, abs=1e-15)


def test_a_natural_is_paid_unless_the_dealer_has_one():
    hand = solve({"rules": {"decks": 1}, "hand": "A,K", "upcard": "A"})["hand"]
    assert hand["best"] == "natural"
    assert hand["natural"] == pytest.approx(1.5 * (1 - 15 / 49), abs=1e-15)


def test_no_peek_costs_the_player():
    peek = inf_s17()
    enhc = solve_rules(INF_S17.evolve(peek=False))
    assert enhc.edge_cd > peek.edge_cd + 0.0005
    assert enhc.chart.hard[11][TEN] == "H"  # no doubling into a possible blackjack


def test_chart_rejects_unknown_letters():
    data = inf_s17().chart.to_dict()
    data["hard"]["16"][0] = "X"
    with pytest.raises(CroupierError, match="unknown chart letter"):
        type(inf_s17().chart).from_dict(data)


def test_six_to_five_costs_exactly_the_naturals_difference():
    natural = 2 * (1 / 13) * (4 / 13)  # player's natural; the dealer's is independent
    base = inf_s17().edge_cd
    short = solve_rules(INF_S17.evolve(blackjack_pays="6:5")).edge_cd
    assert short - base == pytest.approx(0.3 * natural * (1 - natural), abs=1e-14)


@pytest.mark.parametrize(
    ("change", "player_gains"),
    [
        ({"resplit_aces": True}, True),
        ({"hit_split_aces": True}, True),
        ({"surrender": "late"}, True),
        ({"max_split_hands": 2}, False),
        ({"max_split_hands": 1}, False),
        ({"double_after_split": False}, False),
        ({"double": "10-11"}, False),
        ({"double": "none"}, False),
        ({"dealer": "h17"}, False),
    ],
)
def test_rule_changes_move_the_edge_the_known_way(change, player_gains):
    base = inf_s17().edge_cd
    edge = solve_rules(INF_S17.evolve(**change)).edge_cd
    assert (edge < base) == player_gains
    assert abs(edge - base) > 1e-5


@pytest.mark.parametrize("decks", [None, 1])
def test_deal_probabilities_sum_to_one(decks):
    rules = BlackjackRules(decks=decks)
    total = sum(p for u in range(10) for _, _, p in UpcardSolver(rules, u, "ev", False).hands())
    assert total == pytest.approx(1.0, abs=1e-14)


def test_agrees_with_an_independent_combinatorial_analyser():
    """Eric Farmer's analyser, as posted on blackjackinfo.com (thread 22710, "software
    update with new split EVs"): shoe of four 2s, four 3s, two 4s, two 7s and seven tens,
    S17, 2,2 against a 7: stand -61.639194139%, hit -13.266733267%, double -123.278388278%."""
    shoe = (0, 4, 4, 2, 0, 0, 2, 0, 0, 7)
    ev = Evaluator(BlackjackRules(decks=1, surrender="none"), 6, shoe)
    hand = make_hand([1, 1], True)
    assert 100 * ev.stand(hand) == pytest.approx(-61.639194139, abs=5e-10)
    assert 100 * ev.hit(hand) == pytest.approx(-13.266733267, abs=5e-10)
    assert 100 * ev.double(hand) == pytest.approx(-123.278388278, abs=5e-10)
