"""CDPN: every split hand played at its best for what its term of the split walk tells.

The split walk (:mod:`.split`) values a split as a sum of hand terms ``X(a, b)`` and
``N(a, b)``: one split hand when ``a`` further pair cards (beyond the two split) and ``b``
non-pair cards have left the shoe unseen, its second card unconditioned (``X``) or known
not to be a pair card (``N``). ``2 + a`` is how many hands the split made (the limit at
most) and ``b`` how many of the *other* hands took a non-pair second card while the split
could still grow: the player of a CDPN hand knows its own cards, how many hands the split
made and how many non-pair cards the others took (E. Farmer's CDPN; CDP knows ``a`` only,
and takes its decisions as if ``b`` were 0).

Each term is a decision problem of its own (a hand's value depends only on its own play:
the other hands' cards are unseen removals), so its best play is found term by term:

* Removing one unseen uniformly random card changes the expectation of nothing that is
  decided afterwards, so for any play ``V(a, b-1) = v V(a+1, b-1) + (1 - v) V(a, b)``.
  Unrolled, ``V(a, b) = sum_j c_j V(a+j, 0)``: a fixed linear combination (coefficients
  from the shoe's counts only) of values in the plain shoes minus ``2 + a + j`` pair
  cards. The identity holds for every *joint* quantity too: E[1{the hand draws these cards}
  x its result] in the mixture is the same combination of those in the plain shoes.
* So a composition-dependent dynamic programme over the hand's compositions, carrying
  for each plain shoe ``j`` the weight ``c_j`` x P(this sequence of cards in shoe ``j``),
  gives the term's optimum exactly: at each composition the best of standing
  (``sum_j w_j stand_j``), hitting (the sum of its children's optima) and, on two cards,
  doubling. The weight of a composition does not depend on the order of its cards (a
  sequence without replacement has the probability of its multiset; an ``N`` hand's second
  card is one of ``b + 1`` exchangeable non-pair cards), so memoising by composition is
  exact.

Each term's optimum is over every composition-dependent play, the fixed post-split
strategies (CDZ-, CDP1, CDP) among them: CDPN >= each of them, term by term. In an
infinite deck removals change nothing and CDPN is CDP1 (the optimal play of one split
hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from croupier.plugins.blackjack.solver import cdpn_loop, recursion, split_loop
from croupier.plugins.blackjack.solver.cards import ACE, TEN, Shoe
from croupier.plugins.blackjack.solver.hand import RANK_CODES, Hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.stand import in_chips

if TYPE_CHECKING:
    from croupier.plugins.blackjack.solver.split import SplitShoes

# per plain shoe j with a weight: (c_j x P(the hand's cards in that shoe), the shoe left,
# its size, its evaluator)
Live = list[tuple[float, Shoe, float, Evaluator]]


class OptimalTerms:
    """The best value of each split-hand term ``X(a, b)`` / ``N(a, b)`` of one split
    (finite shoe), each computed once."""

    def __init__(self, shoes: SplitShoes, das: bool = True) -> None:
        self.shoes = shoes
        self.das = das
        self._coefficients: dict[tuple[int, int, bool], dict[int, float]] = {}
        self._values: dict[tuple[int, int, bool], float] = {}

    def x_value(self, a: int, b: int) -> float:
        return self._term(a, b, False)

    def n_value(self, a: int, b: int) -> float:
        return self._term(a, b, True)

    def coefficients(self, a: int, b: int, own: bool) -> dict[int, float]:
        """``{j: c_j}`` with ``V(a, b) = sum_j c_j V(a + j, 0)`` for any fixed play;
        ``own``: the hand's own second card is a known non-pair card (an ``N`` term)."""
        key = (a, b, own)
        found = self._coefficients.get(key)
        if found is not None:
            return found
        if b == 0:
            found = {0: 1.0}
        else:
            v = self.shoes.p_pair(a, b - 1, own_card=own)
            found = {j: c / (1 - v) for j, c in self.coefficients(a, b - 1, own).items()}
            if v > 0:
                for j, c in self.coefficients(a + 1, b - 1, own).items():
                    found[j + 1] = found.get(j + 1, 0.0) - v * c / (1 - v)
        self._coefficients[key] = found
        return found

    def _term(self, a: int, b: int, own: bool) -> float:
        key = (a, b, own)
        found = self._values.get(key)
        if found is None:
            found = _TermProblem(self.shoes, a, self.coefficients(a, b, own), own, self.das).value()
            self._values[key] = found
        return found


