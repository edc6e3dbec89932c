"""Betting and playing by the count in the simulator: a ramp, Wonging, deviations.

A :class:`CountPlay` is what ``croupier sim --count`` hands a simulator kernel: the count
system, the bet ramp (units of the minimum bet for each true count ``TC_LOW..TC_HIGH``,
the ends standing for everything beyond them), when to Wong in and out, and the index
table played. The ramp is indexed by the true count at the bet, floored (a count read
with rounding ``none`` bets by its floor).

Ramp text: comma-separated ``TC:UNITS`` steps, where ``TC`` is a count (``2``), ``<=1``
(that count and below) or ``5+`` (that count and above); a count not named bets as the
nearest named count below it (the lowest named, below them all). ``"<=1:1,2:2,3:4,4:6,5+:8"``
bets 1 unit at +1 and below, 2 at +2, ..., 8 at +5 and above. A ramp is capped by the
table's maximum bet.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from croupier.engine import CountSystem, CroupierError
from croupier.plugins.blackjack.indices import IndexEntry

TC_LOW, TC_HIGH = -10, 15
"""The true counts the simulator keeps apart; a count beyond is added to the end bucket."""
TCS = tuple(range(TC_LOW, TC_HIGH + 1))


@attrs.frozen
class CountPlay:
    """How a counter bets and plays (see the module docstring)."""

    system: CountSystem
    ramp: tuple[int, ...] = (1,) * len(TCS)
    wong_in: float | None = None
    wong_out: float | None = None
    indices: tuple[IndexEntry, ...] = ()
    spots_at: tuple[float, int] | None = None
    """``(TC, N)``: play ``N`` seats (spots) when the true count at the bet is ``TC`` or
    more, each betting the ramp's bet; else the table's ``--seats``."""

    def units(self, tc: int) -> int:
        """The ramp's units at true count ``tc`` (clamped to the buckets)."""
        return self.ramp[min(max(tc, TC_LOW), TC_HIGH) - TC_LOW]


def parse_ramp(text: str) -> tuple[int, ...]:
    """Units of the minimum bet per bucket from ramp text or a file holding it."""
    source = text
    path = Path(text)
    if ":" not in text and path.is_file():
        source = path.read_text()
    steps: dict[int, int] = {}
    below: int | None = None
    above: int | None = None
    items = [s.strip() for s in source.replace("\n", ",").split(",") if s.strip()]
    items = [s for s in items if not s.startswith("#")]
    if not items:
        raise CroupierError("a ramp needs at least one step TC:UNITS, e.g. '<=1:1,2:2,3+:4'")
    for item in items:
        tc_text, sep, units_text = item.partition(":")
        tc_text = tc_text.strip()
        try:
            units = int(units_text)
            if tc_text.startswith("<="):
                tc = int(tc_text[2:])
                below = tc
            elif tc_text.endswith("+"):
                tc = int(tc_text[:-1])
                above = tc
            else:
                tc = int(tc_text)
        except ValueError:
            raise CroupierError(
                f"ramp step {item!r} is not TC:UNITS (e.g. 2:4, <=1:1, 5+:8)"
            ) from None
        if not sep or units < 0:
            raise CroupierError(f"ramp step {item!r} needs whole units of the minimum bet, >= 0")
        if tc in steps:
            raise CroupierError(f"ramp names true count {tc} twice")
        steps[tc] = units
    if not any(steps.values()):
        raise CroupierError("a ramp that never bets plays nothing")
    if (below is not None and below != min(steps)) or (above is not None and above != max(steps)):
        raise CroupierError("'<=TC' must be the ramp's lowest step and 'TC+' its highest")
    named = sorted(steps)
    out = []
    for tc in TCS:
        at = [t for t in named if t <= tc]
        out.append(steps[at[-1]] if at else steps[named[0]])
    return tuple(out)


def parse_spots(text: str) -> tuple[float, int]:
    """``TC:N`` (``--spots-at``): ``N`` spots from true count ``TC`` up."""
    tc_text, _, n_text = text.partition(":")
    try:
        tc, n = float(tc_text), int(n_text)
    except ValueError:
        raise CroupierError(f"--spots-at is TC:N (e.g. 3:2), not {text!r}") from None
    if not 1 <= n <= 7:
        raise CroupierError(f"a table has 1 to 7 seats, not {n}")
    return tc, n


def cap_ramp(ramp: tuple[int, ...], min_bet: int, max_bet: int) -> tuple[int, ...]:
    """The ramp with every bet at most the table's maximum (whole units)."""
    top = max_bet // min_bet
    return tuple(min(u, top) for u in ramp)


def ramp_text(ramp: tuple[int, ...]) -> str:
    """A short text of a ramp, as :func:`parse_ramp` reads it."""
    steps = []
    for i, units in enumerate(ramp):
        if i == 0 or units != ramp[i - 1]:
            steps.append([TCS[i], units])
    parts = []
    for k, (tc, units) in enumerate(steps):
        if k == 0 and len(steps) > 1:
            nxt = steps[1][0] - 1
            parts.append(f"<={nxt}:{units}")
        elif k == len(steps) - 1:
            parts.append(f"{tc}+:{units}" if k else f"0:{units}")
        else:
            parts.append(f"{tc}:{units}")
    return ",".join(parts)
