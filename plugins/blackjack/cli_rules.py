"""Blackjack's rules on the command line: ``--rules NAME`` and one option per overridable
rule (``--decks``, ``--h17``, ``--payout``, ...), for ``croupier sim`` (and the commands that
seat a blackjack table) and ``croupier solve blackjack``; read back into a rule set with
:func:`rules_from_args`."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CroupierError, PluginManager
from croupier.plugins.blackjack.rules import (
    DOUBLE_RULES,
    SHOE_KINDS,
    SURRENDER_RULES,
    BlackjackRules,
)

INFINITE = "inf"

OVERRIDES = (
    "decks",
    "penetration",
    "shoe",
    "dealer",
    "betting",
    "double",
    "double_after_split",
    "max_split_hands",
    "resplit_aces",
    "hit_split_aces",
    "surrender",
    "blackjack_pays",
    "peek",
    "min_bet",
    "max_bet",
    "starting_chips",
)
"""The rules the options override, by the name of the rule (and of the option's dest)."""


def decks_type(text: str) -> int | str:
    """A deck count, or ``inf`` for an infinite deck (kept as the string until applied)."""
    if text.lower() in ("inf", "infinite"):
        return INFINITE
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"decks is a number or 'inf', not {text!r}") from None


def add_rule_options(group: argparse._ArgumentGroup) -> None:
    """One option per overridable rule (``--decks``, ``--h17``, ``--payout``, ...)."""
    group.add_argument("--decks", type=decks_type, help="number of decks, or 'inf'")
    group.add_argument("--penetration", type=float, help="fraction of the shoe dealt (0-1]")
    group.add_argument(
        "--shoe",
        choices=SHOE_KINDS,
        help="casino: dealt down to the cut card (--penetration); fresh-pack: every round "
        "from a freshly shuffled shoe of --decks decks (a continuous shuffler, as the "
        "solver's edge assumes); koth: the contest's one deck, refilled",
    )
    dealer = group.add_mutually_exclusive_group()
    dealer.add_argument(
        "--h17", dest="dealer", action="store_const", const="h17", help="dealer hits soft 17"
    )
    dealer.add_argument(
        "--s17", dest="dealer", action="store_const", const="s17", help="dealer stands on soft 17"
    )
    group.add_argument(
        "--betting",
        metavar="NAME",
        help="betting scheme: casino (ties push, naturals paid --payout), koth, classic, "
        "or a plugin's",
    )
    group.add_argument("--double", choices=DOUBLE_RULES, help="which two-card totals may double")
    group.add_argument(
        "--das",
        dest="double_after_split",
        action="store_true",
        default=None,
        help="double after split allowed",
    )
    group.add_argument(
        "--no-das", dest="double_after_split", action="store_false", help="no double after split"
    )
    group.add_argument(
        "--split-hands", dest="max_split_hands", type=int, help="most hands a player may split to"
    )
    group.add_argument(
        "--resplit-aces",
        dest="resplit_aces",
        action="store_true",
        default=None,
        help="split aces may be split again",
    )
    group.add_argument(
        "--no-resplit-aces",
        dest="resplit_aces",
        action="store_false",
        help="split aces may not be split again",
    )
    group.add_argument(
        "--hit-split-aces",
        dest="hit_split_aces",
        action="store_true",
        default=None,
        help="split aces may draw more than one card",
    )
    group.add_argument(
        "--no-hit-split-aces",
        dest="hit_split_aces",
        action="store_false",
        help="split aces get one card each",
    )
    group.add_argument("--surrender", choices=SURRENDER_RULES, help="which surrender is offered")
    group.add_argument(
        "--payout",
        dest="blackjack_pays",
        metavar="N:M",
        help="what a natural pays, e.g. 3:2 or 6:5",
    )
    group.add_argument(
        "--peek",
        dest="peek",
        action="store_true",
        default=None,
        help="dealer peeks for blackjack under a ten or an ace",
    )
    group.add_argument(
        "--no-peek",
        dest="peek",
        action="store_false",
        help="no hole-card peek (European no-hole-card)",
    )
    group.add_argument("--min-bet", type=int, help="the smallest bet")
    group.add_argument("--max-bet", type=int, help="the largest bet")
    group.add_argument("--chips", dest="starting_chips", type=int, help="starting chips")


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The rules the user set explicitly on the command line (``inf`` decks: None)."""
    out: dict[str, Any] = {}
    for name in OVERRIDES:
        value = getattr(args, name, None)
        if value is not None:
            out[name] = None if value == INFINITE else value
    return out


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


def rules_from_args(manager: PluginManager, args: argparse.Namespace) -> BlackjackRules:
    """The named rule set with the command line's overrides applied and validated."""
    base: BlackjackRules = manager.rule_sets.get(args.rules).rules
    try:
        return base.evolve(**overrides(args))
    except TypeError as exc:
        raise CroupierError(f"bad rule option: {exc}") from None
