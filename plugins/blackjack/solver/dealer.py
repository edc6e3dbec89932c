"""The dealer's final totals: exact forward recursion over the cards the dealer draws.

For one upcard the dealer's possible hands are compiled once into a *program*: the hands
the dealer still draws to (keyed by the multiset of cards drawn, which fixes the total and
the shoe's depletion), in order of cards drawn, each with its ten transitions to another
such hand or to a final outcome. Running the program on a shoe pushes the probability of
reaching each hand forward; the first card drawn is the hole card.

Outcomes are indexed 0..6: final 17, 18, 19, 20, 21, bust, blackjack. The *BJ mode* says
what a two-card 21 is: ``"peek"`` drops it (the result is P(outcome and no dealer blackjack),
the unnormalised distribution behind EVs conditioned on the peek), ``"nopeek"`` keeps it as
outcome 6, ``"plain"`` counts it as an ordinary 21 (the classic calculator's dealer).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal

import attrs
import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.plugins.blackjack.solver.cards import ACE, Counts, total

BjMode = Literal["peek", "nopeek", "plain"]
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
BLACKJACK = 6
FloatArray = npt.NDArray[np.float64]


@attrs.frozen
class Node:
    """A dealer hand that draws again: cards drawn so far and where each rank leads.

    A transition is ``(rank, target)``: ``target >= 0`` is another node, ``-1 - o`` is
    outcome ``o``; a two-card 21 dropped under the peek has no transition at all.
    """

    drawn: Counts
    count: int
    moves: tuple[tuple[int, int], ...]


@cache
def program(upcard: int, hits_soft_17: bool, mode: BjMode) -> tuple[Node, ...]:
    """The dealer's hands that draw again, for one upcard, parents before children."""
    order: list[Counts] = [(0,) * 10]
    index = {order[0]: 0}
    moves: list[list[tuple[int, int]]] = []
    i = 0
    while i < len(order):
        drawn = order[i]
        count = sum(drawn)
        hard = upcard + 1 + sum((r + 1) * n for r, n in enumerate(drawn))
        out: list[tuple[int, int]] = []
        for r in range(10):
            new_hard = hard + r + 1
            has_ace = upcard == ACE or drawn[ACE] > 0 or r == ACE
            value, soft = total(new_hard, has_ace)
            if count == 0 and value == 21:  # the hole card makes a natural
                if mode == "peek":
                    continue
                out.append((r, -1 - (BLACKJACK if mode == "nopeek" else 4)))
            elif value > 21:
                out.append((r, -1 - BUST))
            elif value >= 17 and not (value == 17 and soft and hits_soft_17):
                out.append((r, -1 - (value - 17)))
            else:
                child = (*drawn[:r], drawn[r] + 1, *drawn[r + 1 :])
                if child not in index:
                    index[child] = len(order)
                    order.append(child)
                out.append((r, index[child]))
        moves.append(out)
        i += 1
    return tuple(Node(d, sum(d), tuple(m)) for d, m in zip(order, moves, strict=True))


def distribution(
    upcard: int,
    hits_soft_17: bool,
    mode: BjMode,
    shoe: Counts | Sequence[float],
    finite: bool | None = None,
) -> list[float]:
    """The dealer's outcome probabilities from one shoe.

    ``shoe`` is either the ten counts left after removing every seen card (player cards
    and the upcard), or ten probabilities for an infinite deck. ``finite`` says which
    (by default: counts when they are all ints); finite counts may be fractional, the mean
    shoe at a true count (:mod:`.count_shoes`): each draw takes one card of its rank.
    The program runs compiled (:func:`_run`), the same operations in the same order as
    :func:`distribution_python`, so the results are identical to the last bit.
    """
    if finite is None:
        finite = all(isinstance(n, int) for n in shoe)
    flat = flat_program(upcard, hits_soft_17, mode)
    out = _run(np.array(shoe, dtype=np.float64), finite, *flat)
    return [float(x) for x in out]


# :func:`flat_program`'s arrays, fetched once per evaluator by the solver's hot path
FlatProgram = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]


