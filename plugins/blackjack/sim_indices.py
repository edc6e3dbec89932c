"""Playing indices by simulation: each decision's gain at each true count, and its crossing.

The exact generator (the ``blackjack`` solver's ``indices`` problem) solves one mean shoe
per true count; this measures the same decisions on a compiled simulator instead. A
kernel that offers ``SimKernel.indices`` deals rounds to one seat playing the chart and,
at every occurrence of a decision of :class:`IndexSim`, plays the rest of the round both
ways from the same cards (the decision taken, and declined as an index table declines it)
and adds the difference of the hand's results at the true count: per reading, the
samples, the sum and the sum of squares (half units of the bet, integers) and the sum of
the unrounded true count. Those totals are what :func:`analyse` reads.

The crossing: a weighted least-squares line through the readings' mean gains against
their mean unrounded true counts (weights ``1/SE^2``), refitted on the readings within
:data:`WINDOW` of the crossing until it settles; the crossing is where the line is zero,
with a 95% interval by the delta method (widened by the fit's reduced chi-square when the
line fits worse than the noise). The index is, as the exact generator's, the reading from
which the decision is taken: the lowest reading whose mean true count is at or above the
crossing (direction ``+``, a rising gain), or the highest at or below it (``-``). A
crossing outside the readings measured is no index (unchanged).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from croupier.engine import CountSystem, CroupierError
from croupier.plugins.blackjack.counting import TC_HIGH, TC_LOW, TCS
from croupier.plugins.blackjack.indices import IndexEntry
from croupier.plugins.blackjack.strategy import local_strategy

if TYPE_CHECKING:
    from croupier.engine import Executor, PluginManager
    from croupier.plugins.blackjack.rules import BlackjackRules

STATS = ("n", "sum", "sq", "tc")
TRAILER = ("rounds", "forks_dry", "rounds_dry")
TC_SCALE = 1024
READINGS = ("decision", "round")
ROWS = ("all", "two-card")
WINDOW = 3.0
"""Readings within this many true counts of the crossing are fitted (at least three)."""
Key = tuple[str, str, str]  # decision, hand, upcard (as an index table writes them)


@attrs.frozen
class IndexSim:
    """What to measure: the count, the decisions (``(decision, hand, upcard)`` as an
    index table writes them, e.g. ``("stand", "16", "T")``), where the true count is read
    (``decision``: with every card seen, as a player deviates; ``round``: at the round's
    start, the shoe the exact generator conditions on) and the rows (``two-card``:
    decisions on two-card hands only)."""

    system: CountSystem
    decisions: tuple[Key, ...]
    reading: str = "decision"
    rows: str = "all"

    def __attrs_post_init__(self) -> None:
        if self.reading not in READINGS:
            raise CroupierError(
                f"a reading is at the {' or '.join(READINGS)}, not {self.reading!r}"
            )
        if self.rows not in ROWS:
            raise CroupierError(f"rows are {' or '.join(ROWS)}, not {self.rows!r}")
        if len(set(self.decisions)) != len(self.decisions):
            raise CroupierError("a decision is measured once")


def index_fields(decisions: int) -> tuple[str, ...]:
    """The kernel's totals: per decision slot and true count, :data:`STATS`; then
    :data:`TRAILER`."""
    per = tuple(f"{d}:{tc:+d}:{s}" for d in range(decisions) for tc in TCS for s in STATS)
    return per + TRAILER


@attrs.frozen
class Reading:
    """One decision at one reading: samples, mean gain per hand (units of the bet;
    insurance per unit insured), its standard error and the mean unrounded true count."""

    tc: int
    n: int
    gain: float
    se: float
    mean_tc: float


@attrs.frozen
class SimFound:
    """A decision's simulated index (None: unchanged over the readings measured)."""

    key: Key
    index: int | None
    direction: str
    crossing: float | None
    interval: tuple[float, float] | None  # 95%, of the crossing
    readings: tuple[Reading, ...]

    def entry(self) -> IndexEntry:
        assert self.index is not None
        return IndexEntry(*self.key, float(self.index), self.direction)

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision": self.key[0],
            "hand": self.key[1],
            "upcard": self.key[2],
            "index": self.index,
            "direction": self.direction,
            "crossing": self.crossing,
            "ci95": list(self.interval) if self.interval else None,
            "readings": {
                str(r.tc): {"n": r.n, "gain": r.gain, "se": r.se, "mean_tc": r.mean_tc}
                for r in self.readings
            },
        }


def readings(totals: dict[str, int], slot: int) -> list[Reading]:
    """Decision ``slot``'s readings with two samples or more (the clamped ends left out)."""
    out = []
    for tc in TCS:
        if tc in (TC_LOW, TC_HIGH):
            continue
        n, s, sq, t = (totals[f"{slot}:{tc:+d}:{name}"] for name in STATS)
        if n < 2:
            continue
        mean = s / 2 / n
        var = max(sq / 4 - n * mean * mean, 0.0) / (n - 1)
        out.append(Reading(tc, n, mean, math.sqrt(var / n), t / TC_SCALE / n))
    return out


