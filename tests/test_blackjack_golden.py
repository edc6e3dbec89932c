"""Golden figures of the 6-deck solver to 12 significant digits: any change to the solver's
arithmetic (a speed-up, a refactor) must leave them exactly as they were.

They were recorded from the solver before its speed work, not taken from elsewhere: the
published-figure and brute-force tests are what show them right; these show them unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import dealer, solve_rules
from croupier.plugins.blackjack.solver.analysis import UpcardSolver
from croupier.plugins.blackjack.solver.cards import ACE, TEN
from croupier.plugins.blackjack.solver.hands import bj_mode
from croupier.plugins.blackjack.solver.stand import (
    STAND_TOTALS,
    finite_stand_row,
    stand_row,
    stand_table,
    stand_value,
)


def sig12(value: float) -> str:
    return f"{value:.12g}"


# dealer -> (edge CD, edge TD, {(pair rank, upcard): (split EV, chart letter)})
GOLDEN = {
    "s17": (
        "0.00330268037338",
        "0.00333215559507",
        {
            (7, TEN): ("-0.474893750825", "P"),
            (1, 5): ("0.240163579186", "P"),
            (ACE, ACE): ("0.127143795655", "P"),
            (8, 6): ("0.363848295316", "S"),
            (3, 4): ("0.111388533187", "Ph"),
            (5, 1): ("-0.196852041217", "Ph"),
        },
    ),
    "h17": (
        "0.00527191546946",
        "0.00529846572997",
        {
            (7, TEN): ("-0.474893750825", "P"),
            (1, 5): ("0.267458492628", "P"),
            (ACE, ACE): ("0.120987010346", "P"),
            (8, 6): ("0.363848295316", "S"),
            (3, 4): ("0.114329934565", "Ph"),
            (5, 1): ("-0.190259926848", "Ph"),
        },
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("dealer", ["s17", "h17"])
def test_six_deck_house_edges_and_split_evs_are_unchanged(dealer):
    analysis = solve_rules(BlackjackRules(decks=6, dealer=dealer))
    edge_cd, edge_td, splits = GOLDEN[dealer]
    assert (sig12(analysis.edge_cd), sig12(analysis.edge_td)) == (edge_cd, edge_td)
    for (rank, upcard), (ev, letter) in splits.items():
        cell = analysis.cells[("pair", rank, upcard)]
        assert (sig12(cell["split"]), analysis.chart.pairs[rank][upcard]) == (ev, letter)


def test_six_deck_split_without_das_is_unchanged():
    """4,4 against a 6 is ``Ph``: the split wins only with DAS; the letter compares both."""
    solver = UpcardSolver(BlackjackRules(decks=6), 4, "ev")
    assert sig12(solver.split_without_das(3)) == "-0.0204674778554"
    assert sig12(solver.split(3)) == "0.111388533187"


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("objective", ["ev", "win-probability"])
def test_batched_and_single_shoe_paths_agree_to_the_last_bit(h17, objective):
    """Precomputed (batched) and on-demand (one shoe) stand values must be the same floats,
    so that which shoes get batched never changes a result."""
    rules = BlackjackRules(decks=1, dealer="h17" if h17 else "s17")
    mode = bj_mode(rules, objective)
    shoes = [(4,) * 9 + (16,), (3, 4, 2, 4, 0, 4, 1, 4, 4, 11), (4, 1, 1, 1, 1, 1, 1, 1, 1, 3)]
    for up in range(10):
        batch = dealer.distributions(up, h17, mode, np.array(shoes))
        table = stand_table(batch, objective)
        for shoe, dist, stands in zip(shoes, batch.tolist(), table.tolist(), strict=True):
            single = dealer.distribution(up, h17, mode, shoe)
            assert dist == single
            assert stands == stand_row(single, objective)


@pytest.mark.parametrize("objective", ["ev", "win-probability", "ev-ties-lose"])
def test_unrolled_stand_row_is_stand_value_at_every_total_to_the_last_bit(objective):
    """The unrolled row (the oracle's hot path) must be the plain per-total stand values."""
    rng = np.random.default_rng(61)
    for _ in range(500):
        dist = (rng.random(7) * rng.integers(0, 2, 7)).tolist()
        row = stand_row(dist, objective)
        assert row == [stand_value(t, dist, objective) for t in STAND_TOTALS]


@pytest.mark.parametrize("objective", ["ev", "win-probability", "ev-ties-lose"])
def test_compiled_stand_row_is_the_dealer_distributions_row_to_the_last_bit(objective):
    """The solver's one compiled call per hand must give the row of the plain path."""
    rng = np.random.default_rng(61)
    for h17, mode in ((False, "peek"), (True, "nopeek"), (False, "plain")):
        for up in range(10):
            flat = dealer.flat_program(up, h17, mode)
            for _ in range(20):
                shoe = tuple(int(n) for n in rng.integers(0, 25, 10))
                single = dealer.distribution(up, h17, mode, shoe, True)
                want = stand_row(single, objective)
                assert finite_stand_row(flat, shoe, objective) == want
