"""Exact index generation: the true count at which each decision's better play changes.

For each true-count reading ``i`` the mean shoe left (:mod:`.count_shoes`) is solved
exactly, composition-dependently, against each upcard (:class:`.analysis.UpcardSolver` on
that shoe), and each decision's *gain* is the EV of taking it minus the EV of the best
alternative, for the decision's row as the chart plays it: the two-card hands of that
total weighted by their probability in that shoe (pairs only where a row has no other
hand), every later card played optimally for that shoe, EVs conditioned on no dealer
blackjack under the peek. Decisions:

* ``stand`` on hard 12..17: stand against hit;
* ``double`` on hard 8..11 and soft 13..20 (as the rules allow): double against the
  better of hit and stand;
* ``split`` of each pair: split against the best of hit, stand and double;
* ``surrender`` on hard 12..17: surrender against the best of the rest;
* ``insurance`` against an ace: ``3 P(ten in the hole) - 1`` per unit insured (exact for
  any hand, on average over the player's cards, by exchangeability).

The gain is close to linear in the count. Readings 0 and +4 are solved first for every
upcard, the crossing of each decision is estimated from them, then neighbouring readings
are solved until the gain changes sign between two consecutive readings ``i`` and ``i+1``.
The index is the reading from which the decision is taken: ``i + 1`` with direction ``+``
when the gain rises through zero, ``i`` with direction ``-`` when it falls. Because each
reading's shoe is the mean over every shoe that reads it, the index fits the system's own
rounding (floored, truncated, rounded): no half-unit correction is needed. ``crossing`` is
the zero of the gain interpolated linearly between the two readings' mean exact true
counts. A decision whose gain keeps its sign over every reading of probability at least
``min_probability`` whose mean shoe holds at least two cards of every rank (a shoe more
depleted is no mean worth solving) has no index (listed as unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from croupier.engine import BlackjackRules, CroupierError
from croupier.engine.counts import CountSystem
from croupier.engine.indices import IndexEntry
from croupier.plugins.blackjack_solver.analysis import (
    UpcardSolver,
    check_rules,
    is_natural,
    two_card_hand,
)
from croupier.plugins.blackjack_solver.cards import ACE, TEN
from croupier.plugins.blackjack_solver.count_shoes import CountShoe, count_shoes

UPCARD_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
START = (0, 4)  # readings solved first for every upcard
MIN_CARDS = 2.0  # a reading is searched when its mean shoe holds this many of every rank


@attrs.frozen
class Decision:
    """One decision: ``kind`` on ``hand`` (``16``, ``s18``, ``TT``, ``any``) against
    ``upcard`` (rank index, 0 an ace)."""

    kind: str
    hand: str
    upcard: int

    @property
    def label(self) -> str:
        return f"{self.kind} {self.hand} v {UPCARD_LABELS[self.upcard]}"


def catalogue(rules: BlackjackRules) -> list[Decision]:
    """Every decision the rules allow (see the module docstring)."""
    out: list[Decision] = []
    for u in range(10):
        out += [Decision("stand", str(t), u) for t in range(12, 18)]
        if rules.double != "none":
            low = {"any": 8, "9-11": 9, "10-11": 10}.get(rules.double, 8)
            out += [Decision("double", str(t), u) for t in range(low, 12)]
            if rules.double == "any":
                out += [Decision("double", f"s{t}", u) for t in range(13, 21)]
        if rules.max_split_hands >= 2:
            out += [Decision("split", UPCARD_LABELS[r] * 2, u) for r in range(10)]
        if rules.surrender != "none":
            out += [Decision("surrender", str(t), u) for t in range(12, 18)]
    if rules.insurance:
        out.append(Decision("insurance", "any", ACE))
    return out


def upcard_gains(
    rules: BlackjackRules,
    shoe: tuple[float, ...],
    upcard: int,
    wanted: Iterable[Decision],
    per_round: bool = False,
) -> dict[Decision, float]:
    """Each wanted decision's gain against ``upcard`` from ``shoe`` (module docstring):
    per hand of the row (conditioned on no dealer blackjack under the peek), or with
    ``per_round`` its contribution to a round's EV (times P(the row and this upcard)), the
    quantity that averages over shoes."""
    wanted = [d for d in wanted if d.upcard == upcard]
    out: dict[Decision, float] = {}
    if any(d.kind == "insurance" for d in wanted):
        tens, size = shoe[TEN], sum(shoe) - 1  # the ace upcard is out
        p_ace = shoe[ACE] / sum(shoe) if per_round else 1.0
        out[Decision("insurance", "any", ACE)] = p_ace * (3 * tens / size - 1)
    rows_wanted = {d.hand for d in wanted if d.kind != "insurance"}
    if not rows_wanted:
        return out
    splits = {d.hand for d in wanted if d.kind == "split"}
    solver = UpcardSolver(rules, upcard, "ev", shoe=shoe)
    ev = solver.main
    rows: dict[str, list[tuple[float, float, dict[str, float], bool]]] = {}
    for c1, c2, p in solver.hands():
        if is_natural(c1, c2):
            continue
        hand = two_card_hand(c1, c2, True)
        pair = c1 == c2
        row = str(hand.total) if not hand.soft else f"s{hand.total}"
        pair_row = UPCARD_LABELS[c1] * 2 if pair else None
        if row not in rows_wanted and pair_row not in rows_wanted:
            continue
        values = {"stand": ev.stand(hand)}
        if hand.total < 21:
            values["hit"] = ev.hit(hand)
        if ev.can_double(hand):
            values["double"] = ev.double(hand)
        if ev.can_surrender():
            values["surrender"] = ev.surrender(hand)
        member = (p, p * ev.mass(hand), values, pair)
        rows.setdefault(row, []).append(member)
        if pair_row is not None:
            if pair_row in splits and c1 in solver.splits:
                values = {**values, "split": solver.split(c1)}
            rows.setdefault(pair_row, []).append((p, p * ev.mass(hand), values, False))
    for decision in wanted:
        if decision.kind == "insurance":
            continue
        members = rows.get(decision.hand, [])
        chosen = [m for m in members if not m[3]] or members
        agg: dict[str, float] = {}
        for p, _, values, _ in chosen:
            for k, v in values.items():
                agg[k] = agg.get(k, 0.0) + p * v
        if decision.kind not in agg:
            continue  # not playable here (no such hand, or the rules forbid it)
        weight = 1.0 if per_round else sum(m[1] for m in chosen)
        others = {"stand": ("hit",), "double": ("hit", "stand")}.get(
            decision.kind, ("hit", "stand", "double")
        )
        rest = max(agg[k] for k in others if k in agg)
        out[decision] = (agg[decision.kind] - rest) / weight
    return out


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
    """The gains at each (reading, upcard), solved once, and each decision's bracket."""

    def __init__(
        self,
        rules: BlackjackRules,
        shoes: dict[int, CountShoe],
        decisions: list[Decision],
        min_probability: float = 1e-4,
        on_solve: Callable[[int, int], None] | None = None,
    ) -> None:
        self.rules = rules
        self.shoes = shoes
        self.decisions = decisions
        self.readings = sorted(
            i
            for i, s in shoes.items()
            if s.probability >= min_probability and min(s.shoe) >= MIN_CARDS
        )
        if len(self.readings) < 2:
            raise CroupierError("fewer than two true counts are likely enough to compare")
        self._gains: dict[tuple[int, int], dict[Decision, float]] = {}
        self.on_solve = on_solve
        self.solves = 0

    def gains(self, reading: int, upcard: int) -> dict[Decision, float]:
        key = (reading, upcard)
        if key not in self._gains:
            mine = [d for d in self.decisions if d.upcard == upcard]
            shoe = self.shoes[reading].shoe
            self._gains[key] = upcard_gains(self.rules, shoe, upcard, mine)
            self.solves += 1
            if self.on_solve is not None:
                self.on_solve(reading, upcard)
        return self._gains[key]

    def gain(self, reading: int, decision: Decision) -> float | None:
        return self.gains(reading, decision.upcard).get(decision)

    def find(self, decision: Decision) -> Found | None:
        """The decision's bracket and index (None: it never arises under these rules).

        Readings are searched in order among the usable ones (a small shoe never reads
        some counts: one deck floored never reads -1), so a bracket is two neighbours."""
        readings = self.readings
        a, b = (min(readings, key=lambda r: (abs(r - x), r)) for x in START)
        ga, gb = self.gain(a, decision), self.gain(b, decision)
        if ga is None or gb is None:
            return None
        seen: dict[int, float] = {a: ga, b: gb}
        slope = (gb - ga) / (b - a) if b != a else 0.0
        guess = a - ga / slope if slope else float(readings[0] if ga > 0 else readings[-1])
        k = sum(1 for r in readings if r <= guess) - 1
        k = min(max(k, 0), len(readings) - 2)
        for _ in range(len(readings)):
            i, j = readings[k], readings[k + 1]
            lo = seen[i] if i in seen else self.gain(i, decision)
            hi = seen[j] if j in seen else self.gain(j, decision)
            if lo is None or hi is None:
                break  # the hand cannot be dealt from so depleted a shoe: searched no further
            seen[i], seen[j] = lo, hi
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


