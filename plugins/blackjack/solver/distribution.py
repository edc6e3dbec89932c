"""The exact distribution of one round's net result under a fixed chart, hence its SD.

For a chart (basic strategy or a chart file) and a rule set, every net result of a round
from a full shoe (in units of the initial bet: -1, +1.5 for a 3:2 natural, -0.5 for a
surrender, up to +-8 with four split hands all doubled) with its probability. The mean is
the chart's exact EV (what :class:`~.analysis.ChartPlayer` computes); the SD is the exact
SD of one round, what a simulator's SD should converge to.

How: the same composition-dependent recursion as the EV, carrying for each hand a joint
table (dealer outcome ``o`` x hand net ``-2..+2``) instead of one value; a busted hand's
row is the dealer's distribution from that hand's shoe too. Unsplit hands are exact. A
split uses the EV's own post-split model and walk (:mod:`.split`: each split hand played
from its own cards, unseen removals handled by exchangeability); the tables are linear in
the hands' values, so they follow the EV's recursion exactly. Within one pattern of the
walk every hand knows the same cards, so their dealer marginals agree, and the hands are
combined as independent *given the dealer's final outcome*: exact in an infinite deck
(every card independent); in a finite shoe it leaves out the small dependence between
split hands through the cards they draw (it changes the SD only). The mean equals the
solver's EV of the chart to rounding (about 1e-16), splits included.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs
import numpy as np
import numpy.typing as npt

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import dealer
from croupier.plugins.blackjack.solver.analysis import (
    ChartPlayer,
    UpcardSolver,
    check_rules,
    effective_objective,
    is_natural,
    two_card_hand,
)
from croupier.plugins.blackjack.solver.cards import ACE
from croupier.plugins.blackjack.solver.chart import Chart
from croupier.plugins.blackjack.solver.hand import Hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.split import SplitShoes

FloatArray = npt.NDArray[np.float64]
OUTCOMES = 7  # the dealer's outcomes (dealer.OUTCOMES)
NETS = 5  # one hand's net: -2, -1, 0, +1, +2 (column = net + 2)
ZERO_DIST = np.zeros(OUTCOMES)


@attrs.frozen
class RoundDistribution:
    """Net results of one round (units of the initial bet) and their probabilities."""

    outcomes: dict[float, float]

    @property
    def mean(self) -> float:
        return math.fsum(x * p for x, p in self.outcomes.items())

    @property
    def variance(self) -> float:
        mean = self.mean
        return math.fsum(p * (x - mean) ** 2 for x, p in self.outcomes.items())

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def total(self) -> float:
        return math.fsum(self.outcomes.values())


def _key(net: float) -> float:
    return round(net, 9) + 0.0  # one key per result (no -0.0)


def _add(into: dict[float, float], net: float, p: float) -> None:
    if p != 0.0:
        key = _key(net)
        into[key] = into.get(key, 0.0) + p


def _doubled(joint: FloatArray) -> FloatArray:
    """A hand's table with its bet doubled: -1 becomes -2, +1 becomes +2."""
    out = np.zeros_like(joint)
    out[:, 0] = joint[:, 1]
    out[:, 2] = joint[:, 2]
    out[:, 4] = joint[:, 3]
    return out


