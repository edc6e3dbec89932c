"""Order-free ratings with intervals: a Bradley-Terry model refit from every rated result.

A rated result is one tourney's scores (a bot's chips at the end of the run, or its mean over
a duplicate tourney's rotations): every pair of bots in it is one comparison, won by the
higher score; a tie counts as one win each way. The Bradley-Terry strengths ``θ`` (``P(i
beats j) = 1 / (1 + exp(θj - θi))``) are the maximum-likelihood fit of all comparisons at
once, by ``choix``'s iterative Luce spectral ranking with a small prior (``ALPHA``) that keeps
a bot that never lost finite. The fit depends on the comparisons only, never on the order
the games were played in (unlike Elo or Glicko's running updates). Each strength's 95%
interval is ``θ ± 1.96 σ``, ``σ²`` the diagonal of the inverse Fisher information (its
pseudo-inverse: strengths are defined up to a constant, fixed by centring them on 0; a bot
that never lost or never won has a wide interval, bounded by the prior).
Shown on the Elo scale: ``1500 + 400 θ / ln 10``, so 400 points are 10:1 odds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs
import numpy as np

from croupier.engine.errors import CroupierError

ALPHA = 0.01
"""The fit's regularisation (a weak prior toward equal strengths)."""
SCALE = 400 / math.log(10)
BASE = 1500.0
Z95 = 1.959963984540054


@attrs.frozen
class Rating:
    """One bot's rating (Elo scale) with its 95% interval, and the games behind it."""

    name: str
    rating: float
    low: float
    high: float
    games: int
    """Rated results (tourneys) it played in."""
    comparisons: int
    """Pairs it was compared in (one per other bot per tourney)."""

    def to_dict(self) -> dict[str, object]:
        return attrs.asdict(self)


def comparisons(
    results: Iterable[Sequence[tuple[str, float]]],
) -> tuple[list[str], list[tuple[int, int]]]:
    """The bots (sorted by name: the fit must not depend on who came first) and every
    pairwise comparison ``(winner, loser)`` of ``results``."""
    results = [list(r) for r in results]
    names = sorted({name for result in results for name, _ in result})
    index = {name: i for i, name in enumerate(names)}
    pairs: list[tuple[int, int]] = []
    for result in results:
        for a, (name_a, score_a) in enumerate(result):
            for name_b, score_b in result[a + 1 :]:
                i, j = index[name_a], index[name_b]
                if i == j:
                    continue
                if score_a > score_b:
                    pairs.append((i, j))
                elif score_b > score_a:
                    pairs.append((j, i))
                else:
                    pairs += [(i, j), (j, i)]
    return names, pairs


def fit(results: Iterable[Sequence[tuple[str, float]]]) -> list[Rating]:
    """Ratings of every bot in ``results`` (each a tourney's ``(name, score)`` pairs), best
    first (ties by name)."""
    try:
        import choix
    except ImportError:
        raise CroupierError("ratings need choix: pip install 'croupier[ratings]'") from None
    results = [list(r) for r in results]
    names, pairs = comparisons(results)
    pairs.sort()  # the same comparisons in any order: the very same sums, bit for bit
    n = len(names)
    if n == 0:
        return []
    games = [0] * n
    index = {name: i for i, name in enumerate(names)}
    for result in results:
        for name in {name for name, _ in result}:
            games[index[name]] += 1
    compared = [0] * n
    for i, j in pairs:
        compared[i] += 1
        compared[j] += 1
    if n == 1 or not pairs:
        theta = np.zeros(n)
    else:
        theta = np.asarray(choix.ilsr_pairwise(n, pairs, alpha=ALPHA, tol=1e-12))
        theta = theta - theta.mean()
    # the Fisher information is a graph Laplacian: strengths are defined up to a constant,
    # and its pseudo-inverse is the covariance of the strengths centred on 0
    info = np.zeros((n, n))
    if pairs:
        won, lost = np.asarray(pairs).T
        p = 1.0 / (1.0 + np.exp(theta[lost] - theta[won]))
        w = p * (1.0 - p)
        np.add.at(info, (won, won), w)  # in the sorted pairs' order: the same sums always
        np.add.at(info, (lost, lost), w)
        np.add.at(info, (won, lost), -w)
        np.add.at(info, (lost, won), -w)
    # (H + J/n)^-1 - J/n is H's pseudo-inverse on the centred strengths, without the
    # round-off a near-zero eigenvalue would blow up (J: all ones)
    ones = np.full((n, n), 1.0 / n)
    cov = np.linalg.pinv(info + ones, rcond=1e-12) - ones
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    ratings = [
        Rating(
            name,
            BASE + SCALE * float(theta[k]),
            BASE + SCALE * float(theta[k] - Z95 * sd[k]),
            BASE + SCALE * float(theta[k] + Z95 * sd[k]),
            games[k],
            compared[k],
        )
        for k, name in enumerate(names)
    ]
    return sorted(ratings, key=lambda r: (-round(r.rating, 9), r.name))
