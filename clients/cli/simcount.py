"""``croupier sim --count``: betting and playing by the count, and the counter's figures."""

from __future__ import annotations

import argparse
import csv
import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from croupier.engine import CroupierError, PluginManager
from croupier.plugins.blackjack.cli import add_count_options
from croupier.plugins.blackjack.counting import (
    CountPlay,
    cap_ramp,
    parse_ramp,
    parse_spots,
    ramp_text,
)
from croupier.plugins.blackjack.index_lookup import index_entries
from croupier.plugins.blackjack.rules import BlackjackRules


def add_count_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("counting cards (compiled engine; docs/counting.md)")
    add_count_options(group)


def counting_wanted(args: argparse.Namespace) -> bool:
    extras = (args.ramp, args.wong_in, args.wong_out, args.indices, args.bankroll, args.csv)
    if args.count is None and any(x is not None for x in (*extras, args.spots_at, args.plot)):
        raise CroupierError(
            "--ramp, --wong-in/out, --indices, --spots-at, --bankroll, --csv and --plot "
            "need --count"
        )
    return args.count is not None


def count_play(
    manager: PluginManager, args: argparse.Namespace, rules: BlackjackRules
) -> CountPlay:
    system = manager.count_systems.get(args.count)
    ramp = parse_ramp(args.ramp) if args.ramp else (1,) * 26
    ramp = cap_ramp(ramp, rules.min_bet, rules.max_bet)
    indices = index_entries(manager, args.indices, count=system.name) if args.indices else ()
    if args.hands_per_hour <= 0:
        raise CroupierError("--hands-per-hour must be positive")
    if args.bankroll is not None and args.bankroll <= 0:
        raise CroupierError("--bankroll must be positive")
    spots = parse_spots(args.spots_at) if args.spots_at else None
    return CountPlay(system, ramp, args.wong_in, args.wong_out, indices, spots)


def _flat_row(row: dict[str, Any]) -> dict[str, Any]:
    """A table row for CSV: an interval ``x_ci95`` becomes ``x_ci95_low`` and ``_high``."""
    out: dict[str, Any] = {}
    for name, value in row.items():
        if name.endswith("_ci95"):
            low, high = value if value is not None else ("", "")
            out[f"{name}_low"], out[f"{name}_high"] = low, high
        else:
            out[name] = value
    return out


def write_csv(path: str, table: list[dict[str, Any]], comments: list[str]) -> None:
    """The per-count table as plain CSV (a header row, then one row per count: any CSV
    reader takes it), and what was played (the command with its seed, the money's unit)
    beside it in ``PATH-metadata.json``, where CSV on the Web (W3C CSVW) looks for a
    table's description."""
    rows = [_flat_row(row) for row in table]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["tc"])
        writer.writeheader()
        writer.writerows(rows)
    about = {
        "@context": "http://www.w3.org/ns/csvw",
        "url": Path(path).name,
        "dc:title": "croupier sim --count: figures by true count at the bet",
        "rdfs:comment": comments,
    }
    Path(path + "-metadata.json").write_text(json.dumps(about, indent=2) + "\n")


def _money(x: float | None) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:,.0f}"


def show_counting(console: Console, play: CountPlay, report: dict[str, Any], seed: int) -> None:
    c = report
    wong = ""
    if play.wong_in is not None or play.wong_out is not None:
        wong = f", Wonging in at {play.wong_in}, out below {play.wong_out}"
    if play.spots_at is not None:
        wong += f", {play.spots_at[1]} spots from {play.spots_at[0]:g}"
    console.print(
        f"[bold]counting[/] {play.system.name}, ramp {ramp_text(play.ramp)}{wong}, "
        f"{len(play.indices)} indices (seed {seed}; money in units of the minimum bet)"
    )
    ci = c["ev_per_100_ci95"]
    interval = "" if ci is None else f" (95% CI {ci[0]:+.3f} .. {ci[1]:+.3f})"
    console.print(
        f"rounds played {c['rounds_played']:,} of {c['rounds_dealt']:,} dealt "
        f"({c['rounds_sat_out']:,} sat out), average bet {c['average_bet']:.3f}"
    )
    console.print(
        f"EV per round {c['ev_per_round']:+.5f}, per 100 rounds {c['ev_per_100']:+.3f}"
        f"{interval}, SD per round {c['sd_per_round']:.4f}; "
        f"{c['ev_per_unit_bet']:+.4%} of the money bet"
    )
    ruin = (
        f"risk of ruin of {c['bankroll']:,.0f}: {c['risk_of_ruin']:.2%}" if "bankroll" in c else ""
    )
    if c["advantage_note"] is None:
        n0 = c["n0"]
        console.print(
            f"DI {c['di']:.2f}  SCORE {c['score']:.2f}  "
            f"N0 {'-' if n0 is None else f'{n0:,.0f}'} rounds"
        )
        risks = c["bankroll_for_risk"]
        console.print(
            "bankroll for a risk of ruin of "
            + ", ".join(f"{float(r):.1%}: {_money(b)}" for r, b in risks.items())
            + (f"; {ruin}" if ruin else "")
        )
    else:
        console.print(c["advantage_note"])
        if ruin:
            console.print(ruin)
    console.print(
        f"per hour ({c['hands_per_hour']:g} rounds): EV {c['ev_per_hour']:+.3f}, "
        f"SD {c['sd_per_hour']:.3f}"
    )
    table = Table(title="by true count at the bet")
    columns = ("TC", "freq", "flat EV", "±95%", "flat SD", "played", "bet", "ramp EV", "±95%")
    for col in (*columns, "ramp SD"):
        table.add_column(col, justify="right")
    for row in c["per_count"]:
        table.add_row(
            row["tc"],
            f"{row['frequency']:.4f}",
            f"{row['flat_ev']:+.4f}",
            _half(row["flat_ev_ci95"]),
            f"{row['flat_sd']:.3f}",
            f"{row['played']:,}",
            f"{row['average_bet']:.2f}",
            f"{row['ramp_ev']:+.4f}",
            _half(row["ramp_ev_ci95"]),
            f"{row['ramp_sd']:.3f}",
        )
    console.print(table)
    console.print(
        f"intervals from {c['shoes']:,} shoes as independent batches (rounds of a shoe are "
        "correlated; docs/counting.md)"
        + (
            f"; the EV's variance is {de:.2f}x the independent rounds'"
            if (de := c["design_effect"])
            else ""
        )
    )


def _half(interval: list[float] | None) -> str:
    return "-" if interval is None else f"{(interval[1] - interval[0]) / 2:.4f}"