def _fit(points: Sequence[Reading]) -> tuple[float, float, float, float, float]:
    """Weighted line through the points: centre, value there, slope, their variances."""
    w = [1.0 / max(p.se, 1e-9) ** 2 for p in points]
    sw = sum(w)
    xc = sum(wi * p.mean_tc for wi, p in zip(w, points, strict=True)) / sw
    sxx = sum(wi * (p.mean_tc - xc) ** 2 for wi, p in zip(w, points, strict=True))
    a = sum(wi * p.gain for wi, p in zip(w, points, strict=True)) / sw
    b = sum(wi * (p.mean_tc - xc) * p.gain for wi, p in zip(w, points, strict=True)) / sxx
    chi2 = sum(
        wi * (p.gain - a - b * (p.mean_tc - xc)) ** 2 for wi, p in zip(w, points, strict=True)
    )
    scale = max(1.0, chi2 / (len(points) - 2)) if len(points) > 2 else 1.0
    return xc, a, b, scale / sw, scale / sxx


def crossing(points: Sequence[Reading]) -> tuple[float, float, float] | None:
    """The zero of the locally fitted line and its standard error, and the slope; None
    when there is no slope to speak of (fewer than two readings, or a flat line)."""
    if len(points) < 2 or len({p.mean_tc for p in points}) < 2:
        return None
    chosen = list(points)
    seen: set[tuple[int, ...]] = set()
    while True:
        xc, a, b, var_a, var_b = _fit(chosen)
        if b == 0:
            return None
        x0 = xc - a / b
        se = math.sqrt(var_a / b**2 + a**2 * var_b / b**4)
        near = sorted(points, key=lambda p: abs(p.mean_tc - x0))
        chosen = [p for p in near if abs(p.mean_tc - x0) <= WINDOW] or near[:3]
        if len(chosen) < 3:
            chosen = near[:3]
        chosen.sort(key=lambda p: p.tc)
        key = tuple(p.tc for p in chosen)
        if key in seen:
            return x0, se, b
        seen.add(key)


def find(key: Key, points: list[Reading], min_samples: int) -> SimFound:
    """A decision's index from its readings (those with ``min_samples`` or more)."""
    usable = [p for p in points if p.n >= min_samples]
    found = crossing(usable)
    if found is None:
        return SimFound(key, None, "", None, None, tuple(points))
    x0, se, slope = found
    interval = (x0 - 1.96 * se, x0 + 1.96 * se)
    if not usable[0].mean_tc <= x0 <= usable[-1].mean_tc:
        return SimFound(key, None, "", x0, interval, tuple(points))
    if slope > 0:
        index = min(p.tc for p in usable if p.mean_tc >= x0)
        return SimFound(key, index, "+", x0, interval, tuple(points))
    index = max(p.tc for p in usable if p.mean_tc <= x0)
    return SimFound(key, index, "-", x0, interval, tuple(points))


def analyse(totals: dict[str, int], sim: IndexSim, min_samples: int = 100) -> list[SimFound]:
    """Every decision's :class:`SimFound` from a run's totals."""
    return [find(key, readings(totals, k), min_samples) for k, key in enumerate(sim.decisions)]


@attrs.frozen
class SimIndices:
    """A run's indices and what it played: rounds, forks the shoe could not finish,
    rounds abandoned (the shoe ran out in the chart's own play), whether Ctrl-C stopped
    it, the seed."""

    found: list[SimFound]
    rounds: int
    forks_dry: int
    rounds_dry: int
    partial: bool
    seed: int


def simulate_indices(
    manager: PluginManager,
    rules: BlackjackRules,
    sim: IndexSim,
    rounds: int,
    seed: int,
    *,
    executor: Executor | None = None,
    progress: Callable[[int, dict[str, int]], None] | None = None,
    min_samples: int = 100,
) -> SimIndices:
    """Measure ``sim``'s decisions over ``rounds`` rounds of the ``basic`` chart for
    ``rules`` (one seat) on the first kernel that can; the same totals on any executor."""
    from croupier.engine import run_chunks
    from croupier.plugins.blackjack.building import resolve_rules
    from croupier.plugins.blackjack.simulate import NotCompiled

    resolve_rules(manager, rules)
    if rules.decks is None:
        raise CroupierError(
            "indices need a finite shoe (a count means nothing in an infinite deck)"
        )
    strategy = local_strategy(manager, "basic", rules).for_rules(rules)
    reasons = []
    for item in manager.sim_kernels.entries():
        kernel = item.item
        job = (
            kernel.indices(manager, rules, strategy, sim)
            if kernel.indices is not None
            else f"the {item.name!r} kernel does not measure indices"
        )
        if not isinstance(job, str):
            break
        reasons.append(job)
    else:
        raise NotCompiled("; ".join(reasons) or "no simulator kernel is installed")
    result = run_chunks(job, seed, rounds, executor=executor, progress=progress)
    t = result.totals
    return SimIndices(
        analyse(t, sim, min_samples),
        t["rounds"],
        t["forks_dry"],
        t["rounds_dry"],
        result.partial,
        seed,
    )
