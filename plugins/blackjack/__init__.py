"""Blackjack as a game plugin: the table behind the engine's game interface, so tables,
tournaments, logs and the server run blackjack as they run any game."""

from __future__ import annotations

from croupier.engine import (
    BettingScheme,
    CroupierError,
    DealerRule,
    Family,
    PluginManager,
    RuleSet,
    Strategy,
    hookimpl,
)
from croupier.engine.games import Game
from croupier.engine.kernels import SimKernel
from croupier.engine.table import build_core, resolve_rules
from croupier.plugins.blackjack import hookspecs
from croupier.plugins.blackjack.game import blackjack_game


def check_rule_set(manager: PluginManager, rule_set: RuleSet) -> list[str]:
    """A rule set's dealer rule and betting scheme exist, and its rules make a table."""
    try:
        resolve_rules(manager, rule_set.rules)
        build_core(manager, rule_set.rules, 1, [rule_set.rules.starting_chips])
    except CroupierError as exc:
        return [f"makes no table: {exc}"]
    return []


FAMILIES = (
    Family("croupier_dealer_rules", "dealer rules", DealerRule, "dealer_rules", hookspecs),
    Family(
        "croupier_betting_schemes", "betting scheme", BettingScheme, "betting_schemes", hookspecs
    ),
    Family("croupier_rule_sets", "rule set", RuleSet, "rule_sets", hookspecs, check_rule_set),
    Family("croupier_strategies", "strategy", Strategy, "strategies", hookspecs),
    Family("croupier_sim_kernels", "simulator kernel", SimKernel, "sim_kernels", hookspecs),
)


@hookimpl
def croupier_families() -> tuple[Family, ...]:
    """Blackjack's extension points, filled by the dealers, betting, rule-sets, strategies
    and blackjack-kernel plugins (and any third party)."""
    return FAMILIES


@hookimpl
def croupier_games(manager: PluginManager) -> tuple[Game, ...]:
    return (blackjack_game(manager),)
