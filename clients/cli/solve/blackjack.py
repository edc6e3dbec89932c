"""``croupier solve blackjack``: exact EVs, basic-strategy charts, house edge, dealer odds."""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from croupier.clients.cli.common import (
    add_json_argument,
    get_manager,
    print_json,
    stdout_console,
    working,
)
from croupier.clients.cli.rules_args import add_rules_arguments, rules_from_args
from croupier.clients.cli.simindices import (
    add_sim_arguments,
    check_sim_arguments,
    run_by_sim,
)
from croupier.clients.cli.solvecache import solve_reusing
from croupier.clients.indexsets import index_entries
from croupier.engine import CroupierError
from croupier.engine.counts import ROUNDINGS
from croupier.engine.executor import default_workers
from croupier.plugins.blackjack.indices import IndexEntry, write_indices

STYLES = {
    "H": "bold red",
    "S": "bold yellow",
    "D": "bold green",
    "P": "bold cyan",
    "R": "bold magenta",
}


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "blackjack",
        help="exact blackjack EVs, basic-strategy chart and house edge",
        description=(
            "Solve blackjack exactly for a rule set: the basic-strategy chart and house edge "
            "(--chart, the default), every action's EV for one hand (--hand T,6 --upcard T), "
            "the dealer's final-total probabilities (--dealer). Finite shoes are solved "
            "composition-dependently; --decks inf is an infinite deck."
        ),
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
    add_sim_arguments(counting)
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    manager = get_manager()
    rules = rules_from_args(manager, args)
    check_sim_arguments(args)
    if args.indices is not None:
        return run_indices(args, manager, rules)
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
    with working("solving blackjack"):
        solution = manager.solvers.get("blackjack").solve(problem)
    if args.csv:
        sys.stdout.write(chart_csv(solution["chart"]))
    elif args.json:
        print_json(solution)
    else:
        show(solution)
    return 0


def chart_csv(chart: dict[str, Any]) -> str:
    """The solver's chart as the CSV that :mod:`croupier.plugins.blackjack.charts` reads."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["hand", *chart["upcards"]])
    for section, name in (("hard", "hard"), ("soft", "soft"), ("pairs", "pair")):
        for key, letters in chart[section].items():
            writer.writerow([f"{name} {key.split(',')[0]}", *letters])
    return out.getvalue()


def _pct(x: float) -> str:
    return f"{100 * x:+.4f}%"


def show(solution: dict[str, Any]) -> None:
    console = stdout_console()
    rules = solution["rules"]
    decks = "infinite deck" if rules["decks"] is None else f"{rules['decks']} deck(s)"
    console.print(
        f"[bold]Blackjack[/bold]: {decks}, {rules['dealer'].upper()}, double {rules['double']}, "
        f"{'DAS' if rules['double_after_split'] else 'no DAS'}, split to "
        f"{rules['max_split_hands']}, surrender {rules['surrender']}, "
        f"{rules['blackjack_pays']}, {'peek' if rules['peek'] else 'no peek'}; "
        f"objective {solution['objective']}"
    )
    if "note" in solution:
        console.print(f"[dim]{solution['note']}[/dim]")
    if "dealer" in solution:
        table = Table(title="Dealer's final total by upcard")
        table.add_column("up")
        outcomes = next(iter(solution["dealer"].values())).keys()
        for o in outcomes:
            table.add_column(o, justify="right")
        for up, dist in solution["dealer"].items():
            table.add_row(up, *(f"{p:.5f}" for p in dist.values()))
        console.print(table)
    if "game" in solution:
        game = solution["game"]
        if "house_edge" in game:
            console.print(
                f"the whole game, every hand played optimally: [bold]{game['value']:+.6f}[/bold] "
                f"per unit bet (house edge {_pct(game['house_edge'])})"
            )
        else:
            console.print(
                "the whole game, every hand played for the win: chance of winning a hand "
                f"(a push counts one half) [bold]{game['value']:.6f}[/bold]"
            )
    if "hand" in solution:
        show_hand(console, solution["hand"])
    if "effects_of_removal" in solution:
        show_eor(console, solution)
    if "chart" in solution:
        show_chart(console, solution)


def show_eor(console: Any, solution: dict[str, Any]) -> None:
    table = Table(title="Effects of removal: the chart's EV change per card removed (%)")
    effects = solution["effects_of_removal"]
    for rank in effects:
        table.add_column(rank, justify="right")
    table.add_row(*(f"{100 * v:+.4f}" for v in effects.values()))
    console.print(table)
    test = solution["depletion_self_test"]
    console.print(
        f"self-test: EV {100 * test['full_ev']:+.6f}% from the full shoe, "
        f"{100 * test['average_ev']:+.6f}% averaged over the shoes one unseen card "
        f"removed (a fixed strategy's EV cannot depend on it: they agree to "
        f"{abs(test['full_ev'] - test['average_ev']):.0e})"
    )


def show_hand(console: Any, hand: dict[str, Any]) -> None:
    kind = "soft" if hand["soft"] else "hard"
    table = Table(title=f"{hand['cards']} ({kind} {hand['total']}) against {hand['upcard']}")
    table.add_column("action")
    columns = next(iter(hand["actions"].values())).keys()
    for c in columns:
        table.add_column(c, justify="right")
    for action, values in hand["actions"].items():
        style = "bold green" if action == hand["best"] else ""
        table.add_row(Text(action, style=style), *(f"{v:+.6f}" for v in values.values()))
    console.print(table)
    if "natural" in hand:
        console.print(f"a natural: EV {hand['natural']:+.6f}")
    else:
        console.print(f"best: [bold green]{hand['best']}[/bold green]")


def show_chart(console: Any, solution: dict[str, Any]) -> None:
    chart = solution["chart"]
    for section, title in (("hard", "Hard totals"), ("soft", "Soft totals"), ("pairs", "Pairs")):
        if section not in chart:
            continue
        table = Table(title=title)
        table.add_column("hand")
        for up in chart["upcards"]:
            table.add_column(up, justify="center")
        for row, letters in chart[section].items():
            cells = [Text(x, style=STYLES[x[0]]) for x in letters]
            table.add_row(row, *cells)
        console.print(table)
    if "house_edge" in solution:
        console.print(
            "H hit, S stand, Dh/Ds double else hit/stand, P split, Ph split (DAS) else hit, "
            "Rh/Rs/Rp surrender else hit/stand/split"
        )
        edge = solution["house_edge"]
        console.print(
            f"house edge: [bold]{_pct(edge['total_dependent'])}[/bold] playing this chart "
            f"(total-dependent: {edge['total_dependent_chart']}), "
            f"{_pct(edge['composition_dependent'])} with composition-dependent play"
        )
    else:
        win = solution["win_probability"]
        console.print(
            f"chance of winning a hand (a push counts one half): {win['chart']:.6f} "
            f"with this chart, {win['optimal']:.6f} playing each hand optimally"
        )


def _only(manager: Any, text: str) -> list[str]:
    """``--only``: decisions as text, index sets by name and index CSV files (their
    decisions), comma-separated."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        looks_like_file = part.endswith(".csv") or "/" in part
        if part in manager.index_sets or (part and (os.path.exists(part) or looks_like_file)):
            entries = index_entries(manager, part, option="--only")
            out += [f"{e.decision} {e.hand} {e.upcard}" for e in entries]
        elif part:
            out.append(part)
    return list(dict.fromkeys(out))


