"""Blackjack's own command-line options (``croupier_command_lines``): one option per
overridable rule for ``croupier sim`` (and the commands that seat a blackjack table), the
card-counting options of ``sim``, and ``--overbet`` for ``tournament``. argparse only: the
command line lists them under "blackjack options" and reads them back with :func:`read`."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CommandLine
from croupier.plugins.blackjack.rules import (
    DOUBLE_RULES,
    OVERBET_RULES,
    SHOE_KINDS,
    SURRENDER_RULES,
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


def add_count_options(group: argparse._ArgumentGroup) -> None:
    """``sim``'s card counting: ``--count`` and what goes with it (docs/counting.md)."""
    group.add_argument("--count", metavar="NAME", help="count system: hilo, ko, halves, ...")
    group.add_argument(
        "--ramp",
        metavar="TEXT|FILE",
        help="bet ramp by true count in units of the minimum bet, e.g. "
        "'<=1:1,2:2,3:4,4:6,5+:8' (capped by the table's maximum; default: flat 1)",
    )
    group.add_argument("--wong-in", type=float, metavar="TC", help="back-count; play from TC up")
    group.add_argument("--wong-out", type=float, metavar="TC", help="sit out below TC")
    group.add_argument(
        "--indices",
        metavar="FILES|NAMES",
        help="playing deviations: index CSV files or index sets by name, comma-separated "
        "('croupier plugins' lists the sets: hilo-i18,hilo-fab4 for the I18 and Fab 4)",
    )
    group.add_argument(
        "--spots-at", metavar="TC:N", help="play N spots (seats) from true count TC up"
    )
    group.add_argument("--bankroll", type=float, metavar="UNITS", help="risk of ruin of this")
    group.add_argument(
        "--hands-per-hour", type=float, default=100.0, metavar="N", help="default: 100"
    )
    group.add_argument(
        "--csv",
        metavar="FILE",
        help="write the per-count table as CSV (what was played: FILE-metadata.json)",
    )
    group.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the per-count frequency, EV and ramp as FILE.png or FILE.svg "
        "(pip install 'croupier[plot]')",
    )


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The rules the user set explicitly on the command line (``inf`` decks: None)."""
    out: dict[str, Any] = {}
    for name in OVERRIDES:
        value = getattr(args, name, None)
        if value is not None:
            out[name] = None if value == INFINITE else value
    return out


def options(command: str, group: argparse._ArgumentGroup) -> None:
    """Blackjack's options of ``command``."""
    if command == "sim":
        add_rule_options(group)
        add_count_options(group)
    elif command == "tournament":
        group.add_argument(
            "--overbet",
            choices=OVERBET_RULES,
            default=None,
            help="a raise (B n) of more than the chips held: stand, the stake unchanged (the "
            "original contest controller, the default) or all-in",
        )


def read(command: str, args: argparse.Namespace) -> dict[str, Any]:
    """The blackjack rules ``command``'s options set."""
    if command == "tournament":
        return {} if args.overbet is None else {"overbet": args.overbet}
    return overrides(args) if command == "sim" else {}


COMMAND_LINE = CommandLine(
    "blackjack",
    "blackjack's rule overrides and card counting (sim), --overbet (tournament)",
    options=options,
    read=read,
)
