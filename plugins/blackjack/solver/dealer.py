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
    out = _run(np.array(shoe, dtype=np.float64), finite, *flat[:5])
    return [float(x) for x in out]


# :func:`flat_program`'s arrays, fetched once per evaluator by the solver's hot path: the
# program as :func:`_run` reads it (a node's cards drawn, count and per rank, and its moves
# ``starts[i]:starts[i + 1]`` into ranks and targets), then as :func:`_run_whole` reads it
FastProgram = tuple[
    FloatArray,  # (N,) each node's count of cards drawn
    npt.NDArray[np.int64],  # (N + 1, 2): where each node's kids and helds start
    npt.NDArray[np.int64],  # (N,) each node's group: the nodes with the same ends
    npt.NDArray[np.int64],  # kids (K, 2): rank and target node of each move to a node
    FloatArray,  # (K,) kids' cards of that rank already drawn
    npt.NDArray[np.int64],  # helds (H,): a node's end whose rank it has drawn
    FloatArray,  # (H,) how many of that rank it has drawn
    npt.NDArray[np.int64],  # (G + 1,) where each group's ends start
    npt.NDArray[np.int64],  # ends (E, 2): rank and outcome of each move ending below bust
    npt.NDArray[np.int64],  # [the rank dropped as a natural under the peek, or -1]
]
FlatProgram = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    FastProgram,
]


@cache
def flat_program(upcard: int, hits_soft_17: bool, mode: BjMode) -> FlatProgram:
    """:func:`program` as flat arrays for :func:`_run` and :func:`_run_whole`."""
    nodes = program(upcard, hits_soft_17, mode)
    counts = np.array([n.count for n in nodes], dtype=np.int64)
    drawn = np.array([n.drawn for n in nodes], dtype=np.int64).reshape(len(nodes), 10)
    starts = np.zeros(len(nodes) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(n.moves) for n in nodes])
    ranks = np.array([r for n in nodes for r, _ in n.moves], dtype=np.int64)
    targets = np.array([t for n in nodes for _, t in n.moves], dtype=np.int64)
    return counts, drawn, starts, ranks, targets, _fast_program(nodes)


def _fast_program(nodes: tuple[Node, ...]) -> FastProgram:
    """The program as :func:`_run_whole` reads it: moves to nodes one by one, moves
    ending at 17..21 (or a natural) by group (the nodes with the same such moves)."""
    steps = np.zeros((len(nodes) + 1, 2), dtype=np.int64)
    group = np.zeros(len(nodes), dtype=np.int64)
    groups: dict[tuple[tuple[int, int], ...], int] = {}
    group_ends: list[tuple[int, int]] = []
    group_starts = [0]
    kids: list[tuple[int, int]] = []
    kid_drawn: list[int] = []
    helds: list[int] = []
    held_drawn: list[int] = []
    for i, node in enumerate(nodes):
        ends = tuple((r, -1 - t) for r, t in node.moves if t < 0 and t != -1 - BUST)
        g = groups.get(ends)
        if g is None:
            g = groups[ends] = len(groups)
            group_ends.extend(ends)
            group_starts.append(len(group_ends))
        group[i] = g
        for r, target in node.moves:
            if target >= 0:
                kids.append((r, target))
                kid_drawn.append(node.drawn[r])
        for e, (r, _) in enumerate(ends):
            if node.drawn[r]:
                helds.append(group_starts[g] + e)
                held_drawn.append(node.drawn[r])
        steps[i + 1] = len(kids), len(helds)
    first = {r for r, _ in nodes[0].moves}
    dropped = [r for r in range(10) if r not in first]
    return (
        np.array([n.count for n in nodes], dtype=np.float64),
        steps,
        group,
        np.array(kids, dtype=np.int64).reshape(len(kids), 2),
        np.array(kid_drawn, dtype=np.float64),
        np.array(helds, dtype=np.int64),
        np.array(held_drawn, dtype=np.float64),
        np.array(group_starts, dtype=np.int64),
        np.array(group_ends, dtype=np.int64).reshape(len(group_ends), 2),
        np.array([dropped[0] if dropped else -1], dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _run_whole(
    shoe: FloatArray, fast: FastProgram
) -> tuple[FloatArray, bool]:  # pragma: no cover - compiled
    """:func:`_run` on a finite shoe of whole counts, the solver's stand rows' pass.

    Most of :func:`_run`'s moves end the dealer's hand: a third bust him, and here the
    bust is what the other outcomes leave of the mass (1, or 1 less the natural dropped
    under the peek); a move from node ``i`` ending at 17..21 adds ``w_i (n_r - d_ir)``
    (``w_i``: the node's reach over the cards left, ``n_r``: the shoe's cards of rank
    ``r``, ``d_ir``: those the node drew), so for a group of nodes with the same such
    moves it adds ``n_r sum(w_i) - sum(w_i d_ir)``, the second sum over the nodes holding
    an ``r`` (a node holds few ranks). The sums differ from :func:`_run`'s by rounding
    (~1e-16). False (and nothing) for a shoe it cannot take: fractional or negative
    counts, or one the dealer may exhaust (where :func:`_run` loses that mass).
    """
    counts, steps, group, kids, kid_drawn, helds, held_drawn, group_starts, ends, meta = fast
    out = np.zeros(7)
    size = 0.0
    for r in range(10):
        if shoe[r] < 0.0 or shoe[r] != np.floor(shoe[r]):
            return out, False
        size += shoe[r]
    n = counts.shape[0]
    g_size = group_starts.shape[0] - 1
    scratch = np.zeros(n + g_size + ends.shape[0] + 24)  # one allocation for all four
    reach = scratch[:n]
    weights = scratch[n : n + g_size]
    held = scratch[n + g_size : n + g_size + ends.shape[0]]
    inverse = scratch[n + g_size + ends.shape[0] :]  # 1 / cards left, by cards drawn
    for c in range(24):
        inverse[c] = 1.0 / (size - c) if size - c > 0 else 0.0
    reach[0] = 1.0
    for i in range(n):
        weight = reach[i]
        if weight == 0.0:
            continue
        c = int(counts[i])
        if size - c <= 0:
            return out, False
        weight *= inverse[c]
        for k in range(steps[i, 0], steps[i + 1, 0]):
            reach[kids[k, 1]] += weight * (shoe[kids[k, 0]] - kid_drawn[k])
        weights[group[i]] += weight
        for k in range(steps[i, 1], steps[i + 1, 1]):
            held[helds[k]] += weight * held_drawn[k]
    for g in range(weights.shape[0]):
        for e in range(group_starts[g], group_starts[g + 1]):
            out[ends[e, 1]] += shoe[ends[e, 0]] * weights[g] - held[e]
    mass = 1.0
    if meta[0] >= 0:
        mass = 1.0 - shoe[meta[0]] / size
    out[BUST] = mass - out[0] - out[1] - out[2] - out[3] - out[4] - out[BLACKJACK]
    return out, True


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
