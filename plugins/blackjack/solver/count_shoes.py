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

from croupier.engine import DECK_SIZE as DECK
from croupier.engine import CountSystem, CroupierError, true_count

FloatArray = npt.NDArray[np.float64]


@attrs.frozen
class CountShoe:
    """The shoe left, on average, when the true count reads ``reading``."""

    reading: int
    probability: float  # of reading it, depths weighted uniformly
    shoe: tuple[float, ...]  # mean cards left of each rank, A 2..9 T
    cards: float  # mean cards left
    mean_true_count: float  # the mean exact (unrounded) true count among these shoes
    covariance: tuple[tuple[float, ...], ...] | None = None  # of the cards left, if asked


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


def group_moments(
    groups: Sequence[_Group], most: int, second: bool = False
) -> tuple[FloatArray, FloatArray, FloatArray | None, int]:
    """``(ways, first, second, lowest)`` for up to ``most`` cards dealt: ``ways[n, s -
    lowest]`` the number of deals of ``n`` cards with running count ``s`` (tag units, from
    zero), ``first[n, s - lowest, g] = E[k_g | n, s]`` the expected cards dealt from group
    ``g``, and with ``second`` also ``E[k_g k_h | n, s]`` (a convolution of the other
    groups' ways with ``j C(N_g, j)``, and ``l C(N_h, l)`` or ``j^2 C(N_g, j)``)."""
    lowest = sum(min(0, g.tag) * g.cards for g in groups)
    width = sum(max(0, g.tag) * g.cards for g in groups) - lowest + 1
    rows = most + 1
    ways = _ways(groups, rows, lowest, width)
    safe = np.where(ways > 0, ways, 1.0)
    size = len(groups)
    first = np.zeros((rows, width, size))

    def weights(group: _Group, power: int) -> list[float]:
        return [j**power * float(math.comb(group.cards, j)) for j in range(group.cards + 1)]

    def without(*skip: int) -> FloatArray:
        return _ways([h for i, h in enumerate(groups) if i not in skip], rows, lowest, width)

    for g, group in enumerate(groups):
        first[:, :, g] = _convolve(without(g), group, weights(group, 1), lowest) / safe
    if not second:
        return ways, first, None, lowest
    moments = np.zeros((rows, width, size, size))
    for g, group in enumerate(groups):
        moments[:, :, g, g] = _convolve(without(g), group, weights(group, 2), lowest) / safe
        for h in range(g + 1, size):
            both = _convolve(without(g, h), group, weights(group, 1), lowest)
            both = _convolve(both, groups[h], weights(groups[h], 1), lowest) / safe
            moments[:, :, g, h] = moments[:, :, h, g] = both
    return ways, first, moments, lowest


def shares(groups: Sequence[_Group]) -> FloatArray:
    """``A[r, g]``: the share of group ``g``'s cards that are of rank ``r``."""
    out = np.zeros((10, len(groups)))
    for g, group in enumerate(groups):
        for rank, n in group.ranks:
            out[rank, g] += n / group.cards
    return out


def count_shoes(
    system: CountSystem,
    decks: int,
    depths: Sequence[int] | None = None,
    penetration: float = 0.75,
    rounding: str | None = None,
    covariance: bool = False,
) -> dict[int, CountShoe]:
    """The mean shoe at every true-count reading (see the module docstring).

    ``depths`` are the numbers of cards dealt to weigh uniformly (default: 0 to the cut
    card, ``penetration`` of the shoe); ``rounding`` overrides the system's (``none`` is
    binned as ``floor``: a reading must be an integer). With ``covariance`` each shoe also
    carries the exact covariance of the cards left among the shoes that read it: the
    groups' second moments, plus within each group the multivariate hypergeometric spread
    of its ranks given the cards dealt from it."""
    total = DECK * decks
    if depths is None:
        depths = range(int(penetration * total) + 1)
    depths = list(depths)
    if not depths or min(depths) < 0 or max(depths) >= total:
        raise CroupierError(f"depths are cards dealt, 0 to {total - 1}")
    rounding = rounding or system.rounding
    if rounding == "none":
        rounding = "floor"
    groups = tag_groups(system, decks)
    ways, first, second, lowest = group_moments(groups, max(depths), covariance)
    size = len(groups)
    mass: dict[int, float] = {}
    k1: dict[int, FloatArray] = {}
    k2: dict[int, FloatArray] = {}
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
            k1[reading] = k1.get(reading, np.zeros(size)) + p * first[n, column]
            if second is not None:
                k2[reading] = k2.get(reading, np.zeros((size, size))) + p * second[n, column]
            cards[reading] = cards.get(reading, 0.0) + p * (total - n)
            exact[reading] = exact.get(reading, 0.0) + p * tc
    full = np.array([4.0 * decks] * 9 + [16.0 * decks])
    a = shares(groups)
    out = {}
    for i in sorted(mass):
        removed = a @ (k1[i] / mass[i])
        spread = None
        if second is not None:
            spread = _spread(groups, a, k1[i] / mass[i], k2[i] / mass[i], removed)
        out[i] = CountShoe(
            i,
            mass[i],
            tuple(float(x) for x in full - removed),
            cards[i] / mass[i],
            exact[i] / mass[i],
            spread,
        )
    return out


def _spread(
    groups: Sequence[_Group], a: FloatArray, k1: FloatArray, k2: FloatArray, removed: FloatArray
) -> tuple[tuple[float, ...], ...]:
    """The covariance of the cards left (that of the cards dealt) from the groups' first
    and second moments: ``A E[k k'] A'`` plus, per group, ``E[k (N - k)] / (N - 1)`` times
    the multinomial shape of its ranks, minus the mean's outer product."""
    moment = a @ k2 @ a.T
    for g, group in enumerate(groups):
        if group.cards > 1:
            c = (group.cards * k1[g] - k2[g, g]) / (group.cards - 1)
            p = a[:, g]
            moment += c * (np.diag(p) - np.outer(p, p))
    cov = moment - np.outer(removed, removed)
    return tuple(tuple(float(x) for x in line) for line in cov)
