"""The exact enumeration of one frontier component of a Minesweeper position.

Split from :mod:`croupier.plugins.minesweeper.analysis`, which builds the constraints, boxes
and components and combines the results: this module holds only the backtracking search over
one component's boxes (:func:`_search`), its memory by component shape (:func:`_remembered`,
``ENUMERATION_CACHE`` shapes) and the node budget that turns a hopeless position into a
one-line :class:`TooComplexError` (:func:`_enumerate`). A component the search does not
finish within ``SEARCH_FIRST`` steps is counted instead by the frontier dynamic program
(:mod:`~croupier.plugins.minesweeper.frontier`), whose steps are charged to the same
budget at ``1 / DP_STEP_COST`` each. ``NODE_BUDGET`` is read here, so
patch it on this module.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache
from math import comb

from croupier.engine import CroupierError
from croupier.plugins.minesweeper import frontier

NODE_BUDGET = 500_000
SEARCH_FIRST = 20_000
"""Steps the backtracking search gets before a component is counted by the frontier
dynamic program instead (small components are faster to list than to count)."""
DP_STEP_COST = 50
"""Steps of the dynamic program per step of the budget (what they cost, measured)."""
MAX_DEPTH = 900
MAX_LISTED_SETS = 8
ENUMERATION_CACHE = 4096


class TooComplexError(CroupierError):
    """The exact enumeration would take too long (its node budget ran out)."""


Weights = dict[int, list[int]]
Leaves = list[tuple[int, ...]]


def _enumerate(
    sizes: tuple[int, ...],
    needs: tuple[int, ...],
    cons_boxes: tuple[tuple[int, ...], ...],
    budget: list[int],
) -> tuple[Weights, Leaves]:
    """Weights of one component by mine count: ``k -> [weight, mine weight per box...]``.

    Also returns up to ``MAX_LISTED_SETS + 1`` solutions (mines per box) for display.
    Charges ``budget[0]`` one step per search node, raising :class:`TooComplexError` when it
    runs out, exactly as if the component were enumerated afresh (see :func:`_remembered`).
    The results are shared between calls and must not be modified.
    """
    try:
        weights, leaves, steps = _remembered(sizes, needs, cons_boxes, SEARCH_FIRST)
    except TooComplexError:
        counted, steps = _counted(sizes, needs, cons_boxes, NODE_BUDGET)
        if counted is None:
            raise _too_complex() from None
        weights, leaves = counted, []
    budget[0] -= steps
    if budget[0] < 0:
        raise _too_complex()
    return weights, leaves


def _too_complex() -> TooComplexError:
    return TooComplexError(
        f"this position is too complex to solve exactly (more than {NODE_BUDGET:,} search steps)"
    )


@lru_cache(maxsize=ENUMERATION_CACHE)
def _remembered(
    sizes: tuple[int, ...],
    needs: tuple[int, ...],
    cons_boxes: tuple[tuple[int, ...], ...],
    limit: int,
) -> tuple[Weights, Leaves, int]:
    """:func:`_enumerate` with a budget of ``limit`` steps, and the steps it took."""
    budget = [limit]
    weights, leaves = _search(sizes, needs, cons_boxes, budget)
    return weights, leaves, limit - budget[0]


@lru_cache(maxsize=ENUMERATION_CACHE)
def _counted(
    sizes: tuple[int, ...],
    needs: tuple[int, ...],
    cons_boxes: tuple[tuple[int, ...], ...],
    limit: int,
) -> tuple[Weights | None, int]:
    """A component counted by :mod:`~croupier.plugins.minesweeper.frontier` within ``limit``
    budget steps (``None`` beyond), and the budget steps it took, the failed search's
    included."""
    box_cons: list[list[int]] = [[] for _ in sizes]
    for c, members in enumerate(cons_boxes):
        for b in members:
            box_cons[b].append(c)
    order = breadth_first(box_cons, cons_boxes)
    room = (limit - SEARCH_FIRST) * DP_STEP_COST
    weights, steps = frontier.count(sizes, needs, cons_boxes, order, room)
    return weights, SEARCH_FIRST + -(-steps // DP_STEP_COST)


def breadth_first(links: Sequence[Sequence[int]], members: Sequence[Sequence[int]]) -> list[int]:
    """Items ``0..len(links)-1`` breadth-first through the constraints they share (item
    ``i`` is in constraints ``links[i]``; constraint ``c`` holds items ``members[c]``), each
    linked group from its lowest item, items in no constraint last: every constraint's items
    come together, so a search over them closes each constraint early."""
    order: list[int] = []
    seen = [False] * len(links)
    for start in range(len(links)):
        if seen[start] or not links[start]:
            continue
        seen[start] = True
        queue = deque([start])
        while queue:
            item = queue.popleft()
            order.append(item)
            for c in links[item]:
                for other in members[c]:
                    if not seen[other]:
                        seen[other] = True
                        queue.append(other)
    order.extend(i for i in range(len(links)) if not seen[i])
    return order


def _search(
    sizes: Sequence[int],
    needs: Sequence[int],
    cons_boxes: Sequence[Sequence[int]],
    budget: list[int],
) -> tuple[Weights, Leaves]:
    """The backtracking enumeration behind :func:`_enumerate`."""
    nboxes = len(sizes)
    box_cons: list[list[int]] = [[] for _ in sizes]
    for c, members in enumerate(cons_boxes):
        for b in members:
            box_cons[b].append(c)
    if nboxes > MAX_DEPTH:
        raise TooComplexError(
            f"a group of {nboxes} linked frontier regions is too large to enumerate exactly"
        )
    order = breadth_first(box_cons, cons_boxes)  # so that constraints close early
    need = list(needs)
    cap = [sum(sizes[b] for b in boxes) for boxes in cons_boxes]
    assign = [0] * nboxes
    result: dict[int, list[int]] = {}
    leaves: list[tuple[int, ...]] = []

    def rec(pos: int, k: int, weight: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _too_complex()
        if pos == nboxes:
            entry = result.get(k)
            if entry is None:
                entry = result[k] = [0] * (nboxes + 1)
            entry[0] += weight
            for b, m in enumerate(assign):
                if m:
                    entry[b + 1] += weight * m
            if len(leaves) <= MAX_LISTED_SETS:
                leaves.append(tuple(assign))
            return
        b = order[pos]
        size = sizes[b]
        cons = box_cons[b]
        lo, hi = 0, size
        for c in cons:
            left = need[c]
            hi = min(hi, left)
            lo = max(lo, left - (cap[c] - size))
        for c in cons:
            cap[c] -= size
        for m in range(lo, hi + 1):
            for c in cons:
                need[c] -= m
            assign[b] = m
            rec(pos + 1, k + m, weight * comb(size, m))
            for c in cons:
                need[c] += m
        assign[b] = 0
        for c in cons:
            cap[c] += size

    rec(0, 0, 1)
    return result, leaves
