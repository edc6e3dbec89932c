"""Each decision's gain at a shoe: the EV of taking it minus the best alternative's.

The per-shoe half of index generation (:mod:`.count_indices` searches the true counts):
the decisions the rules allow (:func:`catalogue`), their gains against one upcard from one
shoe, exact and composition-dependent (:func:`upcard_gains`), and the hands of three or
more cards a stand decision's row holds (:func:`later_hands`). What a gain is, decision
by decision, is in :mod:`.count_indices`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
import numpy as np

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import UpcardSolver, is_natural, two_card_hand
from croupier.plugins.blackjack.solver.cards import ACE, TEN
from croupier.plugins.blackjack.solver.hand import Hand

UPCARD_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
ROWS = ("two-card", "all")
Member = tuple[float, float, dict[str, float], bool]  # P, P * mass, values, a pair


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
    rows: str = "all",
) -> dict[Decision, float]:
    """Each wanted decision's gain against ``upcard`` from ``shoe`` (module docstring):
    per hand of the row (conditioned on no dealer blackjack under the peek), or with
    ``per_round`` its contribution to a round's EV (times P(the row and this upcard)), the
    quantity that averages over shoes. ``rows="all"`` (the default): a stand decision's row
    also holds the hands of three or more cards of its total (:func:`later_hands`), as an
    index table is played; ``"two-card"``: the chart's rows, two-card hands only."""
    parts = gain_parts(rules, shoe, upcard, wanted, rows)
    return {d: gain if per_round else gain / weight for d, (gain, weight) in parts.items()}


def gain_parts(
    rules: BlackjackRules,
    shoe: tuple[float, ...],
    upcard: int,
    wanted: Iterable[Decision],
    rows: str = "all",
) -> dict[Decision, tuple[float, float]]:
    """``(gain per round, weight)`` of each wanted decision: the gain's contribution to a
    round's EV and the chance of its row against this upcard (times P(no dealer blackjack)
    under the peek), whose ratio is the gain per hand of the row. Both average over shoes."""
    if rows not in ROWS:
        raise CroupierError(f"rows are {' or '.join(ROWS)}, not {rows!r}")
    wanted = [d for d in wanted if d.upcard == upcard]
    out: dict[Decision, tuple[float, float]] = {}
    if any(d.kind == "insurance" for d in wanted):
        tens, size = shoe[TEN], sum(shoe) - 1  # the ace upcard is out
        p_ace = shoe[ACE] / sum(shoe)
        out[Decision("insurance", "any", ACE)] = (p_ace * (3 * tens / size - 1), p_ace)
    rows_wanted = {d.hand for d in wanted if d.kind != "insurance"}
    if not rows_wanted:
        return out
    splits = {d.hand for d in wanted if d.kind == "split"}
    pair_ranks = {UPCARD_LABELS.index(hand[0]) for hand in splits}
    solver = UpcardSolver(rules, upcard, "ev", shoe=shoe, split_ranks=pair_ranks)
    ev = solver.main
    members: dict[str, list[Member]] = {}
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
        members.setdefault(row, []).append(member)
        if pair_row is not None:
            if pair_row in splits and c1 in solver.splits:
                values = {**values, "split": solver.split(c1)}
            members.setdefault(pair_row, []).append((p, p * ev.mass(hand), values, False))
    stands = {int(d.hand) for d in wanted if d.kind == "stand"}
    later = later_hands(solver, stands) if rows == "all" and stands else {}
    for decision in wanted:
        if decision.kind == "insurance":
            continue
        found = members.get(decision.hand, [])
        chosen = [m for m in found if not m[3]] or found
        if decision.kind == "stand":
            chosen = chosen + later.get(int(decision.hand), [])
        agg: dict[str, float] = {}
        for p, _, values, _ in chosen:
            for k, v in values.items():
                agg[k] = agg.get(k, 0.0) + p * v
        if decision.kind not in agg:
            continue  # not playable here (no such hand, or the rules forbid it)
        weight = sum(m[1] for m in chosen)
        others = {"stand": ("hit",), "double": ("hit", "stand")}.get(
            decision.kind, ("hit", "stand", "double")
        )
        rest = max(agg[k] for k in others if k in agg)
        out[decision] = (agg[decision.kind] - rest, weight)
    return out