class _UpcardRounds:
    """The round's results against one upcard, in two passes: the first collects the
    shoes whose dealer distributions are needed, which are then made in one batch
    (:func:`dealer.distributions`), the second computes with them."""

    def __init__(self, chart: Chart, solver: UpcardSolver) -> None:
        self.chart = chart
        self.solver = solver
        self.rules = solver.rules
        self.upcard = solver.upcard
        self.ties_lose = solver.objective == "ev-ties-lose"
        self.collecting = True
        self.wanted: set[tuple[float, ...]] = set()
        self.dists: dict[tuple[float, ...], FloatArray] = {}
        self._memo: dict[tuple[int, object], FloatArray] = {}
        rows = self.chart.soft, self.chart.hard
        self._hits = {
            (soft, t): letter in ("H", "Dh", "Rh", "P", "Ph", "Rp")
            for soft, table in zip((True, False), rows, strict=True)
            for t, row in table.items()
            for letter in [row[self.upcard]]
        }

    # -- the dealer -----------------------------------------------------------------

    def dealer(self, ev: Evaluator, hand: Hand) -> FloatArray:
        if not ev.finite:
            return np.array(ev.dealer_dist(hand))
        shoe = ev.shoe_after(hand)
        if self.collecting:
            self.wanted.add(shoe)
            return ZERO_DIST
        return self.dists[shoe]

    def make_dists(self) -> None:
        self.collecting = False
        self._memo.clear()
        if not self.wanted:
            return
        shoes = sorted(self.wanted)
        mode = self.solver.main.mode
        table = dealer.distributions(
            self.upcard, self.rules.hits_soft_17, mode, np.array(shoes, dtype=np.float64)
        )
        self.dists = {s: table[i] for i, s in enumerate(shoes)}

    # -- one hand ---------------------------------------------------------------------

    def stand(self, ev: Evaluator, hand: Hand) -> FloatArray:
        """(dealer outcome, net) of standing; a busted hand loses whatever the dealer has."""
        joint = np.zeros((OUTCOMES, NETS))
        dist = self.dealer(ev, hand)
        if hand.hard > 21:
            joint[:, 1] = dist
            return joint
        player = hand.total
        for o in range(OUTCOMES):
            if o == dealer.BUST:
                net = 1
            elif o == dealer.BLACKJACK:
                net = -1
            elif player > 17 + o:
                net = 1
            elif player == 17 + o:
                net = -1 if self.ties_lose else 0
            else:
                net = -1
            joint[o, net + 2] = dist[o]
        return joint

    def play_on(self, ev: Evaluator, hand: Hand) -> FloatArray:
        """A hand that hits or stands as the chart's rows say (a 21 stands)."""
        if hand.hard > 21 or hand.total >= 21 or not self._hits[(hand.soft, hand.total)]:
            return self.stand(ev, hand)
        return self.hit(ev, hand)

    def hit(self, ev: Evaluator, hand: Hand) -> FloatArray:
        key = (id(ev), hand.key)
        found = self._memo.get(key)
        if found is None:
            found = sum(
                (p * self.play_on(ev, hand.add(r)) for p, r in ev.draws(hand)),
                np.zeros((OUTCOMES, NETS)),
            )
            self._memo[key] = found
        return found

    def double(self, ev: Evaluator, hand: Hand) -> FloatArray:
        one = sum(
            (p * self.stand(ev, hand.add(r)) for p, r in ev.draws(hand)),
            np.zeros((OUTCOMES, NETS)),
        )
        return _doubled(one)

    def act(self, ev: Evaluator, hand: Hand, action: str) -> FloatArray:
        if action == "stand":
            return self.stand(ev, hand)
        if action == "hit":
            return self.hit(ev, hand)
        return self.double(ev, hand)

    # -- splits -------------------------------------------------------------------------

    def split_hand(self, ev: Evaluator, hand: Hand, rank: int) -> FloatArray:
        """A split hand's table, played as :meth:`ChartPlayer.play_split_hand` plays it."""
        if rank == ACE and not self.rules.hit_split_aces:
            return self.stand(ev, hand)
        second = hand.hard - (rank + 1) - 1
        legal = ["stand", "hit"]
        if ev.can_double(hand, after_split=True):
            legal.append("double")
        return self.act(ev, hand, self.chart.decide_ranks([rank, second], self.upcard, legal))

    def split(self, shoes: SplitShoes) -> dict[float, float]:
        """The round's results after splitting (the dealer's blackjack included)."""
        rank = shoes.rank
        base_x: dict[int, FloatArray] = {}
        base_n: dict[int, FloatArray] = {}

        def base(a: int) -> None:
            ev = shoes.context(a)
            start = shoes.first_card()
            every = np.zeros((OUTCOMES, NETS))
            other = np.zeros((OUTCOMES, NETS))
            p_other = 0.0
            for p, r in ev.draws(start):
                joint = self.split_hand(ev, start.add(r), rank)
                every += p * joint
                if r != rank:
                    other += p * joint
                    p_other += p
            base_x[a] = every
            base_n[a] = other / p_other if p_other > 0 else other

        memo_x: dict[tuple[int, int], FloatArray] = {}
        memo_n: dict[tuple[int, int], FloatArray] = {}

        def value(a: int, b: int, own: bool) -> FloatArray:
            memo, bases = (memo_n, base_n) if own else (memo_x, base_x)
            found = memo.get((a, b))
            if found is not None:
                return found
            if b == 0:
                a = a if shoes.finite else 0
                if a not in bases:
                    base(a)
                found = bases[a]
            else:
                v = shoes.p_pair(a, b - 1, own_card=own)
                found = value(a, b - 1, own)
                if v > 0:
                    found = (found - v * value(a + 1, b - 1, own)) / (1 - v)
            memo[(a, b)] = found
            return found

        # the walk of split.split_value: each terminal pattern as a list of hand tables
        limit = shoes.limit
        patterns: list[tuple[float, list[FloatArray]]] = []
        states = {(2, 2, 0, 0): 1.0}
        while states:
            following: dict[tuple[int, int, int, int], float] = {}
            for (hands, waiting, pairs, others), prob in states.items():
                if hands == limit:
                    done = others
                    tables = [value(limit - 2, done - 1, True)] * done if done else []
                    tables += [value(limit - 2, done, False)] * (limit - done)
                    patterns.append((prob, tables))
                    continue
                if waiting == 0:
                    patterns.append((prob, [value(hands - 2, hands - 1, True)] * hands))
                    continue
                v = shoes.p_pair(pairs, others)
                if v > 0:
                    key = (hands + 1, waiting + 1, pairs + 1, others)
                    following[key] = following.get(key, 0.0) + prob * v
                if v < 1:
                    key = (hands, waiting - 1, pairs, others + 1)
                    following[key] = following.get(key, 0.0) + prob * (1 - v)
            states = following
        # independent given the dealer's outcome: every hand of a pattern knows the same
        # cards (pair cards out, non-pair cards out), so their dealer marginals agree
        out: dict[float, float] = {}
        for prob, tables in patterns:
            outer = sum(joint.sum(axis=1) for joint in tables) / len(tables)
            for o in range(OUTCOMES):
                if outer[o] <= 0.0:
                    continue
                conv = np.ones(1)
                for joint in tables:
                    row = joint[o]
                    size = row.sum()
                    if size <= 0.0:
                        row = joint.sum(axis=0)
                        size = row.sum()
                    conv = np.convolve(conv, row / size)
                low = -2 * len(tables)
                for i, q in enumerate(conv):
                    _add(out, low + i, prob * outer[o] * q)
            # the dealer's blackjack, peeked before the split (none without the peek)
            _add(out, -1.0, prob * max(0.0, 1.0 - float(outer.sum())))
        return out

    # -- the round ----------------------------------------------------------------------

    def rounds(self) -> dict[float, float]:
        """P(this upcard and the round's net result), over every two-card hand."""
        solver = self.solver
        ev = solver.main
        out: dict[float, float] = {}
        for c1, c2, p in solver.hands():
            hand = two_card_hand(c1, c2, ev.finite)
            p_bj = ev.p_blackjack(hand) if ev.mode == "peek" else 0.0
            if solver.objective == "ev" and is_natural(c1, c2):
                p_push = ev.p_blackjack(hand)
                _add(out, float(self.rules.blackjack_pays), p * (1.0 - p_push))
                _add(out, 0.0, p * p_push)
                continue
            legal = ["stand"]
            if hand.total < 21:
                legal.append("hit")
            if ev.can_double(hand):
                legal.append("double")
            if ev.can_surrender():
                legal.append("surrender")
            if c1 == c2 and c1 in solver.splits:
                legal.append("split")
            action = self.chart.decide_ranks([c1, c2], self.upcard, legal)
            if action == "surrender":
                if ev.mode == "peek" and self.rules.surrender != "early":
                    _add(out, -0.5, p * ev.mass(hand))
                    _add(out, -1.0, p * p_bj)
                else:
                    _add(out, -0.5, p)
                continue
            if action == "split":
                for net, q in self.split(solver.splits[c1]).items():
                    _add(out, net, p * q)
                continue
            nets = self.act(ev, hand, action).sum(axis=0)
            for i, q in enumerate(nets):
                _add(out, i - 2, p * q)
            _add(out, -1.0, p * p_bj)
        return out


def round_distribution(
    rules: BlackjackRules, chart: Chart, on_upcard: Callable[[int], None] | None = None
) -> RoundDistribution:
    """The distribution of one round's net result playing ``chart`` from a full shoe
    (infinite deck when ``rules.decks`` is None); see the module docstring."""
    check_rules(rules)
    objective = effective_objective(rules, "ev")
    out: dict[float, float] = {}
    for u in range(10):
        rounds = _UpcardRounds(chart, UpcardSolver(rules, u, objective, precompute_all=False))
        rounds.rounds()
        rounds.make_dists()
        for net, p in rounds.rounds().items():
            _add(out, net, p)
        if on_upcard is not None:
            on_upcard(u)
    return RoundDistribution(dict(sorted((k, v) for k, v in out.items() if v > 0.0)))


def chart_ev(rules: BlackjackRules, chart: Chart) -> float:
    """The exact EV of one round playing ``chart`` from a full shoe (the solver's value,
    ``-edge_td`` for the basic chart)."""
    check_rules(rules)
    objective = effective_objective(rules, "ev")
    return math.fsum(
        ChartPlayer(chart, UpcardSolver(rules, u, objective)).round_total() for u in range(10)
    )
