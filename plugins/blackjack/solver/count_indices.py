"""Exact index generation: the true count at which each decision's better play changes.

For each true-count reading ``i`` the mean shoe left (:mod:`.count_shoes`) is solved
exactly, composition-dependently, against each upcard (:class:`.analysis.UpcardSolver` on
that shoe), and each decision's *gain* is the EV of taking it minus the EV of the best
alternative, over the decision's row: the two-card hands of that total weighted by their
probability in that shoe (pairs only where a row has no other hand) and, for a stand
decision (``rows="all"``, the default), the hands of three or more cards of that total
too, weighted by the chance that the play reaches them (:func:`later_hands`), as an index
table is played on every hand of a total; every later card played optimally for that
shoe, EVs conditioned on no dealer blackjack under the peek. Decisions:

* ``stand`` on hard 12..17: stand against hit;
* ``double`` on hard 8..11 and soft 13..20 (as the rules allow): double against the
  better of hit and stand;
* ``split`` of each pair: split against the best of hit, stand and double;
* ``surrender`` on hard 12..17: surrender against the best of the rest;
* ``insurance`` against an ace: ``3 P(ten in the hole) - 1`` per unit insured (exact for
  any hand, on average over the player's cards, by exchangeability).

The gains are computed per decision and shoe in :mod:`.count_gains`. The gain is close to
linear in the count. Readings 0 and +4 are solved first for every upcard, the crossing of
each decision is estimated from them, then neighbouring readings are solved until the gain
changes sign between two consecutive readings ``i`` < ``j`` (neighbours among the readings
searched: a small shoe never reads some counts). The index is the reading from which the
decision is taken: ``j`` with direction ``+`` when the gain rises through zero, ``i`` with
direction ``-`` when it falls. Because each
reading's shoe is the mean over every shoe that reads it, the index fits the system's own
rounding (floored, truncated, rounded): no half-unit correction is needed. ``crossing`` is
the zero of the gain interpolated linearly between the two readings' mean exact true
counts. A decision whose gain keeps its sign over every reading of probability at least
``min_probability`` whose mean shoe holds at least two cards of every rank (a shoe more
depleted is no mean worth solving) has no index (listed as unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

from croupier.engine import CountSystem, CroupierError
from croupier.plugins.blackjack.indices import IndexEntry
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import check_rules
from croupier.plugins.blackjack.solver.count_gains import (
    ROWS,
    UPCARD_LABELS,
    Decision,
    catalogue,
    later_hands,
    spread_gains,
    upcard_gains,
)
from croupier.plugins.blackjack.solver.count_shoes import CountShoe, count_shoes

__all__ = [
    "UPCARD_LABELS",
    "Decision",
    "Found",
    "IndexSearch",
    "catalogue",
    "generate",
    "later_hands",
    "parse_decision",
    "solve_indices",
    "upcard_gains",
]

START = (0, 4)  # readings solved first for every upcard
MIN_CARDS = 2.0  # a reading is searched when its mean shoe holds this many of every rank
Finder = Generator[tuple[int, ...], dict[int, float | None], "Found | None"]


@attrs.frozen
class Found:
    """A decision's index, or its unchanged sign."""

    decision: Decision
    index: int | None
    direction: str  # "+" or "-" ("" when unchanged)
    crossing: float | None
    gains: dict[int, float]  # reading -> gain, where solved

    def entry(self) -> IndexEntry:
        assert self.index is not None
        d = self.decision
        return IndexEntry(
            d.kind, d.hand, UPCARD_LABELS[d.upcard], float(self.index), self.direction
        )