def spread_gains(
    rules: BlackjackRules,
    shoe: tuple[float, ...],
    covariance: Sequence[Sequence[float]],
    upcard: int,
    wanted: Iterable[Decision],
    rows: str = "all",
    per_round: bool = False,
) -> dict[Decision, float]:
    """The gains averaged over the shoes a mean shoe stands for, to second order: each
    part (gain per round, weight) is ``f(mean) + sum_k [(f(mean + s_k) + f(mean - s_k)) / 2
    - f(mean)]`` over the covariance's principal axes ``s_k`` (one standard deviation each),
    which is ``E[f]`` exactly for any quadratic ``f``; then their ratio. An axis whose
    points would leave fewer than one card of a rank is shortened and its term scaled by
    ``(sd / length)^2``, as the quadratic term asks. ``per_round``: the gain per round
    (the first part alone), as :func:`upcard_gains`."""
    wanted = list(wanted)
    mean = np.array(shoe)
    centre = gain_parts(rules, shoe, upcard, wanted, rows)
    sums = {d: [g, w] for d, (g, w) in centre.items()}
    values, vectors = np.linalg.eigh(np.array(covariance))
    for value, vector in zip(values, vectors.T, strict=True):
        if value <= 1e-9:
            continue
        sd = float(np.sqrt(value))
        step = sd * vector
        lowest = float(np.min(np.minimum(mean + step, mean - step)))
        scale = 1.0
        if lowest < 1.0:  # shorten the axis to keep a card of every rank
            room = float(np.min(mean)) - 1.0
            scale = max(room, 0.0) / float(np.max(np.abs(step))) if room > 0 else 0.0
            if scale <= 0.0:
                continue
        plus = gain_parts(rules, tuple(mean + scale * step), upcard, wanted, rows)
        minus = gain_parts(rules, tuple(mean - scale * step), upcard, wanted, rows)
        for d, (g0, w0) in centre.items():
            if d not in plus or d not in minus:
                continue
            weight = 1.0 / scale**2
            sums[d][0] += weight * ((plus[d][0] + minus[d][0]) / 2 - g0)
            sums[d][1] += weight * ((plus[d][1] + minus[d][1]) / 2 - w0)
    return {d: g if per_round else g / w for d, (g, w) in sums.items() if w > 0}


def later_hands(solver: UpcardSolver, totals: set[int]) -> dict[int, list[Member]]:
    """Hard hands of three or more cards with a total in ``totals``, as the play reaches
    them: from every non-pair two-card hand whose best play is to hit, then hitting while
    hit beats stand, all optimal for this shoe; each composition once, with the chance of
    reaching it (orders merged), its stand and hit values. Split hands are left out."""
    ev = solver.main
    frontier: dict[int, tuple[Hand, float]] = {}
    for c1, c2, p in solver.hands():
        if c1 == c2 or is_natural(c1, c2):
            continue
        hand = two_card_hand(c1, c2, True)
        if hand.total >= 21 or ev.best_continuation(hand)[1] != "hit":
            continue
        options = [ev.stand(hand), ev.hit(hand)]
        if ev.can_double(hand):
            options.append(ev.double(hand))
        if ev.can_surrender():
            options.append(ev.surrender(hand))
        if max(options) == options[1]:
            frontier[hand.code] = (hand, p)
    out: dict[int, list[Member]] = {}
    while frontier:
        following: dict[int, tuple[Hand, float]] = {}
        for hand, p in frontier.values():
            for q, r in ev.draws(hand):
                child = hand.add(r)
                if child.hard > 21:
                    continue
                reach = p * q
                if not child.soft and child.total in totals:
                    values = {"stand": ev.stand(child), "hit": ev.hit(child)}
                    out.setdefault(child.total, []).append(
                        (reach, reach * ev.mass(child), values, False)
                    )
                if child.total < 21 and ev.best_continuation(child)[1] == "hit":
                    seen = following.get(child.code)
                    following[child.code] = (child, reach + (seen[1] if seen else 0.0))
        frontier = following
    return out