class _TermProblem:
    """One term's best play: the dynamic programme over the hand's compositions."""

    def __init__(
        self, shoes: SplitShoes, a: int, coefficients: dict[int, float], own: bool, das: bool
    ) -> None:
        self.shoes = shoes
        self.evs: list[Evaluator] = [shoes.context(a + j) for j in coefficients]
        self.coefficients = list(coefficients.values())
        self.own = own
        self.das = das
        self.stand_only = shoes.rank == ACE and not shoes.rules.hit_split_aces
        up = shoes.upcard
        peek = self.evs[0].mode == "peek" and up in (ACE, TEN)
        self.hole = (TEN if up == ACE else ACE) if peek else None  # the peek's blackjack card
        self._memo: dict[int, float] = {}

    def value(self) -> float:
        """The term: the second card (a non-pair card for ``N``), then the best play
        (compiled when every plain shoe's stand rows are the split's shared ones)."""
        start = self.shoes.first_card()
        first = self.evs[0]
        if all(ev._shoe[0] is first._shoe[0] for ev in self.evs):
            lefts, stand_rows, known, slot_of, _ = first._shoe
            rules = self.shoes.rules
            allowed = self.das and in_chips(first.objective) and rules.double_after_split
            return float(
                cdpn_loop.term_value(
                    recursion.INDEX[start.code],
                    self.shoes.rank,
                    recursion.TABLES,
                    first._flat,
                    lefts,
                    stand_rows,
                    known,
                    slot_of,
                    np.array([ev._shoe[4] for ev in self.evs], dtype=np.int64),
                    np.array(self.coefficients, dtype=np.float64),
                    self.own,
                    first._objective_code,
                    first._hole_code,
                    self.stand_only,
                    split_loop.doubling_code(allowed, rules.double),
                )
            )
        return self.value_in_python()

    def value_in_python(self) -> float:
        """:meth:`value` by the plain-Python recursion (shoes with rows of their own)."""
        start = self.shoes.first_card()
        rank = self.shoes.rank
        rows = []
        for ev in self.evs:
            row = [0.0] * 10
            for p, r in ev.draws(start):
                row[r] = p
            if self.own:
                other = sum(p for r, p in enumerate(row) if r != rank)
                row = [0.0 if r == rank or other <= 0 else p / other for r, p in enumerate(row)]
            rows.append(row)
        total = 0.0
        for r in range(10):
            hand = start.add(r)
            live = []
            for c, row, ev in zip(self.coefficients, rows, self.evs, strict=True):
                if c and row[r]:
                    left = ev.shoe_after(hand)
                    live.append((c * row[r], left, sum(left), ev))
            if live:
                total += self._two_cards(hand, live)
        return total

    def _two_cards(self, hand: Hand, live: Live) -> float:
        stand = self._stand(hand, live)
        if self.stand_only or hand.total >= 21:
            return stand  # split aces take one card; a 21 stands
        best = max(stand, self._hit(hand, live))
        if self.das and self.evs[0].can_double(hand, after_split=True):
            best = max(best, self._double(hand, live))
        return best

    @staticmethod
    def _stand(hand: Hand, live: Live) -> float:
        return sum(w * ev.stand(hand) for w, _, _, ev in live)

    @staticmethod
    def _draw(r: int, live: Live) -> Live:
        """The shoes after drawing rank ``r``, weighed by its probability in each."""
        return [
            (w * left[r] / size, (*left[:r], left[r] - 1, *left[r + 1 :]), size - 1, ev)
            for w, left, size, ev in live
            if left[r] > 0
        ]

    def _busts(self, hand: Hand, live: Live) -> float:
        """Every card that busts the hand: the bet lost, when the dealer has no blackjack
        under the peek (the values' units, see hands.py), weighed over the shoes."""
        low = 21 - hand.hard  # rank indices from here on bust (a card's value is r + 1)
        if low > 9:
            return 0.0
        hole = self.hole
        total = 0.0
        for w, left, size, _ in live:
            busting = sum(left[low:])
            if not busting:
                continue
            if hole is None:
                total -= w * busting / size
            else:  # P(no blackjack) after the card: the hole card's share of the rest
                holes = left[hole]
                kept = busting * (size - 1 - holes) + (holes if hole >= low else 0)
                total -= w * kept / (size * (size - 1))
        return total

    def _hit(self, hand: Hand, live: Live) -> float:
        total = self._busts(hand, live)
        memo = self._memo
        for r in range(min(10, 21 - hand.hard)):
            found = memo.get(hand.code + RANK_CODES[r])
            if found is None:
                child = self._draw(r, live)
                if child:
                    total += self._play_on(hand.add(r), child)
            else:
                total += found
        return total

    def _double(self, hand: Hand, live: Live) -> float:
        total = self._busts(hand, live)
        for r in range(min(10, 21 - hand.hard)):
            child = self._draw(r, live)
            if child:
                total += self._stand(hand.add(r), child)
        return 2.0 * total

    def _play_on(self, hand: Hand, live: Live) -> float:
        """The best of standing and hitting on (three cards or more: no double)."""
        found = self._memo.get(hand.code)
        if found is None:
            found = self._stand(hand, live)
            if hand.total < 21:
                found = max(found, self._hit(hand, live))
            self._memo[hand.code] = found
        return found
