"""The value of splitting a pair, resplits included: exact for a fixed post-split strategy.

A *post-split strategy* decides every split hand from that hand's own cards only (no
memory of the other split hands); the same strategy plays every split hand. For such a
strategy the split's EV is computed exactly in a finite shoe by the method of the
combinatorial analysers (E. Farmer's, also described by MGP): with ``x`` the pair card,

* ``X(a, b)``: the value of one split hand (an ``x`` plus an unconditioned second card)
  when ``a`` further pair cards and ``b`` non-pair cards have left the shoe unseen;
  ``N(a, b)`` the same for a hand whose second card is known not to be an ``x``.
* Removing one *unseen, uniformly random* card does not change a fixed strategy's value
  (exchangeability), so ``X(a, b-1) = v X(a+1, b-1) + (1 - v) X(a, b)`` with ``v`` the
  chance that card is an ``x``; the same holds for ``N``. Every value then comes from
  ``X(a, 0)`` and ``N(a, 0)``, which are plain hand values in the shoe minus ``2 + a``
  pair cards: one evaluator per ``a`` (at most ``2 (hands - 2)`` of them).
* The order in which the hands receive their cards does not change the expectation (a
  sequence of draws without replacement has a probability that depends only on its
  multiset), so the second cards can be resolved first: each draw is an ``x`` (a resplit
  while fewer than the allowed hands are in play) or not (that hand is complete). A walk
  over (hands, hands waiting for a card, pair and non-pair cards drawn) weighs every
  pattern of those draws exactly. When the hand limit is reached, the ``k`` completed
  hands are ``N(limit - 2, k - 1)`` hands and the ``limit - k`` waiting ones
  ``X(limit - 2, k)`` hands (any second card, an ``x`` making an unsplittable pair);
  when every hand completes with ``h`` hands below the limit, each is ``N(h - 2, h - 1)``.

In an infinite deck removals change nothing and the same walk gives the exact value.
CDPN (:mod:`.cdpn`) goes through the same walk with each term at its best play instead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import attrs

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import split_loop
from croupier.plugins.blackjack.solver.cards import ACE, Shoe
from croupier.plugins.blackjack.solver.cdpn import OptimalTerms
from croupier.plugins.blackjack.solver.hand import Hand
from croupier.plugins.blackjack.solver.hands import INFINITE_PROBS, Evaluator
from croupier.plugins.blackjack.solver.hit_rules import OptimalIn
from croupier.plugins.blackjack.solver.stand import Objective, in_chips
from croupier.plugins.blackjack.solver.stand_rows import StandRows

# play(evaluator, hand): the value of a two-card split hand in that evaluator's shoe
PostSplitPlay = Callable[[Evaluator, Hand], float]
# decide(split shoes) -> the post-split strategy's play for that pair
Strategy = Callable[["SplitShoes"], PostSplitPlay]


def split_limit(rank: int, max_split_hands: int, resplit_aces: bool) -> int:
    return 2 if rank == ACE and not resplit_aces else max_split_hands


class SplitShoes:
    """The shoes a split of ``rank`` against ``upcard`` is played from.

    ``context(a)`` is an :class:`Evaluator` for the shoe minus the upcard and ``2 + a``
    pair cards (one of them the hand's own first card), made when first asked for;
    ``memos`` lets post-split strategies cache their values per evaluator.
    """

    def __init__(
        self,
        rules: BlackjackRules,
        upcard: int,
        shoe: Shoe | None,
        rank: int,
        objective: Objective = "ev",
        stands: StandRows | None = None,
    ) -> None:
        self.rules = rules
        self.upcard = upcard
        self.shoe = shoe
        self.rank = rank
        self.objective: Objective = objective
        self.stands = stands if stands is not None else StandRows()
        self.limit = split_limit(rank, rules.max_split_hands, rules.resplit_aces)
        self._contexts: dict[int, Evaluator] = {}
        self.memos: dict[tuple[int, str], dict[object, float]] = {}
        self.pairs: float = 0  # a mean shoe's counts are fractional
        self.size: float = 0
        if shoe is not None:
            self.pairs = shoe[rank] - (upcard == rank) - 2  # pair cards left after the split
            self.size = sum(shoe) - 3

    @property
    def finite(self) -> bool:
        return self.shoe is not None

    def context(self, a: int) -> Evaluator:
        """The evaluator with ``a`` further pair cards out (any ``a`` for an infinite deck)."""
        if not self.finite:
            a = 0
        found = self._contexts.get(a)
        if found is None:
            extra = tuple(1 + a if r == self.rank else 0 for r in range(10))
            found = Evaluator(
                self.rules, self.upcard, self.shoe, self.objective, extra=extra, stands=self.stands
            )
            self._contexts[a] = found
        return found

    def first_card(self) -> Hand:
        counts = tuple(1 if r == self.rank else 0 for r in range(10)) if self.finite else None
        return Hand(self.rank + 1, self.rank == ACE, counts)

    def p_pair(self, pairs_out: int, others_out: int, own_card: bool = False) -> float:
        """P(the next card is a pair card) after ``pairs_out`` further pair cards and
        ``others_out`` other cards have left (and the hand's own non-pair card if
        ``own_card``)."""
        if not self.finite:
            return INFINITE_PROBS[self.rank]
        left = self.size - pairs_out - others_out - own_card
        pairs = self.pairs - pairs_out
        return pairs / left if left > 0 and pairs > 0 else 0.0


@attrs.frozen
class ByRemoval:
    """A post-split strategy whose play may depend on ``a``, the further pair cards the
    split took (``for_removal(shoes, a)``): the walk below values each terminal pattern's
    hands with the play of its own ``a`` (CDP)."""

    for_removal: Callable[[SplitShoes, int], PostSplitPlay]


@attrs.frozen
class ResplitAware:
    """CDPN: each split hand played at its best for its own cards, how many hands the split
    made and how many non-pair second cards the other hands took (see :mod:`.cdpn`);
    ``das=False`` never doubles after the split."""

    das: bool = True


def split_value(shoes: SplitShoes, strategy: Strategy | ByRemoval | ResplitAware) -> float:
    """The exact value of splitting (peek units, see hands.py) under a post-split strategy.

    A plain :data:`Strategy` plays every split hand alike; a :class:`ByRemoval` one plays
    the hands of a pattern that took ``a`` further pair cards by its play for ``a``. Each
    play is a fixed strategy, so the exchangeability identities hold for it: ``X`` and
    ``N`` are kept per play (``s``), each reduced to that play's values in the shoes with
    ``a' >= a`` pair cards out. :class:`ResplitAware` (CDPN) values each ``X(a, b)`` and
    ``N(a, b)`` by the best play for that term (:mod:`.cdpn`)."""
    if isinstance(strategy, ResplitAware):
        if shoes.finite:
            terms = OptimalTerms(shoes, strategy.das)
            return _walk(shoes, terms.x_value, terms.n_value)
        strategy = first_hand_strategy(strategy.das)  # one shoe: nothing more to know
    plays: dict[int, PostSplitPlay] = {}
    by_removal = strategy if isinstance(strategy, ByRemoval) else None
    fixed = strategy if not isinstance(strategy, ByRemoval) else None

    def play_for(s: int) -> PostSplitPlay:
        found = plays.get(s)
        if found is None:
            if by_removal is not None:
                found = by_removal.for_removal(shoes, s)
            else:
                assert fixed is not None
                found = fixed(shoes)
            plays[s] = found
        return found

    def key(a: int) -> int:
        return a if by_removal is not None else 0

    base_x: dict[tuple[int, int], float] = {}
    base_n: dict[tuple[int, int], float] = {}

    def base(a: int, s: int) -> None:
        ev = shoes.context(a)
        play = play_for(s)
        start = shoes.first_card()
        total, other, p_other = split_loop.second_card_sums(play, ev, start)
        base_x[a, s] = total
        base_n[a, s] = other / p_other if p_other > 0 else 0.0

    @cache
    def x_value(a: int, b: int, s: int) -> float:
        if b == 0:
            a = a if shoes.finite else 0  # an infinite deck has one shoe
            if (a, s) not in base_x:
                base(a, s)
            return base_x[a, s]
        v = shoes.p_pair(a, b - 1)
        value = x_value(a, b - 1, s)
        if v > 0:
            value -= v * x_value(a + 1, b - 1, s)
        return value / (1 - v)

    @cache
    def n_value(a: int, b: int, s: int) -> float:
        if b == 0:
            a = a if shoes.finite else 0  # an infinite deck has one shoe
            if (a, s) not in base_n:
                base(a, s)
            return base_n[a, s]
        v = shoes.p_pair(a, b - 1, own_card=True)
        value = n_value(a, b - 1, s)
        if v > 0:
            value -= v * n_value(a + 1, b - 1, s)
        return value / (1 - v)

    return _walk(shoes, lambda a, b: x_value(a, b, key(a)), lambda a, b: n_value(a, b, key(a)))


Term = Callable[[int, int], float]  # (a, b) -> the value of one split hand in that term


def _walk(shoes: SplitShoes, x_value: Term, n_value: Term) -> float:
    """The split's value from its hands' terms: every pattern of pair / non-pair second
    cards weighed exactly (see the module docstring)."""
    limit = shoes.limit
    total = 0.0
    # (hands, waiting for a second card, pair cards drawn, non-pair cards drawn) -> P
    states = {(2, 2, 0, 0): 1.0}
    while states:
        following: dict[tuple[int, int, int, int], float] = {}
        for (hands, waiting, pairs, others), prob in states.items():
            if hands == limit:
                done = others
                if done:
                    total += prob * done * n_value(limit - 2, done - 1)
                total += prob * (limit - done) * x_value(limit - 2, done)
                continue
            if waiting == 0:
                total += prob * hands * n_value(hands - 2, hands - 1)
                continue
            v = shoes.p_pair(pairs, others)
            if v > 0:
                k = (hands + 1, waiting + 1, pairs + 1, others)
                following[k] = following.get(k, 0.0) + prob * v
            if v < 1:
                k = (hands, waiting - 1, pairs, others + 1)
                following[k] = following.get(k, 0.0) + prob * (1 - v)
        states = following
    return total


class _Follow(split_loop.SecondCards):
    """The play of a post-split strategy decided by a judge: hit where hitting (and
    playing on optimally) beats standing in the judge's shoe; double (when the rules
    allow it after a split, and ``das``) where doubling beats both there."""

    def __init__(self, shoes: SplitShoes, name: str, judge: Evaluator, das: bool) -> None:
        self.shoes = shoes
        self.name = name
        self.judge = judge
        self.das = das
        self.hits = OptimalIn(judge)  # the judge's hit-or-stand decisions (compiled)
        rules = shoes.rules
        self.stand_only = shoes.rank == ACE and not rules.hit_split_aces
        allowed = das and in_chips(judge.objective) and rules.double_after_split
        self.doubling = split_loop.doubling_code(allowed, rules.double)

    def __call__(self, ev: Evaluator, hand: Hand) -> float:
        if self.stand_only or hand.total >= 21:
            return ev.stand(hand)  # a 21 stands: the player never doubles or hits it
        if ev.can_double(hand, after_split=True) and self.doubles(hand):
            return ev.double(hand)
        if not self.hits(hand):
            return ev.stand(hand)
        return ev.hit_then(hand, self.hits, self.memo(ev))

    def doubles(self, hand: Hand) -> bool:
        judge = self.judge
        return self.das and judge.double(hand) > judge.best_continuation(hand)[0]

    def memo(self, ev: Evaluator) -> dict[object, float]:
        return self.shoes.memos.setdefault((id(ev), self.name), {})

    def sums(self, ev: Evaluator, start: Hand) -> tuple[float, float, float] | None:
        return split_loop.sums(
            ev,
            start,
            self.stand_only,
            self.doubling,
            split_loop.ALL_BY_JUDGE,
            self.memo(ev),
            judge=self.judge,
        )


def decided_by(decider: Callable[[SplitShoes], Evaluator], name: str, das: bool = True) -> Strategy:
    """The strategy whose decisions are the optimal ones in ``decider(shoes)``'s shoe.

    Hit or stand: hit when hitting (and playing on optimally) beats standing there;
    double (when the rules allow it after a split, and ``das``) when doubling beats both.
    """

    def strategy(shoes: SplitShoes) -> PostSplitPlay:
        return _Follow(shoes, name, decider(shoes), das)  # without das: never doubles

    return strategy


def presplit_strategy(main: Evaluator, das: bool = True) -> Strategy:
    """CDZ-: every split hand is played as the same cards would be played unsplit.

    The decisions are the composition-dependent optimal ones for a hand of those cards
    dealt from the full shoe (only the upcard and the hand's own cards removed): the
    player forgets the split. The convention of Farmer's published split EVs.
    """
    return decided_by(lambda shoes: main, "cdz-", das)


def first_hand_strategy(das: bool = True) -> Strategy:
    """Every split hand is played by the decisions optimal for the first split hand: the
    shoe minus the upcard and *both* pair cards, nothing else remembered."""
    return decided_by(lambda shoes: shoes.context(0), "first-hand", das)


def cdp_strategy(das: bool = True) -> ByRemoval:
    """CDP: the hands of a split that took ``2 + a`` pair cards in all are played by the
    decisions optimal in the shoe minus the upcard and those ``2 + a`` pair cards (and the
    hand's own cards): the player knows how many pair cards the split used, as if every
    split hand had its second card before any is played, and nothing else about the other
    hands. With one split allowed it is CDP1 (``first-hand``)."""

    def for_removal(shoes: SplitShoes, a: int) -> PostSplitPlay:
        return decided_by(lambda s: s.context(a), f"cdp{a}", das)(shoes)

    return ByRemoval(for_removal)


SPLIT_STRATEGIES = ("cdz-", "cdp1", "cdp", "cdpn")
"""Post-split modes (Farmer's names): ``cdz-`` the pre-split decisions, ``cdp1`` the
first split hand's (``first-hand`` is its older name), ``cdp`` by the pair cards used,
``cdpn`` the best play knowing the pair and non-pair cards the other hands took."""


def named_strategy(
    name: str, main: Evaluator, das: bool = True
) -> Strategy | ByRemoval | ResplitAware:
    """The post-split mode ``name`` (one of :data:`SPLIT_STRATEGIES`)."""
    if name in ("cdp1", "first-hand"):
        return first_hand_strategy(das)
    if name == "cdz-":
        return presplit_strategy(main, das)
    if name == "cdp":
        return cdp_strategy(das)
    if name == "cdpn":
        return ResplitAware(das)
    raise CroupierError(
        f"the post-split mode is one of {', '.join(SPLIT_STRATEGIES)}, not {name!r}"
    )
