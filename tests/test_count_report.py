"""The counter's figures from their definitions, and risk of ruin on closed-form cases."""

from __future__ import annotations

import math

import pytest

from croupier.engine import CroupierError
from croupier.plugins.blackjack.count_report import (
    bankroll_for,
    count_report,
    di,
    n0,
    risk_of_ruin,
    score,
)
from croupier.plugins.blackjack.counting import TCS, parse_ramp, ramp_text


def test_risk_of_ruin_approximates_the_gamblers_ruin_of_a_biased_coin():
    # +-1 a round, won with p: ruin from B is (q/p)^B exactly, on an endless game
    for p, bankroll in ((0.51, 100), (0.505, 300), (0.52, 50)):
        q = 1 - p
        ev, sd = p - q, math.sqrt(1 - (p - q) ** 2)
        exact = (q / p) ** bankroll
        assert risk_of_ruin(ev, sd, bankroll) == pytest.approx(exact, rel=0.02)


def test_risk_of_ruin_of_brownian_motion_is_exact():
    # drift mu, variance s^2 per unit time: P(ever down B) = exp(-2 mu B / s^2)
    assert risk_of_ruin(0.01, 1.1, 50) == math.exp(-2 * 0.01 * 50 / 1.1**2)
    assert risk_of_ruin(-0.01, 1.1, 50) == 1.0 and risk_of_ruin(0.0, 1.1, 50) == 1.0


def test_bankrolls_invert_the_risk_and_kelly_is_thirteen_and_a_half_percent():
    ev, sd = 0.012, 2.7
    for r in (0.01, 0.05, math.exp(-2)):
        b = bankroll_for(ev, sd, r)
        assert b is not None and risk_of_ruin(ev, sd, b) == pytest.approx(r, rel=1e-12)
    assert bankroll_for(ev, sd, math.exp(-2)) == pytest.approx(sd**2 / ev)
    assert bankroll_for(-ev, sd, 0.05) is None


def test_di_score_and_n0_from_their_definitions():
    ev, sd = 0.0086, 2.32
    assert di(ev, sd) == pytest.approx(1000 * ev / sd)
    assert score(ev, sd) == pytest.approx(di(ev, sd) ** 2)
    # SCORE: a $10,000 Kelly bankroll bets 10000 * ev / sd^2 units; 100 rounds win that
    # times 100 ev
    units = 10_000 * ev / sd**2
    assert score(ev, sd) == pytest.approx(100 * units * ev)
    # N0: after N0 rounds the expected win equals one standard deviation of the total
    rounds = n0(ev, sd)
    assert rounds is not None
    assert ev * rounds == pytest.approx(sd * math.sqrt(rounds))


def totals(by_tc):
    """Totals of rounds each dealt from its own shoe (so every round is its own batch)."""
    out = {"shoes": 0, "shoe_played_sq": 0, "shoe_ramp_sq": 0, "shoe_ramp_x": 0}
    for t in TCS:
        rounds, flat, flat_sq, played, net, sq, bet = by_tc.get(t, (0,) * 7)
        out["shoes"] += rounds
        out["shoe_played_sq"] += played
        out["shoe_ramp_sq"] += sq
        out["shoe_ramp_x"] += net
        out |= {
            f"tc{t:+d}_rounds_shoe_sq": rounds,
            f"tc{t:+d}_flat_shoe_sq": flat_sq,
            f"tc{t:+d}_flat_shoe_x": flat,
            f"tc{t:+d}_played_shoe_sq": played,
            f"tc{t:+d}_ramp_shoe_sq": sq,
            f"tc{t:+d}_ramp_shoe_x": net,
            f"tc{t:+d}_rounds": rounds,
            f"tc{t:+d}_flat_net": flat,
            f"tc{t:+d}_flat_sq": flat_sq,
            f"tc{t:+d}_played": played,
            f"tc{t:+d}_ramp_net": net,
            f"tc{t:+d}_ramp_sq": sq,
            f"tc{t:+d}_bet": bet,
        }
    return out


def test_the_report_from_hand_made_totals():
    # min bet 10; TC 0: 4 rounds of +10, -10, -10, +10 (flat = ramp, bet 10 each);
    # TC 3: 2 rounds dealt, 2 played at 40 chips, +40 and +80 (flat +10, +20)
    t = totals({0: (4, 0, 400, 4, 0, 400, 40), 3: (2, 30, 500, 2, 120, 8000, 80)})
    r = count_report(t, min_bet=10, hands_per_hour=50, bankroll=1000)
    assert r["rounds_dealt"] == r["rounds_played"] == 6 and r["rounds_sat_out"] == 0
    assert r["average_bet"] == pytest.approx(12 / 6)
    ev = 12 / 6
    var = (84 / 6 - ev**2) * 6 / 5  # 8400 chips squared: 84 units squared
    assert r["ev_per_round"] == pytest.approx(ev)
    assert r["sd_per_round"] == pytest.approx(math.sqrt(var))
    assert r["ev_per_hour"] == pytest.approx(50 * ev)
    assert r["sd_per_hour"] == pytest.approx(math.sqrt(50 * var))
    assert r["risk_of_ruin"] == pytest.approx(math.exp(-2 * ev * 1000 / var))
    rows = {row["tc"]: row for row in r["per_count"]}
    assert rows["3"]["frequency"] == pytest.approx(2 / 6)
    assert rows["3"]["flat_ev"] == pytest.approx(1.5) and rows["3"]["ramp_ev"] == 6
    assert rows["3"]["average_bet"] == 4
    assert rows["0"]["flat_sd"] == pytest.approx(math.sqrt(4 / 3))
    # a shoe a round: the batch intervals are the independent rounds' (1.96 SD / sqrt(n))
    half = 1.96 * math.sqrt(var / 6)
    assert r["ev_per_round_ci95"] == pytest.approx([ev - half, ev + half])
    assert r["design_effect"] == pytest.approx(1.0) and r["shoes"] == 6
    # a count's EV is a ratio over all 6 shoes (those without that count add 0 rounds):
    # B / (B - 1) * sum (y_s - r n_s)^2 / n^2; TC 0: four rounds of +-1 unit, r = 0
    flat_half = 1.96 * math.sqrt(6 / 5 * 4 / 4**2)
    assert rows["0"]["flat_ev_ci95"] == pytest.approx([-flat_half, flat_half])
    ramp_half = 1.96 * math.sqrt(6 / 5 * ((4 - 6) ** 2 + (8 - 6) ** 2) / 2**2)  # +4, +8 units
    assert rows["3"]["ramp_ev_ci95"] == pytest.approx([6 - ramp_half, 6 + ramp_half])


def test_ramp_text():
    ramp = parse_ramp("<=1:1,2:2,3:4,4:6,5+:8")
    assert [ramp[t - TCS[0]] for t in (-10, 0, 1, 2, 3, 4, 5, 15)] == [1, 1, 1, 2, 4, 6, 8, 8]
    assert parse_ramp(ramp_text(ramp)) == ramp
    assert parse_ramp("2:3") == (3,) * len(TCS)
    assert parse_ramp("0:1,3:4")[TCS.index(2)] == 1
    for bad in ("", "x:1", "1:-1", "1:1,1:2", "3+:1,4:2", "0:0"):
        with pytest.raises(CroupierError):
            parse_ramp(bad)
