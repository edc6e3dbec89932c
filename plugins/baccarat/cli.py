"""``croupier solve baccarat``: each bet's exact odds and house edge for a shoe (the
game's command-line front end, ``croupier_command_lines``)."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CommandKit, CommandLine, CroupierError

NAME = "baccarat"
BETS = (
    ("banker", "banker (5% commission)"),
    ("banker_no_commission", "banker (no commission)"),
    ("player", "player"),
    ("tie", "tie"),
)
HELP = "exact odds and house edge of each baccarat bet"


def solve_parser(parser: argparse.ArgumentParser, kit: CommandKit) -> None:
    """``croupier solve baccarat``'s options."""
    parser.description = (
        "Enumerate every coup the tableau can deal from a shoe and give the exact "
        "chance of each result and each bet's house edge per hand bet. The shoe is "
        "DECKS full decks, or the cards left by value with --counts."
    )
    parser.add_argument("--decks", type=int, default=8, help="full decks (default: 8)")
    parser.add_argument(
        "--counts",
        metavar="C0,...,C9",
        help="cards left by baccarat value 0 (tens and faces) to 9, e.g. a counted shoe",
    )
    parser.add_argument("--tie-pays", type=int, default=8, help="a tie pays N:1 (default: 8)")
    kit.add_json_argument(parser)
    parser.set_defaults(func=lambda args: run(args, kit))


def run(args: argparse.Namespace, kit: CommandKit) -> int:
    problem: dict[str, Any] = {"tie_pays": args.tie_pays}
    if args.counts is not None:
        try:
            problem["counts"] = [int(part) for part in args.counts.split(",")]
        except ValueError:
            raise CroupierError(
                f"--counts is ten whole numbers separated by commas, not {args.counts!r}"
            ) from None
    else:
        problem["decks"] = args.decks
    result = kit.manager().solvers.get(NAME).solve(problem)
    if args.json:
        kit.print_json(result)
        return 0
    odds = result["probabilities"]
    shoe = f"{args.decks} decks" if args.counts is None else "the counted shoe"
    print(f"baccarat, {shoe} ({result['cards']} cards), tie pays {args.tie_pays}:1")
    print(
        f"player wins {odds['player']:.6%}  banker wins {odds['banker']:.6%} "
        f"(with 6: {odds['banker_six']:.6%})  tie {odds['tie']:.6%}"
    )
    print("house edge per hand bet:")
    for key, label in BETS:
        exact = result["exact"]["edges"][key]
        print(f"  {label:<24} {result['edges'][key]:+.6%}   exactly {exact}")
    return 0


COMMAND_LINE = CommandLine(NAME, "croupier solve baccarat", solve=solve_parser, solve_help=HELP)
