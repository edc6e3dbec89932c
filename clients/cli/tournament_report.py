"""``croupier tournament``'s report: the standings (with which bots are not yet told apart
at 95%) and, with ``--score``, each bot's scorecard against the oracle; or the result as
JSON."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from rich.table import Table as RichTable

from croupier.clients.cli.common import print_json, stdout_console
from croupier.engine.standings import Standing
from croupier.engine.tournament_run import TournamentResult


def show(
    result: TournamentResult, as_json: bool, replayed: bool = False, partial: bool = False
) -> int:
    if as_json:
        data = result.to_dict()
        if replayed:
            data["replayed"] = True
        if partial:
            data["partial"] = True
        print_json(data)
        return 0
    config = result.config
    console = stdout_console()
    verb = "replayed" if replayed else "played"
    console.print(
        f"[bold]{'King of the Hill' if config.game == 'blackjack' else config.game}[/]: "
        f"{len(result.names)} bots, {config.tourneys} "
        f"{'duplicate ' if config.duplicate else ''}tourneys of "
        f"{config.rounds} rounds x {config.hands} hands (seed {config.seed}); {verb} "
        f"{result.tables} tables, {result.hands} hands, {result.decisions} decisions"
    )
    table = RichTable(show_edge=False)
    columns = ("rank", "bot", "chips", "95% CI", "sd", "hands", "faults", "broke", "DQ")
    for column in columns:
        justify = "left" if column == "bot" else "right"
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    table.add_column("not yet separated from", justify="left")
    for s in result.standings:
        ci = "n/a" if s.low is None or s.high is None else f"{s.low:.1f} .. {s.high:.1f}"
        sd = "n/a" if s.sd is None else f"{s.sd:.1f}"
        table.add_row(
            s.place,
            s.name,
            f"{s.mean:.1f}",
            ci,
            sd,
            str(s.hands),
            str(s.faults),
            str(s.broke),
            str(s.disqualified),
            unseparated(s.unseparated, len(result.standings)),
        )
    console.print(table)
    console.print(separation_note(result.standings), markup=False)
    if result.scores:
        show_scores(console, result)
    if not result.conserved:
        print("croupier: error: chips were not conserved (a bug)", file=sys.stderr)
        return 1
    return 0


SHOWN = 4
"""Names listed in a standing's 'not yet separated from' cell; the rest are counted."""


def unseparated(names: Sequence[str], bots: int) -> str:
    """A standing's 'not yet separated from' cell: up to :data:`SHOWN` names."""
    if not names:
        return "-"
    if len(names) == bots - 1 and bots > 2:
        return "all others"
    more = f" +{len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more


def separation_note(standings: Sequence[Standing]) -> str:
    """One line under the standings: how many bots are told apart, and what '=' means."""
    n = len(standings)
    pairs = n * (n - 1) // 2
    apart = pairs - sum(len(s.unseparated) for s in standings) // 2
    runs = len(standings[0].scores) if standings else 0
    ties = " '=': tied (equal mean chips)." if any(s.tied for s in standings) else ""
    if runs < 2:
        return f"One run: no interval, no bot is yet separated from another.{ties}"
    return (
        f"{apart} of {pairs} pairs of bots separated at 95% (paired over the {runs} tourneys)."
        + ties
    )


def show_scores(console: Any, result: TournamentResult) -> None:
    """Each bot's scorecard: EV loss against the oracle, plain and luck-adjusted results."""

    def ci(values: list[float], digits: int = 2) -> str:
        mean, low, high = values
        if low != low:  # nan: too few rounds for an interval
            return f"{mean:.{digits}f}"
        return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"

    table = RichTable(show_edge=False, title="scored against the oracle (95% intervals)")
    for column in (
        "bot",
        "decisions",
        "EV loss/decision",
        "EV loss/100 rounds",
        "plain/round",
        "adjusted/round",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for name, card in zip(result.names, result.scores, strict=True):
        table.add_row(
            name,
            str(card["decisions"]),
            ci(card["loss_per_decision"], 3),
            ci(card["loss_per_100_rounds"]),
            ci(card["plain_per_round"]),
            ci(card["adjusted_per_round"]),
        )
    console.print(table)
    for name, card in zip(result.names, result.scores, strict=True):
        bets = card.get("bets")
        if bets:  # how the stakes followed the edge: flat betting gets the mean edge
            console.print(
                f"{name}'s {bets['count']} bets: mean edge {bets['mean_edge']:+.4%}, "
                f"weighted by stake {bets['staked_edge']:+.4%}",
                highlight=False,
            )
    for name, card in zip(result.names, result.scores, strict=True):
        if card["costliest"]:
            said = "; ".join(where_taken(d) for d in card["costliest"][:3])
            console.print(f"{name}'s costliest: {said}", highlight=False)


def where_taken(decision: dict[str, Any]) -> str:
    """A costliest decision in words, with where a replay finds it: its table (a
    tournament table's tourney, round and table; a server table's id) and hand."""
    table = decision.get("table")
    if isinstance(table, list) and len(table) == 3:
        at = f"tourney {table[0]} round {table[1]} table {table[2]}"
    else:
        at = f"table {table}"
    return (
        f"{at} hand {decision['round']} seat {decision['seat']}: {decision['taken']} "
        f"(best {decision['best']}) -{decision['loss']:.3f}"
    )
