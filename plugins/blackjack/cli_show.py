"""``croupier solve blackjack``'s report of a chart, a hand, the dealer's table and the
effects of removal (plain tables for the command line's printer), and the chart as the CSV
``croupier sim --strategy`` plays."""

from __future__ import annotations

import csv
import io
from typing import Any

from croupier.engine import Printer, ReportTable, Styled

STYLES = {
    "H": "bold red",
    "S": "bold yellow",
    "D": "bold green",
    "P": "bold cyan",
    "R": "bold magenta",
}
"""The chart letters' colors on a terminal (the index plot's hues soften them)."""


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


def show(printer: Printer, solution: dict[str, Any]) -> None:
    """The solution of a chart, hand or dealer problem as tables."""
    rules = solution["rules"]
    decks = "infinite deck" if rules["decks"] is None else f"{rules['decks']} deck(s)"
    printer.text(
        f"[bold]Blackjack[/bold]: {decks}, {rules['dealer'].upper()}, double {rules['double']}, "
        f"{'DAS' if rules['double_after_split'] else 'no DAS'}, split to "
        f"{rules['max_split_hands']}, surrender {rules['surrender']}, "
        f"{rules['blackjack_pays']}, {'peek' if rules['peek'] else 'no peek'}; "
        f"objective {solution['objective']}"
    )
    if "note" in solution:
        printer.text(f"[dim]{solution['note']}[/dim]")
    if "dealer" in solution:
        table = ReportTable("Dealer's final total by upcard")
        table.add_column("up")
        outcomes = next(iter(solution["dealer"].values())).keys()
        for o in outcomes:
            table.add_column(o, justify="right")
        for up, dist in solution["dealer"].items():
            table.add_row(up, *(f"{p:.5f}" for p in dist.values()))
        printer.table(table)
    if "game" in solution:
        game = solution["game"]
        if "house_edge" in game:
            printer.text(
                f"the whole game, every hand played optimally: [bold]{game['value']:+.6f}[/bold] "
                f"per unit bet (house edge {_pct(game['house_edge'])})"
            )
        else:
            printer.text(
                "the whole game, every hand played for the win: chance of winning a hand "
                f"(a push counts one half) [bold]{game['value']:.6f}[/bold]"
            )
    if "hand" in solution:
        show_hand(printer, solution["hand"])
    if "effects_of_removal" in solution:
        show_eor(printer, solution)
    if "chart" in solution:
        show_chart(printer, solution)


def show_eor(printer: Printer, solution: dict[str, Any]) -> None:
    table = ReportTable("Effects of removal: the chart's EV change per card removed (%)")
    effects = solution["effects_of_removal"]
    for rank in effects:
        table.add_column(rank, justify="right")
    table.add_row(*(f"{100 * v:+.4f}" for v in effects.values()))
    printer.table(table)
    test = solution["depletion_self_test"]
    printer.text(
        f"self-test: EV {100 * test['full_ev']:+.6f}% from the full shoe, "
        f"{100 * test['average_ev']:+.6f}% averaged over the shoes one unseen card "
        f"removed (a fixed strategy's EV cannot depend on it: they agree to "
        f"{abs(test['full_ev'] - test['average_ev']):.0e})"
    )


def show_hand(printer: Printer, hand: dict[str, Any]) -> None:
    kind = "soft" if hand["soft"] else "hard"
    table = ReportTable(f"{hand['cards']} ({kind} {hand['total']}) against {hand['upcard']}")
    table.add_column("action")
    columns = next(iter(hand["actions"].values())).keys()
    for c in columns:
        table.add_column(c, justify="right")
    for action, values in hand["actions"].items():
        style = "bold green" if action == hand["best"] else ""
        table.add_row(Styled(action, style), *(f"{v:+.6f}" for v in values.values()))
    printer.table(table)
    if "natural" in hand:
        printer.text(f"a natural: EV {hand['natural']:+.6f}")
    else:
        printer.text(f"best: [bold green]{hand['best']}[/bold green]")


def show_chart(printer: Printer, solution: dict[str, Any]) -> None:
    chart = solution["chart"]
    for section, title in (("hard", "Hard totals"), ("soft", "Soft totals"), ("pairs", "Pairs")):
        if section not in chart:
            continue
        table = ReportTable(title)
        table.add_column("hand")
        for up in chart["upcards"]:
            table.add_column(up, justify="center")
        for row, letters in chart[section].items():
            cells = [Styled(x, STYLES[x[0]]) for x in letters]
            table.add_row(row, *cells)
        printer.table(table)
    if "house_edge" in solution:
        printer.text(
            "H hit, S stand, Dh/Ds double else hit/stand, P split, Ph split (DAS) else hit, "
            "Rh/Rs/Rp surrender else hit/stand/split"
        )
        edge = solution["house_edge"]
        printer.text(
            f"house edge: [bold]{_pct(edge['total_dependent'])}[/bold] playing this chart "
            f"(total-dependent: {edge['total_dependent_chart']}), "
            f"{_pct(edge['composition_dependent'])} with composition-dependent play"
        )
    else:
        win = solution["win_probability"]
        printer.text(
            f"chance of winning a hand (a push counts one half): {win['chart']:.6f} "
            f"with this chart, {win['optimal']:.6f} playing each hand optimally"
        )
