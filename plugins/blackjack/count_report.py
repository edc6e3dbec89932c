"""The figures card counters use, from a counting simulation's integer totals.

All money is in units of the table's minimum bet; a *round* is one round played by the
counter's seats together (a round sat out while Wonging is not played). Formulas
(docs/counting.md states their assumptions):

* EV and SD per round from the ramp's net and its square. The 95% intervals, of the EV per
  round and of each true count's flat and ramp EV, are made from per-shoe batch sums
  (:mod:`croupier.engine.batch_means`): rounds of one shoe are correlated, shoes are not.
  ``design_effect`` is the EV's batch variance over the variance it would have if rounds
  were independent (``SD**2 / rounds``): how much the naive interval understates it.
* ``DI = 1000 * EV / SD``; ``SCORE = 10**6 * (EV / SD)**2 = DI**2``: the win per 100 rounds, in
  dollars, of a $10,000 bankroll betting the ramp scaled to full Kelly (Schlesinger's
  definition, with EV and SD per round of one unit's ramp); ``N0 = (SD / EV)**2`` rounds.
  All three (and the bankrolls for a risk of ruin) only for a positive EV: they describe
  a winning game; for a losing one they are None, with the reason.
* Risk of ruin of a bankroll ``B`` (units), the diffusion approximation of a random walk
  with drift ``EV`` and variance ``SD**2`` per round, played forever: ``exp(-2 EV B / SD**2)``;
  the bankroll for a risk ``r``: ``-ln(r) SD**2 / (2 EV)`` (13.5%, ``e**-2``, is the Kelly
  bankroll ``SD**2 / EV``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from croupier.engine import BatchSums, naive_variance
from croupier.plugins.blackjack.counting import TCS

RISKS = (0.01, 0.05, math.exp(-2))


def di(ev: float, sd: float) -> float:
    return 1000 * ev / sd if sd > 0 else 0.0


def score(ev: float, sd: float) -> float:
    return 1e6 * (ev / sd) ** 2 if sd > 0 else 0.0


def n0(ev: float, sd: float) -> float | None:
    return (sd / ev) ** 2 if ev != 0 else None


def risk_of_ruin(ev: float, sd: float, bankroll: float) -> float:
    """The chance of ever losing ``bankroll`` (diffusion approximation; 1 if EV <= 0)."""
    if ev <= 0:
        return 1.0
    if sd == 0:
        return 0.0
    return math.exp(-2 * ev * bankroll / sd**2)


def bankroll_for(ev: float, sd: float, risk: float) -> float | None:
    """The bankroll whose risk of ruin is ``risk`` (None when EV <= 0: every one is ruined)."""
    if ev <= 0:
        return None
    return -math.log(risk) * sd**2 / (2 * ev)


NO_ADVANTAGE = (
    "DI, SCORE, N0 and the bankrolls for a risk of ruin are not shown: the EV is not "
    "positive, and they describe a game the player wins (SCORE would square away the "
    "sign, N0 is no horizon, every bankroll is ruined)"
)


def advantage_figures(ev: float, sd: float) -> dict[str, Any]:
    """``di``, ``score`` and ``n0`` for a positive EV; otherwise None each, with the reason
    in ``advantage_note`` (None when they are shown)."""
    if ev > 0:
        return {"di": di(ev, sd), "score": score(ev, sd), "n0": n0(ev, sd), "advantage_note": None}
    return {"di": None, "score": None, "n0": None, "advantage_note": NO_ADVANTAGE}


def _mean_sd(total: int, squares: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    var = squares / n - mean * mean
    if n > 1:
        var *= n / (n - 1)
    return mean, math.sqrt(max(var, 0.0))


def _scaled(interval: list[float] | None, unit: int) -> list[float] | None:
    return None if interval is None else [x / unit for x in interval]


def bucket_sums(totals: Mapping[str, int], t: int, kind: str) -> BatchSums:
    """The batch sums of true count ``t``'s ``flat`` EV (per round dealt) or ``ramp`` EV
    (per round played)."""
    at = f"tc{t:+d}_"
    y, n = ("flat_net", "rounds") if kind == "flat" else ("ramp_net", "played")
    return BatchSums(
        totals[at + y],
        totals[at + n],
        totals[f"{at}{kind}_shoe_sq"],
        totals[f"{at}{kind}_shoe_x"],
        totals[f"{at}{n}_shoe_sq"],
        totals["shoes"],
    )


def count_report(
    totals: Mapping[str, int],
    *,
    min_bet: int,
    hands_per_hour: float = 100.0,
    bankroll: float | None = None,
) -> dict[str, Any]:
    """The counting report (units of ``min_bet``) from a counting kernel's totals."""
    unit = min_bet
    dealt = sum(totals[f"tc{t:+d}_rounds"] for t in TCS)
    played = sum(totals[f"tc{t:+d}_played"] for t in TCS)
    net = sum(totals[f"tc{t:+d}_ramp_net"] for t in TCS)
    sq = sum(totals[f"tc{t:+d}_ramp_sq"] for t in TCS)
    bet = sum(totals[f"tc{t:+d}_bet"] for t in TCS)
    ev, sd = _mean_sd(net, sq, played)
    ev, sd = ev / unit, sd / unit
    overall = BatchSums(
        net,
        played,
        totals["shoe_ramp_sq"],
        totals["shoe_ramp_x"],
        totals["shoe_played_sq"],
        totals["shoes"],
    )
    ci = _scaled(overall.interval(), unit)
    batch_var, naive_var = overall.variance(), naive_variance(net, sq, played)
    table = []
    for t in TCS:
        n = totals[f"tc{t:+d}_rounds"]
        if n == 0:
            continue
        p = totals[f"tc{t:+d}_played"]
        flat_ev, flat_sd = _mean_sd(totals[f"tc{t:+d}_flat_net"], totals[f"tc{t:+d}_flat_sq"], n)
        ramp_ev, ramp_sd = _mean_sd(totals[f"tc{t:+d}_ramp_net"], totals[f"tc{t:+d}_ramp_sq"], p)
        label = f"<={t}" if t == TCS[0] else f"{t}+" if t == TCS[-1] else str(t)
        table.append(
            {
                "tc": label,
                "rounds": n,
                "frequency": n / dealt,
                "flat_ev": flat_ev / unit,
                "flat_sd": flat_sd / unit,
                "flat_ev_ci95": _scaled(bucket_sums(totals, t, "flat").interval(), unit),
                "played": p,
                "ramp_ev": ramp_ev / unit,
                "ramp_sd": ramp_sd / unit,
                "ramp_ev_ci95": _scaled(bucket_sums(totals, t, "ramp").interval(), unit),
                "average_bet": totals[f"tc{t:+d}_bet"] / p / unit if p else 0.0,
            }
        )
    report: dict[str, Any] = {
        "rounds_dealt": dealt,
        "rounds_played": played,
        "rounds_sat_out": dealt - played,
        "total_bet": bet / unit,
        "average_bet": bet / played / unit if played else 0.0,
        "ev_per_round": ev,
        "ev_per_round_ci95": ci,
        "ev_per_100": 100 * ev,
        "ev_per_100_ci95": None if ci is None else [100 * ci[0], 100 * ci[1]],
        "shoes": totals["shoes"],
        "design_effect": batch_var / naive_var if batch_var and naive_var else None,
        "sd_per_round": sd,
        "ev_per_unit_bet": net / bet if bet else 0.0,
        **advantage_figures(ev, sd),
        "bankroll_for_risk": {f"{r:.3f}": bankroll_for(ev, sd, r) for r in RISKS},
        "hands_per_hour": hands_per_hour,
        "ev_per_hour": ev * hands_per_hour,
        "sd_per_hour": sd * math.sqrt(hands_per_hour),
        "per_count": table,
    }
    if bankroll is not None:
        report["bankroll"] = bankroll
        report["risk_of_ruin"] = risk_of_ruin(ev, sd, bankroll)
    return report