class IndexSearch:
    """The gains at each (reading, upcard), solved once, and each decision's bracket.

    Every decision's search is a generator that asks for the gains at a few readings at a
    time; :meth:`run` gathers what all of them ask, solves each new (reading, upcard) once
    (``workers`` processes at a time: the solves are independent), and answers them."""

    def __init__(
        self,
        rules: BlackjackRules,
        shoes: dict[int, CountShoe],
        decisions: list[Decision],
        min_probability: float = 1e-4,
        on_solve: Callable[[int, int], None] | None = None,
        rows: str = "all",
        workers: int = 1,
        second_order: bool = False,
    ) -> None:
        self.rules = rules
        self.rows = rows
        self.second_order = second_order
        self.shoes = shoes
        self.decisions = decisions
        self.workers = workers
        self.readings = sorted(
            i
            for i, s in shoes.items()
            if s.probability >= min_probability and min(s.shoe) >= MIN_CARDS
        )
        if len(self.readings) < 2:
            raise CroupierError("fewer than two true counts are likely enough to compare")
        self._gains: dict[tuple[int, int], dict[Decision, float]] = {}
        self._asked: dict[tuple[int, int], set[Decision]] = {}  # solved for, playable or not
        self.on_solve = on_solve
        self.solves = 0

    def _solve(
        self, missing: dict[tuple[int, int], set[Decision]], pool: ProcessPoolExecutor | None
    ) -> None:
        """Solve each (reading, upcard) for its missing decisions: the first time for every
        decision of that upcard but the splits not asked for (a split's value is the
        dearest part of a solve, and most readings never need it), later for the rest."""
        keys = sorted(missing)
        tasks = []
        for reading, upcard in keys:
            if (reading, upcard) in self._gains:
                wanted = missing[(reading, upcard)]
            else:
                mine = [d for d in self.decisions if d.upcard == upcard]
                wanted = {d for d in mine if d.kind != "split"} | missing[(reading, upcard)]
            ordered = [d for d in self.decisions if d in wanted]
            shoe = self.shoes[reading]
            spread = shoe.covariance if self.second_order else None
            tasks.append((self.rules, shoe.shoe, upcard, ordered, self.rows, spread))
        if pool is not None and len(tasks) > 1:
            results = list(pool.map(_solve_task, tasks))
        else:
            results = [_solve_task(task) for task in tasks]
        for key, task, result in zip(keys, tasks, results, strict=True):
            self._gains.setdefault(key, {}).update(result)
            self._asked.setdefault(key, set()).update(task[3])
            self.solves += 1
            if self.on_solve is not None:
                self.on_solve(*key)

    def run(self) -> list[Found]:
        """Every decision's index (decisions that never arise left out)."""
        if self.workers <= 1:
            return self._run(None)
        with ProcessPoolExecutor(self.workers) as pool:  # one pool: its caches stay warm
            return self._run(pool)

    def _run(self, pool: ProcessPoolExecutor | None) -> list[Found]:
        finders = {d: self._finder(d) for d in self.decisions}
        asks = {d: next(f) for d, f in finders.items()}
        done: dict[Decision, Found | None] = {}
        while asks:
            missing: dict[tuple[int, int], set[Decision]] = {}
            for d, rs in asks.items():
                for r in rs:
                    if d not in self._asked.get((r, d.upcard), ()):
                        missing.setdefault((r, d.upcard), set()).add(d)
            self._solve(missing, pool)
            following = {}
            for d, readings in asks.items():
                answer = {r: self._gains[(r, d.upcard)].get(d) for r in readings}
                try:
                    following[d] = finders[d].send(answer)
                except StopIteration as stop:
                    done[d] = stop.value
            asks = following
        return [f for d in self.decisions if (f := done[d]) is not None]

    def _finder(self, decision: Decision) -> Finder:
        """One decision's search (see the module docstring): yields the readings it needs,
        receives their gains, returns its :class:`Found` (None: it never arises).

        Readings are searched in order among the usable ones (a small shoe never reads
        some counts: one deck floored never reads -1), so a bracket is two neighbours."""
        readings = self.readings
        a, b = (min(readings, key=lambda r: (abs(r - x), r)) for x in START)
        got = yield (a, b)
        ga, gb = got[a], got[b]
        if ga is None or gb is None:
            return None
        seen: dict[int, float] = {a: ga, b: gb}
        slope = (gb - ga) / (b - a) if b != a else 0.0
        guess = a - ga / slope if slope else float(readings[0] if ga > 0 else readings[-1])
        k = sum(1 for r in readings if r <= guess) - 1
        k = min(max(k, 0), len(readings) - 2)
        for _ in range(len(readings)):
            i, j = readings[k], readings[k + 1]
            need = tuple(r for r in (i, j) if r not in seen)
            if need:
                got = yield need
                if any(v is None for v in got.values()):
                    break  # the hand cannot be dealt from so depleted a shoe: no further
                seen.update({r: v for r, v in got.items() if v is not None})
            lo, hi = seen[i], seen[j]
            if (lo < 0) != (hi < 0):
                return self._found(decision, i, j, lo, hi, seen)
            rising = hi > lo
            step = 1 if (lo < 0) == rising else -1
            if not 0 <= k + step <= len(readings) - 2:
                break
            k += step
        return Found(decision, None, "", None, dict(sorted(seen.items())))

    def _found(
        self, decision: Decision, i: int, j: int, lo: float, hi: float, seen: dict[int, float]
    ) -> Found:
        x0, x1 = self.shoes[i].mean_true_count, self.shoes[j].mean_true_count
        crossing = x0 + (x1 - x0) * lo / (lo - hi)
        if hi >= 0:  # rising through zero: take it from j up
            return Found(decision, j, "+", crossing, dict(sorted(seen.items())))
        return Found(decision, i, "-", crossing, dict(sorted(seen.items())))


def _solve_task(task: tuple[Any, ...]) -> dict[Decision, float]:
    """One (reading, upcard) solve; module-level so that worker processes can run it."""
    rules, shoe, upcard, decisions, rows, spread = task
    if spread is not None:
        return spread_gains(rules, shoe, spread, upcard, decisions, rows)
    return upcard_gains(rules, shoe, upcard, decisions, rows=rows)


