"""``croupier stats``: judge a randomizer at a glance from a long seeded run."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from croupier.clients.cli.commands.randomize import add_spec_arguments, resolve_factory
from croupier.clients.cli.common import (
    get_manager,
    print_json,
    progress,
    resolve_seed,
    stdout_console,
)
from croupier.engine import Stream
from croupier.engine.randomizer_stats import RandomizerStats, collect_stats

BAR = 40
HISTOGRAM_ROWS = 30


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "stats",
        help="frequencies, repeats and droughts of a randomizer",
        description=(
            "Deal N pieces from a randomizer (as 'croupier randomize') and report how often "
            "each piece came, how often a piece repeats the previous one, the interval "
            "between two copies of the same piece (mean, variance, percentiles, max) with a "
            "histogram, and, for randomizers that roll against a history, how often every "
            "roll failed. Definitions are in docs/randomizers.md."
        ),
    )
    add_spec_arguments(parser, default_n=1_000_000)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    factory = resolve_factory(get_manager(), args.spec)
    seed = resolve_seed(args)
    randomizer = factory(Stream(seed))
    with progress(f"dealing {args.spec}", args.n) as tick:
        stats = collect_stats(randomizer, args.n, tick=tick)
    if args.json:
        print_json({"spec": args.spec, "seed": seed, **stats.as_dict()})
    else:
        render(args.spec, seed, stats)
    return 0


def bar(fraction: float) -> str:
    return "#" * round(BAR * fraction)


def render(spec: str, seed: int, stats: RandomizerStats) -> None:
    console = stdout_console()
    console.print(f"[bold]{spec}[/]: {stats.pieces:,} pieces, seed {seed}")
    pieces = Table(title="frequency", title_justify="left")
    pieces.add_column("piece")
    pieces.add_column("count", justify="right")
    pieces.add_column("share", justify="right")
    pieces.add_column("")
    top = max((stats.frequency(s) for s in stats.counts), default=0.0) or 1.0
    for symbol, count in stats.counts.items():
        share = stats.frequency(symbol)
        pieces.add_row(symbol, f"{count:,}", f"{share:.4%}", bar(share / top))
    console.print(pieces)
    iv = stats.intervals
    lines = [f"repeats of the previous piece: {stats.repeats:,} ({stats.repeat_rate:.4%})"]
    if iv.count:
        pct = ", ".join(f"p{p} {v}" for p, v in iv.percentiles.items())
        lines.append(
            f"interval between copies: mean {iv.mean:.4f}, variance {iv.variance:.4f}, "
            f"{pct}, max {iv.max} (longest gap {iv.longest_gap} pieces)"
        )
    if stats.roll_failure_rate is not None:
        lines.append(
            f"roll failures (every roll hit the history): {stats.roll_failures:,} "
            f"({stats.roll_failure_rate:.4%} of deals)"
        )
    for line in lines:
        console.print(line)
    if not iv.count:
        return
    histogram = Table(title="interval histogram", title_justify="left")
    histogram.add_column("interval", justify="right")
    histogram.add_column("count", justify="right")
    histogram.add_column("share", justify="right")
    histogram.add_column("")
    shown = [k for k in sorted(iv.histogram) if k <= HISTOGRAM_ROWS]
    tail = sum(v for k, v in iv.histogram.items() if k > HISTOGRAM_ROWS)
    peak = max(iv.histogram.values())
    for k in shown:
        v = iv.histogram[k]
        histogram.add_row(str(k), f"{v:,}", f"{v / iv.count:.4%}", bar(v / peak))
    if tail:
        histogram.add_row(
            f">{HISTOGRAM_ROWS}", f"{tail:,}", f"{tail / iv.count:.4%}", bar(min(tail / peak, 1.0))
        )
    console.print(histogram)
