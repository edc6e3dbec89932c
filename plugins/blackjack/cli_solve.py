"""``croupier solve blackjack``: exact EVs, basic-strategy charts, house edge, dealer odds;
with ``--indices COUNT``, a count's playing indices (:mod:`.cli_indices`, measured by
simulation too with ``--by-sim``: :mod:`.cli_bysim`). The command line lends the shared
options, the printer, the pictures and the kept solutions (:class:`CommandKit`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from croupier.engine import ROUNDINGS, CommandKit, CroupierError
from croupier.plugins.blackjack.cli_bysim import add_sim_arguments, check_sim_arguments
from croupier.plugins.blackjack.cli_indices import run_indices
from croupier.plugins.blackjack.cli_rules import add_rules_arguments, rules_from_args
from croupier.plugins.blackjack.cli_show import chart_csv, show


def solve_parser(parser: argparse.ArgumentParser, kit: CommandKit) -> None:
    """``croupier solve blackjack``'s options."""
    parser.description = (
        "Solve blackjack exactly for a rule set: the basic-strategy chart and house edge "
        "(--chart, the default), every action's EV for one hand (--hand T,6 --upcard T), "
        "the dealer's final-total probabilities (--dealer). Finite shoes are solved "
        "composition-dependently; --decks inf is an infinite deck."
    )
    add_rules_arguments(parser)
    parser.add_argument("--chart", action="store_true", help="the chart and the house edge")
    parser.add_argument("--hand", metavar="CARDS", help="the player's cards, e.g. T,6 or 8,8")
    parser.add_argument("--upcard", metavar="CARD", help="the dealer's upcard, e.g. T or A")
    parser.add_argument(
        "--dealer",
        dest="dealer_table",  # "dealer" is the rules' --s17/--h17 option
        action="store_true",
        help="the dealer's final-total probabilities",
    )
    parser.add_argument(
        "--objective",
        choices=("ev", "win-probability"),
        default="ev",
        help="maximise expected value (default) or the chance of winning (hit/stand only)",
    )
    parser.add_argument(
        "--td-chart",
        choices=("actual", "infinite"),
        default="actual",
        help="the chart the total-dependent edge plays: built for this shoe (default), or "
        "the infinite-deck chart played in it, as many published tables",
    )
    parser.add_argument(
        "--post-split",
        choices=("cdz-", "cdp1", "cdp", "cdpn"),
        default="cdz-",
        help="how split hands are played when a split is valued (Farmer's modes): the "
        "pre-split decisions (cdz-, default), the first split hand's (cdp1), those for "
        "the pair cards the split used (cdp), or the best play knowing how many pair and "
        "non-pair cards the other split hands took (cdpn)",
    )
    parser.add_argument(
        "--eor",
        action="store_true",
        help="the effects of removal per rank of the chart (finite shoes; 11 exact "
        "solves), with the depletion self-test",
    )
    parser.add_argument(
        "--csv",
        action="store_true",
        help="print the chart as CSV, the file 'croupier sim --strategy FILE.csv' plays",
    )
    counting = parser.add_argument_group("playing indices for a card count (docs/counting.md)")
    counting.add_argument(
        "--indices",
        metavar="COUNT",
        help="the true count at which each decision's better play changes, for a count "
        "system ('croupier plugins' lists them: hilo, ko, halves, ...)",
    )
    counting.add_argument(
        "--only",
        metavar="DECISIONS",
        help="only these decisions, comma-separated: 'stand 16 T,double 11 A', or index "
        "sets or CSV files whose decisions to generate (e.g. hilo-i18,hilo-fab4)",
    )
    counting.add_argument(
        "--rounding", choices=ROUNDINGS, help="how true counts are read (default: the count's)"
    )
    counting.add_argument(
        "--rows",
        choices=("two-card", "all"),
        help="a stand decision's hands: all of them, three or more cards too, as the play "
        "reaches them (default), or its two-card hands only",
    )
    counting.add_argument(
        "--second-order",
        action="store_true",
        help="average each gain over the shoes that read the count (to second order, from "
        "their exact covariance) instead of solving their mean shoe alone; ~20x slower",
    )
    counting.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes solving shoes at once (default: every core); the result does not "
        "depend on it",
    )
    counting.add_argument(
        "--out", metavar="FILE.csv", help="write the indices as the CSV that sim --indices reads"
    )
    counting.add_argument(
        "--fresh",
        action="store_true",
        help="solve again: by default the same set asked again (to --plot, --out or --json "
        "it) is the one solved before, kept in ~/.cache/croupier/solves",
    )
    counting.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the index set as a colored chart, FILE.png or FILE.svg "
        "(pip install 'croupier[plot]')",
    )
    add_sim_arguments(counting, kit)
    kit.add_json_argument(parser)
    parser.set_defaults(func=lambda args: run(args, kit))


def run(args: argparse.Namespace, kit: CommandKit) -> int:
    """Solve the chart, a hand or the dealer's table (``--indices``: :mod:`.cli_indices`)."""
    manager = kit.manager()
    rules = rules_from_args(manager, args)
    check_sim_arguments(args)
    if args.indices is not None:
        return run_indices(args, kit, manager, rules)
    if (
        args.by_sim
        or args.only
        or args.out
        or args.rounding
        or args.rows
        or args.workers
        or args.second_order
        or args.plot
        or args.fresh
    ):
        raise CroupierError(
            "--only, --rounding, --rows, --second-order, --workers, --out, --plot, --fresh "
            "and --by-sim go with --indices COUNT"
        )
    problem: dict[str, Any] = {
        "rules": rules.to_dict(),
        "objective": args.objective,
        "td_chart": args.td_chart,
        "post_split": args.post_split,
    }
    if args.csv and (args.json or args.dealer_table or args.hand or args.upcard):
        raise CroupierError("--csv prints the chart alone: no --json, --dealer or --hand")
    if args.csv and args.objective != "ev":
        raise CroupierError(
            "--csv prints the EV chart; the win-probability chart is not a strategy file"
        )
    if args.chart or args.csv:
        problem["chart"] = True
    if args.dealer_table:
        problem["dealer"] = True
    if args.eor:
        problem["eor"] = True
    if args.hand is not None or args.upcard is not None:
        problem["hand"], problem["upcard"] = args.hand, args.upcard
    with kit.working("solving blackjack"):
        solution = manager.solvers.get("blackjack").solve(problem)
    if args.csv:
        sys.stdout.write(chart_csv(solution["chart"]))
    elif args.json:
        kit.print_json(solution)
    else:
        show(kit.printer(), solution)
    return 0