@cache
def flat_program(
    upcard: int, hits_soft_17: bool, mode: BjMode
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """:func:`program` as flat arrays for :func:`_run`: each node's cards drawn (count,
    per rank) and its moves (``starts[i]:starts[i + 1]`` into ranks and targets)."""
    nodes = program(upcard, hits_soft_17, mode)
    counts = np.array([n.count for n in nodes], dtype=np.int64)
    drawn = np.array([n.drawn for n in nodes], dtype=np.int64).reshape(len(nodes), 10)
    starts = np.zeros(len(nodes) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(n.moves) for n in nodes])
    ranks = np.array([r for n in nodes for r, _ in n.moves], dtype=np.int64)
    targets = np.array([t for n in nodes for _, t in n.moves], dtype=np.int64)
    return counts, drawn, starts, ranks, targets


@njit(cache=True, nogil=True)
def _run(
    shoe: FloatArray,
    finite: bool,
    counts: npt.NDArray[np.int64],
    drawn: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    ranks: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int64],
) -> FloatArray:  # pragma: no cover - compiled
    size = 0.0
    for r in range(10):
        size += shoe[r]
    n = counts.shape[0]
    reach = np.zeros(n)
    reach[0] = 1.0
    out = np.zeros(7)
    for i in range(n):
        weight = reach[i]
        if weight == 0.0:
            continue
        if finite:
            left = size - counts[i]
            if left <= 0:
                continue
            weight /= left
        for k in range(starts[i], starts[i + 1]):
            r = ranks[k]
            target = targets[k]
            p = weight * (shoe[r] - drawn[i, r]) if finite else weight * shoe[r]
            if p <= 0.0:
                continue
            if target >= 0:
                reach[target] += p
            else:
                out[-1 - target] += p
    return out


def distribution_python(
    upcard: int,
    hits_soft_17: bool,
    mode: BjMode,
    shoe: Counts | Sequence[float],
    finite: bool | None = None,
) -> list[float]:
    """:func:`distribution` in plain Python: the reference the compiled run is tested
    against."""
    nodes = program(upcard, hits_soft_17, mode)
    if finite is None:
        finite = all(isinstance(n, int) for n in shoe)
    size = sum(shoe)
    reach = [0.0] * len(nodes)
    reach[0] = 1.0
    out = [0.0] * 7
    for i, node in enumerate(nodes):
        weight = reach[i]
        if weight == 0.0:
            continue
        if finite:
            left = size - node.count
            if left <= 0:
                continue
            weight /= left
        for r, target in node.moves:
            p = weight * (shoe[r] - node.drawn[r] if finite else shoe[r])
            if p <= 0.0:
                continue
            if target >= 0:
                reach[target] += p
            else:
                out[-1 - target] += p
    return out


def distributions(
    upcard: int,
    hits_soft_17: bool,
    mode: BjMode,
    shoes: npt.NDArray[np.int64] | FloatArray,
) -> FloatArray:
    """:func:`distribution` for many finite shoes at once: ``shoes`` is (M, 10) counts
    (ints, or fractional counts as :func:`distribution` takes them).

    Every shoe goes through exactly the floating-point operations, in the same order, that
    :func:`distribution` performs on it (so the results are identical to the last bit);
    the cards left of each rank at each depletion and the cards left at each depth are
    made once, and the products go through one buffer, to keep the pass memory-light.
    """
    nodes = program(upcard, hits_soft_17, mode)
    counts = np.ascontiguousarray(shoes.astype(np.float64).T)  # (10, M): rows are ranks
    sizes = counts.sum(axis=0)
    size = counts.shape[1]
    reach = np.zeros((len(nodes), size))
    reach[0] = 1.0
    out = np.zeros((7, size))
    buffer = np.empty(size)
    weight = np.empty(size)
    available: dict[tuple[int, int], FloatArray] = {}
    depths: dict[int, tuple[FloatArray, npt.NDArray[np.bool_] | None]] = {}
    for i, node in enumerate(nodes):
        depth = depths.get(node.count)
        if depth is None:
            left = sizes - node.count
            ok = left > 0
            depth = (left, None) if ok.all() else (np.where(ok, left, 1.0), ok)
            depths[node.count] = depth
        left, ok = depth
        np.divide(reach[i], left, out=weight)
        if ok is not None:
            weight[np.logical_not(ok)] = 0.0
        for r, target in node.moves:
            key = (r, node.drawn[r])
            cards = available.get(key)
            if cards is None:
                cards = np.maximum(counts[r] - node.drawn[r], 0.0)
                available[key] = cards
            np.multiply(weight, cards, out=buffer)
            if target >= 0:
                reach[target] += buffer
            else:
                out[-1 - target] += buffer
    return out.T.copy()