def check_index_rules(rules: BlackjackRules) -> None:
    """Rules indices are generated for: a casino table (S17 or H17, casino betting) with a
    finite shoe; anything else is refused in one line."""
    if rules.dealer not in ("s17", "h17") or rules.betting != "casino":
        raise CroupierError(
            "indices are generated for a casino table (an S17 or H17 dealer, casino betting)"
        )
    check_rules(rules)
    if rules.decks is None:
        raise CroupierError(
            "indices need a finite shoe (a count means nothing in an infinite deck)"
        )


def generate(
    rules: BlackjackRules,
    system: CountSystem,
    decisions: list[Decision] | None = None,
    *,
    rounding: str | None = None,
    min_probability: float = 1e-4,
    on_solve: Callable[[int, int], None] | None = None,
    rows: str = "all",
    workers: int = 1,
    second_order: bool = False,
) -> tuple[list[Found], IndexSearch]:
    """Every decision's index for ``system`` under ``rules`` (a finite shoe, its
    penetration's depths weighted uniformly), solving on ``workers`` processes."""
    check_index_rules(rules)
    assert rules.decks is not None  # checked: a finite shoe
    shoes = count_shoes(
        system,
        rules.decks,
        penetration=rules.penetration,
        rounding=rounding,
        covariance=second_order,
    )
    if rows not in ROWS:
        raise CroupierError(f"rows are {' or '.join(ROWS)}, not {rows!r}")
    search = IndexSearch(
        rules,
        shoes,
        decisions or catalogue(rules),
        min_probability,
        on_solve,
        rows,
        workers,
        second_order,
    )
    return search.run(), search


def solution(found: list[Found], search: IndexSearch, system: CountSystem) -> dict[str, Any]:
    """Plain data for the solver's answer."""
    return {
        "count": system.name,
        "rounding": system.rounding,
        "indices": [
            {
                "decision": f.decision.kind,
                "hand": f.decision.hand,
                "upcard": UPCARD_LABELS[f.decision.upcard],
                "index": f.index,
                "direction": f.direction,
                "crossing": f.crossing,
                "gains": {str(k): v for k, v in f.gains.items()},
            }
            for f in found
            if f.index is not None
        ],
        "unchanged": [f.decision.label for f in found if f.index is None],
        "readings": {
            str(i): {
                "probability": s.probability,
                "cards_left": s.cards,
                "mean_true_count": s.mean_true_count,
            }
            for i, s in search.shoes.items()
            if i in search.readings
        },
        "solves": search.solves,
    }


def parse_decision(text: str) -> Decision:
    """``"stand 16 T"`` (or ``"stand 16 v T"``) as a :class:`Decision`."""
    words = [w for w in text.split() if w.lower() != "v"]
    if len(words) != 3 or words[2].upper() not in UPCARD_LABELS:
        raise CroupierError(f"a decision is 'KIND HAND UPCARD', e.g. 'stand 16 T', not {text!r}")
    return Decision(words[0].lower(), words[1], UPCARD_LABELS.index(words[2].upper()))


INDEX_KEYS = (
    "count",
    "decisions",
    "rounding",
    "min_probability",
    "rows",
    "workers",
    "second_order",
)


def solve_indices(rules: BlackjackRules, spec: Any) -> dict[str, Any]:
    """The ``indices`` problem: ``count`` (a count system as plain data), optional
    ``decisions`` (``"stand 16 T"`` strings; default every decision), ``rounding`` (the
    count's by default), ``min_probability`` of the readings searched and ``rows``
    (``all``, the default: stand rows with their hands of three or more cards too, or
    ``two-card``); ``workers``, processes to solve on (1: this one); ``second_order``: each
    gain averaged over the shoes that read the count to second order
    (:func:`.count_gains.spread_gains`), about 21 solves a shoe instead of one."""
    if not isinstance(spec, dict) or "count" not in spec:
        raise CroupierError("'indices' is an object with the count system as 'count'")
    unknown = set(spec) - set(INDEX_KEYS)
    if unknown:
        raise CroupierError(f"unknown indices key(s): {', '.join(sorted(unknown))}")
    system = CountSystem.from_dict(spec["count"])
    check_index_rules(rules)
    allowed = {(d.kind, d.hand, d.upcard): d for d in catalogue(rules)}
    decisions = None
    if spec.get("decisions") is not None:
        decisions = []
        for text in spec["decisions"]:
            d = parse_decision(str(text))
            if (d.kind, d.hand, d.upcard) not in allowed:
                raise CroupierError(f"{d.label} is not a decision of these rules")
            decisions.append(d)
    rounding = spec.get("rounding") or system.rounding
    system = attrs.evolve(system, rounding=rounding)
    found, search = generate(
        rules,
        system,
        decisions,
        min_probability=float(spec.get("min_probability", 1e-4)),
        rows=str(spec.get("rows", "all")),
        workers=int(spec.get("workers", 1)),
        second_order=bool(spec.get("second_order", False)),
    )
    return {
        **solution(found, search, system),
        "rows": search.rows,
        "second_order": search.second_order,
    }
