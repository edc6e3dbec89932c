"""The one-line notice before a long ``sim --shoe fresh-pack``: it is the simulator's slow
path (the whole shoe is shuffled every round, some 10 to 15 times the casino shoe's time),
so the command says so and how long these rounds will take, measured on a few here."""

from __future__ import annotations

import time

from croupier.engine.chunks import CHUNK
from croupier.engine.kernels import KernelJob

SAMPLE = 20_000
"""Rounds timed for the estimate (a few hundredths of a second on the slow path)."""


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def fresh_pack_note(job: KernelJob, rounds: int, slots: int, where: str) -> str | None:
    """The notice for ``rounds`` rounds of ``job`` on ``slots`` processes, or None for a run
    of one chunk or less (seconds). The sample's seed is not the run's: it only times."""
    if rounds <= CHUNK:
        return None
    job.run(job.data, 0, 1)  # load the compiled kernel before timing it
    start = time.perf_counter()
    job.run(job.data, 0, SAMPLE)
    rate = SAMPLE / max(time.perf_counter() - start, 1e-9)
    estimate = rounds / (rate * max(1, slots))
    return (
        f"croupier: notice: --shoe fresh-pack shuffles the whole shoe every round, the "
        f"simulator's slow path (about {rate:,.0f} rounds/s a process here, a casino shoe "
        f"some 10 to 15 times that): {rounds:,} rounds take about {_duration(estimate)} "
        f"on {where}"
    )
