"""Counting one component's placements by dynamic programming over a frontier ordering.

The backtracking search (:mod:`~croupier.plugins.minesweeper.enumeration`) visits every
solution of a component, one by one: exponential in the number of boxes. This counts them
instead. The boxes are taken in the breadth-first order through the numbers (the same
order the search uses, which sweeps the component like a frontier); a number is *open*
from its first box to its last. After each box the state is what each open number still
needs, and the value of a state is the weight of all ways to reach it, as a polynomial in
the number of mines placed so far (a list indexed by that number; a box of s cells with m
mines multiplies by C(s, m)). A number is closed exactly when its last box is placed (what
it needs must fit in the room its later boxes leave, and be 0 at its last). A backward
pass gives the weight of completing each state; a box's mine weight for each total is the
forward weight times the backward weight times m C(s, m), summed over the states around
it. Everything is an exact integer.

The cost grows with the number of distinct states: the combinations of what the open
numbers still need, so with how many numbers are open at once (the frontier's width), not
with the number of solutions. A lattice of numbers across a 16x16 board (124 boxes, 10^23
placements) takes about 10^7 steps, a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb

Weights = dict[int, list[int]]
Key = tuple[tuple[int, int], ...]
"""A state: (number, what it still needs) for each open number, by number."""


def _add(into: list[int], poly: list[int], shift: int, factor: int) -> list[int]:
    """``into += factor * poly * x**shift``."""
    need = len(poly) + shift
    if len(into) < need:
        into.extend([0] * (need - len(into)))
    for i, w in enumerate(poly):
        if w:
            into[i + shift] += w * factor
    return into


def _forward(
    sizes: Sequence[int],
    needs: Sequence[int],
    cons_boxes: Sequence[Sequence[int]],
    order: Sequence[int],
    budget_steps: int,
) -> tuple[list[dict[Key, list[int]]] | None, int]:
    """The forward tables (``None`` past ``budget_steps``) and the steps taken."""
    n = len(sizes)
    box_cons: list[list[int]] = [[] for _ in sizes]
    for c, members in enumerate(cons_boxes):
        for b in members:
            box_cons[b].append(c)
    pos_of = {b: p for p, b in enumerate(order)}
    last = [max(pos_of[b] for b in members) for members in cons_boxes]
    first = [min(pos_of[b] for b in members) for members in cons_boxes]
    # capacity of each constraint after position p (sizes of its boxes placed later)
    # open constraints before position p: first < p <= last
    opened_at: list[list[int]] = [[] for _ in range(n)]
    for c in range(len(cons_boxes)):
        opened_at[first[c]].append(c)
    steps = 0
    # keys: tuple of (c, need) sorted by c, for open constraints
    forward: list[dict[Key, list[int]]] = [{} for _ in range(n + 1)]
    forward[0] = {(): [1]}
    remaining_cap = [sum(sizes[b] for b in members) for members in cons_boxes]
    caps_after = []
    cap = list(remaining_cap)
    for p in range(n):
        b = order[p]
        for c in box_cons[b]:
            cap[c] -= sizes[b]
        caps_after.append(list(cap))
    for p in range(n):
        b = order[p]
        size = sizes[b]
        cons = box_cons[b]
        after = caps_after[p]
        nxt: dict[Key, list[int]] = {}
        for key, poly in forward[p].items():
            state = dict(key)
            for c in opened_at[p]:
                state[c] = needs[c]
            for m in range(size + 1):
                steps += 1 + len(poly)
                ok = True
                new = dict(state)
                for c in cons:
                    left = new[c] - m
                    if left < 0 or left > after[c]:
                        ok = False
                        break
                    new[c] = left
                if not ok:
                    continue
                for c in cons:
                    if last[c] == p:
                        del new[c]
                k2 = tuple(sorted(new.items()))
                _add(nxt.setdefault(k2, []), poly, m, comb(size, m))
        forward[p + 1] = nxt
        if steps > budget_steps:
            return None, steps
    return forward, steps


def count(
    sizes: Sequence[int],
    needs: Sequence[int],
    cons_boxes: Sequence[Sequence[int]],
    order: Sequence[int],
    budget_steps: int,
) -> tuple[Weights | None, int]:
    """``k -> [weight, mine weight of each box]`` as the backtracking search gives it
    (``None`` past ``budget_steps``), and the steps taken."""
    forward, steps = _forward(sizes, needs, cons_boxes, order, budget_steps)
    if forward is None:
        return None, steps
    n = len(sizes)
    box_cons: list[list[int]] = [[] for _ in sizes]
    for c, members in enumerate(cons_boxes):
        for b in members:
            box_cons[b].append(c)
    pos_of = {b: p for p, b in enumerate(order)}
    last = [max(pos_of[b] for b in members) for members in cons_boxes]
    first = [min(pos_of[b] for b in members) for members in cons_boxes]
    opened_at: list[list[int]] = [[] for _ in range(n)]
    for c in range(len(cons_boxes)):
        opened_at[first[c]].append(c)
    cap = [sum(sizes[b] for b in members) for members in cons_boxes]
    caps_after = []
    for p in range(n):
        b = order[p]
        for c in box_cons[b]:
            cap[c] -= sizes[b]
        caps_after.append(list(cap))

    def moves(p: int, key: Key) -> Iterator[tuple[int, Key]]:
        b = order[p]
        size = sizes[b]
        state = dict(key)
        for c in opened_at[p]:
            state[c] = needs[c]
        for m in range(size + 1):
            new = dict(state)
            ok = True
            for c in box_cons[b]:
                left = new[c] - m
                if left < 0 or left > caps_after[p][c]:
                    ok = False
                    break
                new[c] = left
            if not ok:
                continue
            for c in box_cons[b]:
                if last[c] == p:
                    del new[c]
            yield m, tuple(sorted(new.items()))

    backward: list[dict[Key, list[int]]] = [{} for _ in range(n + 1)]
    backward[n] = {(): [1]}
    mine: list[dict[int, int]] = [{} for _ in range(n)]  # box -> total k -> weight
    for p in range(n - 1, -1, -1):
        b = order[p]
        size = sizes[b]
        here: dict[Key, list[int]] = {}
        after = backward[p + 1]
        for key, fpoly in forward[p].items():
            acc: list[int] = []
            for m, k2 in moves(p, key):
                bpoly = after.get(k2)
                if bpoly is None:
                    continue
                steps += len(bpoly) * (1 + len(fpoly))
                _add(acc, bpoly, m, comb(size, m))
                if m:
                    # mine weight of box b at total k = k1 + m + k2
                    factor = m * comb(size, m)
                    box = mine[b]
                    for i, fw in enumerate(fpoly):
                        if fw:
                            for j, bw in enumerate(bpoly):
                                if bw:
                                    t = i + m + j
                                    box[t] = box.get(t, 0) + fw * bw * factor
            if acc:
                here[key] = acc
        backward[p] = here
        if steps > budget_steps:
            return None, steps
    total = forward[n].get((), [])
    result: Weights = {}
    for k, w in enumerate(total):
        if w:
            entry = [w] + [mine[b].get(k, 0) for b in range(n)]
            result[k] = entry
    return result, steps
