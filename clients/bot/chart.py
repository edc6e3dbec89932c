"""A fixed, total-dependent basic-strategy chart, used until the solver's ``basic`` lands.

This is the widely published chart for 4 to 8 decks, dealer stands on soft 17, double
after split allowed, late surrender: it is **not** computed by croupier and ignores the
table's actual rules. :func:`basic_strategy` prefers the strategy named ``basic`` from the
plugin manager (the blackjack solver's) whenever one is registered, so this chart is only
a stand-in, and says so in its name (``chart``).
"""

from __future__ import annotations

from croupier.engine import HandView, PluginManager, Strategy
from croupier.engine.cards import VALUES

# Dealer upcards are 1 (ace) to 10. Each row: the upcards against which to do the thing.
_SPLIT = {
    1: frozenset(range(1, 11)),
    8: frozenset(range(1, 11)),
    9: frozenset({2, 3, 4, 5, 6, 8, 9}),
    7: frozenset(range(2, 8)),
    6: frozenset(range(2, 7)),
    4: frozenset({5, 6}),
    3: frozenset(range(2, 8)),
    2: frozenset(range(2, 8)),
}
_HARD_DOUBLE = {9: frozenset(range(3, 7)), 10: frozenset(range(2, 10)), 11: frozenset(range(2, 11))}
_SOFT_DOUBLE = {
    13: frozenset({5, 6}),
    14: frozenset({5, 6}),
    15: frozenset({4, 5, 6}),
    16: frozenset({4, 5, 6}),
    17: frozenset(range(3, 7)),
    18: frozenset(range(3, 7)),
}
_SURRENDER = {16: frozenset({9, 10, 1}), 15: frozenset({10})}


def chart_play(hand: HandView, up: int, legal: tuple[str, ...]) -> str:
    """The chart's move; falls back to hit (or stand on soft 18) when a double, split or
    surrender is not legal."""
    total, soft, cards = hand.total, hand.soft, hand.cards
    pair = len(cards) == 2 and VALUES[cards[0]] == VALUES[cards[1]]
    if pair and "split" in legal and up in _SPLIT.get(VALUES[cards[0]], frozenset()):
        return "split"
    if not soft and "surrender" in legal and up in _SURRENDER.get(total, frozenset()):
        return "surrender"
    doubles = (_SOFT_DOUBLE if soft else _HARD_DOUBLE).get(total, frozenset())
    if up in doubles and "double" in legal:
        return "double"
    if soft:
        if total == 18:
            return "hit" if up in (9, 10, 1) else "stand"
        return "stand" if total >= 19 else "hit"
    if total >= 17:
        return "stand"
    if total >= 13:
        return "stand" if 2 <= up <= 6 else "hit"
    if total == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    return "hit"


CHART = Strategy(
    "chart",
    "a fixed published basic-strategy chart (4-8 decks, S17, DAS, late surrender)",
    chart_play,
)


def basic_strategy(manager: PluginManager) -> Strategy:
    """The solver's ``basic`` strategy when registered, else the fixed :data:`CHART`."""
    if "basic" in manager.strategies:
        found: object = manager.strategies.get("basic")
        if isinstance(found, Strategy):
            return found
    return CHART
