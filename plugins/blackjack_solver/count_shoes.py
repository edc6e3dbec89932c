"""The mean shoe at each true count: what is left of a shuffled shoe when a count reads i.

For a shoe of ``decks`` full decks with ``n`` cards dealt, the dealt cards are a uniformly
random ``n``-subset of the shoe (every order of a fully shuffled shoe is equally likely).
Cards with the same tag are interchangeable for the count, so the cards are grouped by tag
(group ``g``: ``N_g`` cards, tag ``t_g``; Red 7's red sevens join the +1 group, its black
ones the 0 group). The number dealt from each group is multivariate hypergeometric,

    P(k) = prod_g C(N_g, k_g) / C(N, n),  sum_g k_g = n,  running count s = sum_g t_g k_g,

and within a group each rank is dealt in proportion to its cards, whatever the count (by
exchangeability). So the exact expected composition left given ``(n, s)`` needs only
``E[k_g | n, s]``, which a dynamic programme over the groups gives: ``W(n, s)``, the number
of ways to deal ``n`` cards with running count ``s`` (a convolution of the groups'
binomial rows), and for each group ``sum_j j C(N_g, j) W_-g(n - j, s - t_g j)``, ``W_-g``
being the ways of the other groups. Nothing is sampled; the only floating point is the
arithmetic (binomials up to C(416, 208) ~ 1e124 fit a float).

A true count *reading* ``i`` (:func:`~croupier.engine.counts.true_count`, with the system's
rounding and deck estimate) gathers every ``(n, s)`` that reads ``i``. Depths are weighted
uniformly over ``depths`` (by default every card from the first to the cut card: a
decision is as likely at any point of the dealt shoe), and within a depth by ``P(s | n)``.
:func:`count_shoes` returns, per reading, its probability, the mean shoe left (ten
fractional counts), the mean cards left and the mean exact (unrounded) true count. The mean
shoe is exact as a mean; using it in place of the mixture of shoes it averages is the one
approximation of the index generator (a decision's EV is close to linear in the shoe's
composition, which is why effects of removal work), see docs/counting.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from croupier.engine import CroupierError
from croupier.engine.counts import DECK, CountSystem, true_count

FloatArray = npt.NDArray[np.float64]


@attrs.frozen
class CountShoe:
    """The shoe left, on average, when the true count reads ``reading``."""

    reading: int
    probability: float  # of reading it, depths weighted uniformly
    shoe: tuple[float, ...]  # mean cards left of each rank, A 2..9 T
    cards: float  # mean cards left
    mean_true_count: float  # the mean exact (unrounded) true count among these shoes


@attrs.frozen
class _Group:
    tag: int
    cards: int
    ranks: tuple[tuple[int, int], ...]  # (rank index, cards of it in the group)


def tag_groups(system: CountSystem, decks: int) -> list[_Group]:
    """The shoe's cards grouped by tag."""
    by_tag: dict[int, list[tuple[int, int]]] = {}
    for rank, per_deck, tag in system.tag_classes():
        by_tag.setdefault(tag, []).append((rank, per_deck * decks))
    return [
        _Group(tag, sum(n for _, n in ranks), tuple(ranks)) for tag, ranks in sorted(by_tag.items())
    ]


def _convolve(ways: FloatArray, group: _Group, weights: Sequence[float], lowest: int) -> FloatArray:
    """``ways`` with ``j`` cards of ``group`` added for every ``j`` (times ``weights[j]``);
    rows are cards dealt, columns running counts from ``lowest``."""
    rows, width = ways.shape
    out = np.zeros_like(ways)
    for j in range(min(group.cards, rows - 1) + 1):
        shift = group.tag * j
        if abs(shift) >= width or weights[j] == 0.0:
            continue
        if shift >= 0:
            out[j:, shift:] += weights[j] * ways[: rows - j, : width - shift]
        else:
            out[j:, : width + shift] += weights[j] * ways[: rows - j, -shift:]
    return out


def _ways(groups: Sequence[_Group], rows: int, lowest: int, width: int) -> FloatArray:
    ways = np.zeros((rows, width))
    ways[0, -lowest] = 1.0
    for group in groups:
        ways = _convolve(
            ways, group, [float(math.comb(group.cards, j)) for j in range(group.cards + 1)], lowest
        )
    return ways


def removal_means(system: CountSystem, decks: int, most: int) -> tuple[FloatArray, FloatArray, int]:
    """``(ways, removed, lowest)`` for up to ``most`` cards dealt: ``ways[n, s - lowest]``
    the number of deals of ``n`` cards with running count ``s`` (tag units, from zero),
    ``removed[n, s - lowest, r]`` the expected cards of rank ``r`` among them."""
    groups = tag_groups(system, decks)
    lowest = sum(min(0, g.tag) * g.cards for g in groups)
    width = sum(max(0, g.tag) * g.cards for g in groups) - lowest + 1
    rows = most + 1
    ways = _ways(groups, rows, lowest, width)
    removed = np.zeros((rows, width, 10))
    safe = np.where(ways > 0, ways, 1.0)
    for g, group in enumerate(groups):
        others = _ways([h for i, h in enumerate(groups) if i != g], rows, lowest, width)
        weights = [j * float(math.comb(group.cards, j)) for j in range(group.cards + 1)]
        expected = _convolve(others, group, weights, lowest) / safe  # E[k_g | n, s]
        for rank, n in group.ranks:
            removed[:, :, rank] += expected * (n / group.cards)
    return ways, removed, lowest


def count_shoes(
    system: CountSystem,
    decks: int,
    depths: Sequence[int] | None = None,
    penetration: float = 0.75,
    rounding: str | None = None,
) -> dict[int, CountShoe]:
    """The mean shoe at every true-count reading (see the module docstring).

    ``depths`` are the numbers of cards dealt to weigh uniformly (default: 0 to the cut
    card, ``penetration`` of the shoe); ``rounding`` overrides the system's (``none`` is
    binned as ``floor``: a reading must be an integer)."""
    total = DECK * decks
    if depths is None:
        depths = range(int(penetration * total) + 1)
    depths = list(depths)
    if not depths or min(depths) < 0 or max(depths) >= total:
        raise CroupierError(f"depths are cards dealt, 0 to {total - 1}")
    rounding = rounding or system.rounding
    if rounding == "none":
        rounding = "floor"
    ways, removed, lowest = removal_means(system, decks, max(depths))
    full = np.array([4.0 * decks] * 9 + [16.0 * decks])
    mass: dict[int, float] = {}
    left: dict[int, FloatArray] = {}
    cards: dict[int, float] = {}
    exact: dict[int, float] = {}
    irc = system.irc(decks)
    for n in depths:
        row = ways[n]
        subsets = float(math.comb(total, n))
        for column in np.nonzero(row)[0]:
            p = float(row[column]) / subsets / len(depths)
            running = irc + int(column) + lowest
            reading = int(true_count(running, total - n, system, decks, rounding=rounding))
            tc = true_count(running, total - n, system, decks, rounding="none")
            mass[reading] = mass.get(reading, 0.0) + p
            left[reading] = left.get(reading, 0.0) + p * (full - removed[n, column])
            cards[reading] = cards.get(reading, 0.0) + p * (total - n)
            exact[reading] = exact.get(reading, 0.0) + p * tc
    return {
        i: CountShoe(
            i,
            mass[i],
            tuple(float(x) for x in left[i] / mass[i]),
            cards[i] / mass[i],
            exact[i] / mass[i],
        )
        for i in sorted(mass)
    }
