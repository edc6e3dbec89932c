"""``croupier solve three-card-poker``: the exact best play and each bet's house edge (the
game's command-line front end, ``croupier_command_lines``)."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CommandKit, CommandLine

NAME = "three-card-poker"


HELP = "exact best play and house edges of Three Card Poker"


def solve_parser(parser: argparse.ArgumentParser, kit: CommandKit) -> None:
    """``croupier solve three-card-poker``'s options."""
    parser.description = (
        "Count every dealer hand against every player hand: the best play of each "
        "hand (play or fold), the ante's house edge and element of risk, and the pair "
        "plus edge, as exact fractions; --hand gives one hand's odds."
    )
    parser.add_argument("--hand", metavar="CARDS", help="one hand, such as 'QS 6H 4D'")
    parser.add_argument(
        "--ante-bonus", default="5-4-1", help="ante bonus paytable: 5-4-1 (default), 5-3-1, none"
    )
    parser.add_argument(
        "--pair-plus",
        default="40-30-6-3-1",
        help="pair plus paytable: 40-30-6-3-1 (default), 40-30-6-4-1, 40-25-6-4-1",
    )
    kit.add_json_argument(parser)
    parser.set_defaults(func=lambda args: run(args, kit))


def run(args: argparse.Namespace, kit: CommandKit) -> int:
    problem: dict[str, Any] = {"ante_bonus": args.ante_bonus, "pair_plus": args.pair_plus}
    if args.hand is not None:
        problem["hand"] = args.hand
    result = kit.manager().solvers.get(NAME).solve(problem)
    if args.json:
        kit.print_json(result)
        return 0
    exact = result["exact"]
    rule = "exactly" if result["threshold_is_exact"] else "mostly (card removal matters)"
    print(f"Three Card Poker, ante bonus {args.ante_bonus}, pair plus {args.pair_plus}")
    print(
        f"best play: play {result['weakest_played']} and better, fold "
        f"{result['strongest_folded']} and worse ({rule}); "
        f"plays {result['play_probability']:.4%} of hands"
    )
    print(f"ante house edge {result['ante_edge']:.4%} (exactly {exact['ante_edge']})")
    print(
        f"element of risk {result['element_of_risk']:.4%} (per unit wagered, exactly "
        f"{exact['element_of_risk']})"
    )
    print(
        f"pair plus house edge {result['pair_plus_edge']:.4%} (exactly {exact['pair_plus_edge']})"
    )
    if "hand" in result:
        hand = result["hand"]
        dealer = hand["dealer"]
        print(
            f"{hand['cards']} ({hand['category']}): {hand['best']}; play "
            f"{hand['play_ev']:+.4f} ante units (exactly {hand['exact']['play_ev']}), fold -1; "
            f"against 18,424 dealer hands: {dealer['no_qualify']:,} do not qualify, "
            f"{dealer['wins']:,} lose to it, {dealer['ties']:,} tie, {dealer['losses']:,} beat it"
        )
    return 0


COMMAND_LINE = CommandLine(
    NAME, "croupier solve three-card-poker", solve=solve_parser, solve_help=HELP
)
