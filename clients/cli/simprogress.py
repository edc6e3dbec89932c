"""The compiled simulator's progress bar: hands done, hands/s and the running EV."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

ChunkTick = Callable[[int, dict[str, int]], None]


@contextmanager
def sim_progress(rounds: int, bet: int) -> Iterator[ChunkTick]:
    """A bar on stderr when stderr is a terminal (a no-op otherwise), updated per chunk
    with the running result per hand and its 95% interval."""
    console = Console(file=sys.stderr)
    if not console.is_terminal:
        yield lambda done, totals: None
        return
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} rounds"),
        TextColumn("{task.fields[speed]}"),
        TextColumn("{task.fields[ev]}"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("simulating", total=rounds, speed="", ev="")

        played = 0

        def tick(done: int, totals: dict[str, int]) -> None:
            nonlocal played
            played += done
            n = totals["hands"]
            ev = ""
            if n > 1 and played > 1:
                mean = totals["net"] / n / bet
                # the spread of whole rounds: seats at one table move together
                var = (totals["round_net_sq"] - totals["net"] ** 2 / played) / (played - 1)
                half = 1.96 * math.sqrt(max(var, 0.0) / played) / (n / played) / bet
                ev = f"EV {mean:+.3%} ± {half:.3%}"
            speed = bar.tasks[0].speed
            rate = f"{speed:,.0f} rounds/s" if speed else ""
            bar.update(task, advance=done, speed=rate, ev=ev)

        yield tick
