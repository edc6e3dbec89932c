"""A third-party plugin with a table of its own: a dealer rule, a betting scheme, the rule
set that combines them, a strategy and a solver.

Register it with an entry point in the group ``croupier`` of your distribution
(``[project.entry-points.croupier] my-table = "my_table"``), or in tests with
``PluginManager(autoload=False, plugins=[("my-table", my_table)])``.
"""

from __future__ import annotations

from croupier.engine import CroupierError, Solver, hookimpl
from croupier.plugins.blackjack import (
    BettingScheme,
    BlackjackRules,
    DealerRule,
    HandView,
    RuleSet,
    Strategy,
)


def stands_on_16(total: int, soft: bool, target: int) -> bool:
    """Whether the dealer draws holding ``total`` (``target``: the best live player total,
    for rules such as the classic game's that look at it)."""
    return total < 16


def even_money(player: int, player_natural: bool, dealer: int, dealer_natural: bool) -> str:
    """A hand the player did not bust or surrender (the engine settles those itself); a
    busted dealer arrives as a total above 21."""
    if dealer > 21 or player > dealer:
        return "win"
    return "push" if player == dealer else "lose"


def hit_below_15(hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
    """The play phase only: ``upcard`` is 1 for an ace, 2-10 otherwise; answer one of
    ``legal`` (anything else is refused and the seat gets the default, stand)."""
    return "hit" if hand.total < 15 and "hit" in legal else "stand"


def dice_ways(problem: dict) -> dict:
    """Ways two dice make ``total``: a solver is a pure function of plain data, and refuses
    a bad problem by raising CroupierError (a one-line error everywhere)."""
    total = problem.get("total")
    if isinstance(total, bool) or not isinstance(total, int) or not 2 <= total <= 12:
        raise CroupierError(f"'total' must be an integer from 2 to 12, not {total!r}")
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == total)
    return {"total": total, "ways": ways, "probability": ways / 36}


@hookimpl
def croupier_dealer_rules():
    return [DealerRule("s16", "the dealer stands on any 16", stands_on_16)]


@hookimpl
def croupier_betting_schemes():
    return [
        BettingScheme(
            "even-money",
            "every win pays 1:1, ties push, no natural bonus",
            even_money,
            pays_naturals=False,
        )
    ]


@hookimpl
def croupier_rule_sets():
    rules = BlackjackRules(decks=2, dealer="s16", betting="even-money", blackjack_pays="1:1")
    return [RuleSet("my-table", "2 decks, the dealer stands on 16, even money", rules)]


@hookimpl
def croupier_strategies():
    return [Strategy("lim15", "hit below 15", play=hit_below_15)]


@hookimpl
def croupier_solvers():
    return [Solver("dice-ways", "ways two dice make a total", dice_ways, "total: int")]
