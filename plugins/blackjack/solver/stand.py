"""Stand values: what standing on a total is worth against the dealer's outcomes.

Split from :mod:`croupier.plugins.blackjack.solver.hands` (which re-exports these names):
the pure functions from a dealer distribution to stand values, one total
(:func:`stand_value`), one row over ``STAND_TOTALS`` (:func:`stand_row`) or a whole batch
of distributions at once with numpy (:func:`stand_table`, identical to the last bit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.plugins.blackjack.solver import dealer

if TYPE_CHECKING:
    from croupier.plugins.blackjack.solver.hands import FloatArray

# "ev-ties-lose" is the EV when ties lose and a natural is an ordinary 21 (the koth and
# classic betting): chosen from the rules (see analysis.effective_objective), never asked for
Objective = Literal["ev", "win-probability", "ev-ties-lose"]
OBJECTIVES: tuple[str, ...] = ("ev", "win-probability")


def in_chips(objective: Objective) -> bool:
    """True for the objectives that count chips (EVs): doubles, splits, surrender exist."""
    return objective != "win-probability"


def stand_value(player: int, dist: Sequence[float], objective: Objective) -> float:
    """Value of standing on ``player`` (not a natural) against the dealer's outcomes."""
    win = dist[dealer.BUST]
    push = 0.0
    lose = dist[dealer.BLACKJACK]
    for o in range(5):
        if player > 17 + o:
            win += dist[o]
        elif player == 17 + o:
            push = dist[o]
        else:
            lose += dist[o]
    if objective == "win-probability":
        return win + 0.5 * push
    if objective == "ev-ties-lose":
        return win - lose - push
    return win - lose


# the player totals whose stand values differ: 16 (any total below 17) and 17..21
STAND_TOTALS = (16, 17, 18, 19, 20, 21)


def stand_row(dist: Sequence[float], objective: Objective) -> list[float]:
    """:func:`stand_value` at every total of ``STAND_TOTALS``, unrolled (the oracle makes
    one row per hand it values): the same additions in the same order, so identical to
    the last bit, at a fifth of the cost of six loops."""
    d0, d1, d2, d3, d4 = dist[0], dist[1], dist[2], dist[3], dist[4]
    bust, bj = dist[dealer.BUST], dist[dealer.BLACKJACK]
    w18 = bust + d0
    w19 = w18 + d1
    w20 = w19 + d2
    wins = (bust, bust, w18, w19, w20, w20 + d3)
    pushes = (0.0, d0, d1, d2, d3, d4)
    losses = (
        bj + d0 + d1 + d2 + d3 + d4,
        bj + d1 + d2 + d3 + d4,
        bj + d2 + d3 + d4,
        bj + d3 + d4,
        bj + d4,
        bj,
    )
    if objective == "win-probability":
        return [w + 0.5 * p for w, p in zip(wins, pushes, strict=True)]
    if objective == "ev-ties-lose":
        return [w - lo - p for w, lo, p in zip(wins, losses, pushes, strict=True)]
    return [w - lo for w, lo in zip(wins, losses, strict=True)]


OBJECTIVE_CODES = {"ev": 0, "win-probability": 1, "ev-ties-lose": 2}


def finite_stand_row(
    flat: dealer.FlatProgram, shoe: Sequence[int], objective: Objective
) -> list[float]:
    """:func:`stand_row` of the dealer's distribution from a finite shoe of counts, in one
    compiled call (the solver makes one per hand it values): identical to the last bit,
    the same floating-point operations in the same order (tests check)."""
    row = _row_run(np.array(shoe, dtype=np.float64), OBJECTIVE_CODES[objective], *flat[:5])
    out: list[float] = row.tolist()
    return out


@njit(cache=True, nogil=True)
def _row_run(
    shoe: FloatArray,
    objective: int,
    counts: npt.NDArray[np.int64],
    drawn: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    ranks: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int64],
) -> FloatArray:  # pragma: no cover - compiled
    dist = dealer._run(shoe, True, counts, drawn, starts, ranks, targets)
    return _row_of(dist, objective)


@njit(cache=True, nogil=True)
def _row_fast(
    shoe: FloatArray, objective: int, flat: dealer.FlatProgram
) -> FloatArray:  # pragma: no cover - compiled
    """The stand row of a finite shoe as the solver's recursion makes it: by
    :func:`dealer._run_whole` (the bust by what the other outcomes leave) where the shoe
    allows, else by :func:`_row_run`."""
    dist, whole = dealer._run_whole(shoe, flat[5])
    if not whole:
        dist = dealer._run(shoe, True, flat[0], flat[1], flat[2], flat[3], flat[4])
    return _row_of(dist, objective)


@njit(cache=True, nogil=True)
def _row_of(dist: FloatArray, objective: int) -> FloatArray:  # pragma: no cover - compiled
    d0, d1, d2, d3, d4 = dist[0], dist[1], dist[2], dist[3], dist[4]
    bust, bj = dist[5], dist[6]
    w18 = bust + d0
    w19 = w18 + d1
    w20 = w19 + d2
    wins = (bust, bust, w18, w19, w20, w20 + d3)
    pushes = (0.0, d0, d1, d2, d3, d4)
    losses = (
        bj + d0 + d1 + d2 + d3 + d4,
        bj + d1 + d2 + d3 + d4,
        bj + d2 + d3 + d4,
        bj + d3 + d4,
        bj + d4,
        bj,
    )
    out = np.empty(6)
    for i in range(6):
        if objective == 1:
            out[i] = wins[i] + 0.5 * pushes[i]
        elif objective == 2:
            out[i] = wins[i] - losses[i] - pushes[i]
        else:
            out[i] = wins[i] - losses[i]
    return out


def stand_table(dists: FloatArray, objective: Objective) -> FloatArray:
    """:func:`stand_row` for every row of ``dists`` (M, 7): the very same floating-point
    operations in the same order, column by column, so identical to the last bit."""
    columns = []
    for player in STAND_TOTALS:
        win = dists[:, dealer.BUST].copy()
        push = np.zeros(len(dists))
        lose = dists[:, dealer.BLACKJACK].copy()
        for o in range(5):
            if player > 17 + o:
                win += dists[:, o]
            elif player == 17 + o:
                push = dists[:, o]
            else:
                lose += dists[:, o]
        if objective == "win-probability":
            columns.append(win + 0.5 * push)
        elif objective == "ev-ties-lose":
            columns.append(win - lose - push)
        else:
            columns.append(win - lose)
    return np.stack(columns, axis=1)
