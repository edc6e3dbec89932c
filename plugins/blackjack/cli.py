"""Blackjack's own command-line front end (``croupier_command_lines``): its rule options for
``croupier sim`` (and the commands that seat a blackjack table, :mod:`.cli_rules`), the
card-counting options of ``sim``, ``--overbet`` for ``tournament``, and ``croupier solve
blackjack`` (:mod:`.cli_solve`). argparse only: the command line lists the options under
"blackjack options" and reads them back with :func:`read`."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CommandKit, CommandLine
from croupier.plugins.blackjack.cli_rules import add_rule_options, overrides
from croupier.plugins.blackjack.rules import OVERBET_RULES


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


def solve_parser(parser: argparse.ArgumentParser, kit: CommandKit) -> None:
    """``croupier solve blackjack``'s options (:mod:`.cli_solve`, imported only for it: the
    plugin loads for every command)."""
    from croupier.plugins.blackjack.cli_solve import solve_parser as fill

    fill(parser, kit)


COMMAND_LINE = CommandLine(
    "blackjack",
    "blackjack's rule overrides and card counting (sim), --overbet (tournament)",
    options=options,
    read=read,
    solve=solve_parser,
    solve_help="exact blackjack EVs, basic-strategy chart and house edge",
)
