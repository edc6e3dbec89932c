"""The value of splitting a pair, resplits included.

Method (exact for an infinite deck, a documented approximation for a finite shoe):

* Each split hand is valued as the first split hand would be: it starts with one pair card
  and draws from the shoe minus the upcard and both pair cards; the dealer draws from that
  shoe minus this hand's own cards. Cards dealt to the *other* split hands are treated as
  unseen. Each hand is played by the post-split strategy given to :func:`split_value`
  (the optimal one for its own cards, or a chart), with double after split only under DAS,
  no surrender, and split aces standing on one card unless hitting split aces is allowed.
* Resplitting: a hand whose second card is another pair card is split again while the
  player holds fewer than the allowed number of hands (aces only with resplit aces); the
  number of hands follows from the chance ``p`` that a second card is a pair card.
  Once no more hands are allowed such a hand is played as an unsplittable pair.

The split's value is then E[hands with a non-pair second card] * EV(non-pair hand) +
E[unsplittable pairs] * EV(pair hand). With one split this is exactly twice the value of
the first hand; in an infinite deck the hands are independent and the whole is exact.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from croupier.plugins.blackjack_solver.cards import ACE
from croupier.plugins.blackjack_solver.hands import Evaluator, Hand

PostSplitPlay = Callable[[Evaluator, Hand, int], float]


@cache
def expected_hands(p: float, limit: int) -> tuple[float, float]:
    """(E[hands with a non-pair second card], E[hands stuck with a pair]) after one split.

    ``p`` is the chance a second card is a pair card; ``limit`` the most hands allowed.
    """

    @cache
    def walk(hands: int, open_hands: int) -> tuple[float, float]:
        if open_hands == 0:
            return 0.0, 0.0
        done_nx, done_xx = walk(hands, open_hands - 1)
        if hands < limit:
            more_nx, more_xx = walk(hands + 1, open_hands + 1)
            return (
                (1 - p) * (done_nx + 1) + p * more_nx,
                (1 - p) * done_xx + p * more_xx,
            )
        return (1 - p) * (done_nx + 1) + p * done_nx, (1 - p) * done_xx + p * (done_xx + 1)

    return walk(2, 2)


def split_limit(rank: int, max_split_hands: int, resplit_aces: bool) -> int:
    return 2 if rank == ACE and not resplit_aces else max_split_hands


def split_value(context: Evaluator, rank: int, play: PostSplitPlay) -> float:
    """Value of splitting a pair of ``rank``; ``context`` has one pair card as ``extra``.

    ``play(evaluator, hand, rank)`` values a two-card post-split hand.
    """
    rules = context.rules
    one = tuple(1 if r == rank else 0 for r in range(10)) if context.finite else None
    start = Hand(rank + 1, rank == ACE, one)
    p_pair = 0.0
    non_pair = 0.0
    pair_value = 0.0
    for p, r in context.draws(start):
        value = play(context, start.add(r), rank)
        if r == rank:
            p_pair, pair_value = p, value
        else:
            non_pair += p * value
    limit = split_limit(rank, rules.max_split_hands, rules.resplit_aces)
    n_nx, n_xx = expected_hands(p_pair, limit)
    ev_nx = non_pair / (1 - p_pair) if p_pair < 1 else 0.0
    return n_nx * ev_nx + n_xx * pair_value


def optimal_play(context: Evaluator, hand: Hand, rank: int, das: bool = True) -> float:
    """A post-split hand played by the composition-dependent optimal strategy.

    ``das=False`` forbids doubling even where the rules allow it (for the chart's ``Ph``).
    """
    if rank == ACE and not context.rules.hit_split_aces:
        return context.stand(hand)
    best = context.best_continuation(hand)[0]
    if das and context.can_double(hand, after_split=True):
        best = max(best, context.double(hand))
    return best
