"""``--rules NAME`` plus per-option overrides, shared by sim, solve, play and serve."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CroupierError, PluginManager
from croupier.plugins.blackjack.cli import OVERRIDES, add_rule_options, overrides
from croupier.plugins.blackjack.rules import BlackjackRules

__all__ = ["OVERRIDES", "add_rules_arguments", "overrides_from_args", "rules_from_args"]


def add_rules_arguments(
    parser: argparse.ArgumentParser, default: str | None = "vegas-s17", blackjack: str = "vegas-s17"
) -> None:
    """Add ``--rules`` and one option per overridable rule to ``parser`` (``default`` None:
    the command resolves it, per game: ``blackjack`` for blackjack)."""
    group = parser.add_argument_group("rules (a rule set, then overrides)")
    shown = default or f"{blackjack}; with --game, the game's standard rules"
    group.add_argument(
        "--rules", default=default, metavar="NAME", help=f"rule set (default: {shown})"
    )
    add_rule_options(group)


def overrides_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The options the user set explicitly on the command line."""
    return overrides(args)


def rules_from_args(manager: PluginManager, args: argparse.Namespace) -> BlackjackRules:
    """The named rule set with the command line's overrides applied and validated."""
    base: BlackjackRules = manager.rule_sets.get(args.rules).rules
    try:
        return base.evolve(**overrides_from_args(args))
    except TypeError as exc:
        raise CroupierError(f"bad rule option: {exc}") from None