def generate(
    rules: BlackjackRules,
    system: CountSystem,
    decisions: list[Decision] | None = None,
    *,
    rounding: str | None = None,
    min_probability: float = 1e-4,
    on_solve: Callable[[int, int], None] | None = None,
) -> tuple[list[Found], IndexSearch]:
    """Every decision's index for ``system`` under ``rules`` (a finite shoe, its
    penetration's depths weighted uniformly)."""
    check_rules(rules)
    if rules.decks is None:
        raise CroupierError(
            "indices need a finite shoe (a count means nothing in an infinite deck)"
        )
    if rules.betting != "casino":
        raise CroupierError("indices are generated for the casino betting")
    shoes = count_shoes(system, rules.decks, penetration=rules.penetration, rounding=rounding)
    search = IndexSearch(rules, shoes, decisions or catalogue(rules), min_probability, on_solve)
    found = [f for d in search.decisions if (f := search.find(d)) is not None]
    return found, search


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


INDEX_KEYS = ("count", "decisions", "rounding", "min_probability")


def solve_indices(rules: BlackjackRules, spec: Any) -> dict[str, Any]:
    """The ``indices`` problem: ``count`` (a count system as plain data), optional
    ``decisions`` (``"stand 16 T"`` strings; default every decision), ``rounding`` (the
    count's by default) and ``min_probability`` of the readings searched."""
    if not isinstance(spec, dict) or "count" not in spec:
        raise CroupierError("'indices' is an object with the count system as 'count'")
    unknown = set(spec) - set(INDEX_KEYS)
    if unknown:
        raise CroupierError(f"unknown indices key(s): {', '.join(sorted(unknown))}")
    system = CountSystem.from_dict(spec["count"])
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
        rules, system, decisions, min_probability=float(spec.get("min_probability", 1e-4))
    )
    return solution(found, search, system)
