"""Blackjack, the game package: its rules, dealer rules and betting schemes, rule sets,
strategies, simulator, compiled kernel, solver and counting; and the plugin that
puts its table behind the engine's game interface, so tables, tournaments, logs and the
server run blackjack as they run any game.

A plugin that adds to blackjack (a dealer rule, a betting scheme, a rule set, a strategy)
imports what it builds from here: ``from croupier.plugins.blackjack import BlackjackRules,
RuleSet, hookimpl``.
"""

from __future__ import annotations

from croupier.engine import CommandLine, CroupierError, Family, Game, PluginManager, hookimpl
from croupier.plugins.blackjack import hookspecs
from croupier.plugins.blackjack.building import build_core, resolve_rules
from croupier.plugins.blackjack.cli import COMMAND_LINE
from croupier.plugins.blackjack.game import blackjack_game
from croupier.plugins.blackjack.indexsets import shipped_sets
from croupier.plugins.blackjack.indices import IndexEntry, IndexSet, check_index_set
from croupier.plugins.blackjack.kernels import SimKernel
from croupier.plugins.blackjack.play import Action, Event, Observation
from croupier.plugins.blackjack.rules import BlackjackRules, RuleSet
from croupier.plugins.blackjack.strategy import HandView, Strategy
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule

__all__ = [
    "Action",
    "BettingScheme",
    "BlackjackRules",
    "DealerRule",
    "Event",
    "HandView",
    "IndexEntry",
    "IndexSet",
    "Observation",
    "RuleSet",
    "SimKernel",
    "Strategy",
    "hookimpl",
]


def check_rule_set(manager: PluginManager, rule_set: RuleSet) -> list[str]:
    """A rule set's dealer rule and betting scheme exist, and its rules make a table."""
    try:
        resolve_rules(manager, rule_set.rules)
        build_core(manager, rule_set.rules, 1, [rule_set.rules.starting_chips])
    except CroupierError as exc:
        return [f"makes no table: {exc}"]
    return []


def check_set(manager: PluginManager, index_set: IndexSet) -> list[str]:
    """An index set's count is installed, its entries are decisions of the table, once."""
    return check_index_set(index_set, manager.count_systems.names())


FAMILIES = (
    Family("croupier_dealer_rules", "dealer rules", DealerRule, "dealer_rules", hookspecs),
    Family(
        "croupier_betting_schemes", "betting scheme", BettingScheme, "betting_schemes", hookspecs
    ),
    Family("croupier_rule_sets", "rule set", RuleSet, "rule_sets", hookspecs, check_rule_set),
    Family("croupier_strategies", "strategy", Strategy, "strategies", hookspecs),
    Family("croupier_sim_kernels", "simulator kernel", SimKernel, "sim_kernels", hookspecs),
    Family("croupier_index_sets", "index set", IndexSet, "index_sets", hookspecs, check_set),
)


@hookimpl
def croupier_families() -> tuple[Family, ...]:
    """Blackjack's extension points, filled by the dealers, betting, rule-sets, strategies
    and blackjack-kernel plugins, this package's index sets (and any third party)."""
    return FAMILIES


@hookimpl
def croupier_index_sets() -> tuple[IndexSet, ...]:
    """The Hi-Lo Illustrious 18, Fab 4 and generated set, shipped as data."""
    return shipped_sets()


@hookimpl
def croupier_games(manager: PluginManager) -> tuple[Game, ...]:
    return (blackjack_game(manager),)


@hookimpl
def croupier_command_lines() -> tuple[CommandLine, ...]:
    """Blackjack's options of ``croupier sim`` and ``tournament``."""
    return (COMMAND_LINE,)