def run_indices(args: argparse.Namespace, manager: Any, table_rules: Any) -> int:
    """``--indices COUNT``: generate, show or write the index table (``--by-sim``: also
    measure it by simulation, and show, write or draw that one)."""
    rules = table_rules.to_dict()
    system = manager.count_systems.get(args.indices)
    if args.plot:
        from croupier.clients.cli.countplot import check_plot_path

        check_plot_path(args.plot)  # before seconds of solving
    spec: dict[str, Any] = {"count": system.to_dict()}
    if args.only:
        spec["decisions"] = _only(manager, args.only)
    if args.rounding:
        spec["rounding"] = args.rounding
    if args.rows:
        spec["rows"] = args.rows
    if args.second_order:
        spec["second_order"] = True
    key = {"rules": rules, "indices": dict(spec)}  # the workers do not change the answer
    spec["workers"] = max(1, args.workers or default_workers())
    with working(f"solving {system.name} indices"):
        solver = manager.solvers.get("blackjack")
        problem = {"rules": rules, "indices": spec}
        solution, reused = solve_reusing(solver, problem, key, fresh=args.fresh)
    if reused:
        print(
            f"croupier: notice: {system.name} indices solved before for these rules, reused "
            "(--fresh solves again)",
            file=sys.stderr,
        )
    if args.by_sim:
        return run_by_sim(args, manager, table_rules, system, solution)
    entries = [
        IndexEntry(x["decision"], x["hand"], x["upcard"], float(x["index"]), x["direction"])
        for x in solution["indices"]
    ]
    if args.out:
        r = solution["rules"]
        comments = [
            f"{system.name} indices generated by croupier solve blackjack (exact solver, "
            "mean shoe at each true count; docs/counting.md)",
            f"rules: {r['decks']} decks, {r['dealer']}, double {r['double']}, "
            f"{'DAS' if r['double_after_split'] else 'no DAS'}, surrender {r['surrender']}, "
            f"penetration {r['penetration']}; true count {solution['rounding']}; "
            f"{solution['rows']} rows"
            + ("; gains to second order over the shoes" if solution["second_order"] else ""),
        ]
        Path(args.out).write_text(write_indices(entries, comments))
    if args.plot:
        from croupier.clients.cli.indexplot import plot_indices

        r = solution["rules"]
        plot_indices(
            args.plot,
            solution["indices"],
            f"{system.name} indices ({solution['rounding']} true count): {r['decks']} "
            f"deck{'s' * (r['decks'] != 1)}, "
            f"{r['dealer']}, {'DAS' if r['double_after_split'] else 'no DAS'}, surrender "
            f"{r['surrender']}",
        )
    if args.json:
        print_json(solution)
        return 0
    table = Table(title=f"{system.name} indices ({solution['rounding']} true count)")
    for column in ("decision", "hand", "up", "index", "dir", "crossing"):
        table.add_column(column, justify="right" if column in ("index", "crossing") else "left")
    for x in solution["indices"]:
        table.add_row(
            x["decision"],
            x["hand"],
            x["upcard"],
            f"{x['index']:+d}",
            x["direction"],
            f"{x['crossing']:+.2f}",
        )
    console = stdout_console()
    console.print(table)
    console.print(
        "+: take the decision at or above the index, -: at or below; crossing: where the "
        f"gain is zero (exact true count). {len(solution['unchanged'])} decision(s) never "
        f"change over the counts searched; {solution['solves']} shoes solved."
    )
    if args.out:
        console.print(f"wrote {args.out}")
    return 0
