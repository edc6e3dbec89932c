"""Built-in strategies: ``lim17``, ``mimic-dealer`` and ``never-bust``.

Each bets the table minimum, declines insurance and early surrender, and only hits or
stands (so it never needs chips beyond its bet).
"""

from __future__ import annotations

from croupier.engine import hookimpl
from croupier.plugins.blackjack.kernels import PlayTable
from croupier.plugins.blackjack.strategy import HandView, Strategy


def _lim17(hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
    return "hit" if hand.total < 17 else "stand"


def _mimic_dealer(hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
    total = hand.total
    return "hit" if total < 17 or (total == 17 and hand.soft) else "stand"


def _never_bust(hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
    total = hand.total
    if hand.soft:
        return "hit" if total < 17 else "stand"
    return "hit" if total <= 11 else "stand"


STRATEGIES = (  # each plays by total and softness alone: the compiled simulator plays its table
    Strategy(
        "lim17",
        "hit below 17, stand on 17 and up (soft or hard)",
        _lim17,
        table=PlayTable.by_total(_lim17),
    ),
    Strategy(
        "mimic-dealer",
        "play as an H17 dealer: hit below 17 and on soft 17",
        _mimic_dealer,
        table=PlayTable.by_total(_mimic_dealer),
    ),
    Strategy(
        "never-bust",
        "hit only when no card can bust the hand: hard 11 or less, soft below 17",
        _never_bust,
        table=PlayTable.by_total(_never_bust),
    ),
)


@hookimpl
def croupier_strategies() -> tuple[Strategy, ...]:
    return STRATEGIES
