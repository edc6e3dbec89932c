"""A whole simulation as plain, picklable data: what a game's compiled simulator hands to
the engine's driver (:mod:`croupier.engine.chunks`), which runs its chunks on any number of
processes and never looks inside the data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs


@attrs.frozen
class KernelJob:
    """A whole simulation as plain data: ``run(data, seed, rounds)`` plays one chunk of
    ``rounds`` rounds from the 64-bit ``seed`` and returns totals named by ``fields`` (a
    chunk that cannot be played returns all -1)."""

    run: Callable[[Any, int, int], Sequence[int]]
    data: Any
    fields: tuple[str, ...]
    chunk: int | None = None
    """Rounds per chunk: None for the driver's :data:`~croupier.engine.chunks.CHUNK` (sized
    for a compiled kernel); a job that plays in Python gives fewer, so that a chunk is
    seconds of work and progress, workers and Ctrl-C see it. A fixed number, never a
    measured one: a run's chunks, and so its result, depend on the seed and rounds only."""
    plain: Callable[[int, int], Sequence[int]] | None = None
    """The same chunk played without compiled code, ``plain(seed, rounds)``, returning the
    same totals (a picklable callable): importing numba and loading a kernel's machine code
    cost a process about a second, far more than a run of a few thousand rounds."""
    plain_up_to: int = 0
    """The longest run (in rounds) that :attr:`plain` plays: a fixed number the job
    chooses from its cost per round, never a measured one (see :attr:`chunk`)."""
