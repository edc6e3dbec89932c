"""Compiled simulators: the extension point, and the data form of a strategy.

A game plugin may contribute a :class:`SimKernel` (hook ``croupier_sim_kernels``): given
the rules, a strategy and the number of seats, it either returns a :class:`KernelJob` (the
whole simulation as plain, picklable data and a module-level function that plays one chunk
of it) or says in one line why it cannot play them, and the simulator falls back to the
Python round engine. The engine's driver (:mod:`croupier.engine.chunks`) runs a job's
chunks on any number of processes; it never looks inside the data.

A strategy is data when it offers a :class:`PlayTable`: ``Strategy.table`` for one that
does not depend on the rules, or a ``play_table()`` method on its play rule (the ``basic``
chart made for a table's rules has one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from croupier.engine import KernelJob

if TYPE_CHECKING:
    from croupier.engine import PluginManager
    from croupier.plugins.blackjack.counting import CountPlay
    from croupier.plugins.blackjack.rules import BlackjackRules
    from croupier.plugins.blackjack.sim_indices import IndexSim
    from croupier.plugins.blackjack.strategy import PlayRule, Strategy

HARD_ROWS = range(4, 22)
SOFT_ROWS = range(12, 22)
PAIR_ROWS = range(10)
LETTERS = ("H", "S", "Dh", "Ds", "P", "Ph", "Rh", "Rs", "Rp")
"""The chart letters, as ``croupier solve blackjack --chart`` prints them: hit, stand,
double else hit, double else stand, split, split else hit, surrender else hit / stand /
split."""


@attrs.frozen
class PlayTable:
    """A strategy as a chart: one letter per row and upcard. Rows: hard totals 4..21, soft
    totals 12..21 and pairs by rank index (0 = ace .. 9 = ten); each row holds 10 letters
    by the upcard's rank index (0 = ace .. 9 = ten). A pair that cannot be split is played
    by its total's row; a hand of 21 stands."""

    hard: Mapping[int, Sequence[str]]
    soft: Mapping[int, Sequence[str]]
    pairs: Mapping[int, Sequence[str]]

    def __attrs_post_init__(self) -> None:
        for name, rows, keys in (
            ("hard", self.hard, HARD_ROWS),
            ("soft", self.soft, SOFT_ROWS),
            ("pairs", self.pairs, PAIR_ROWS),
        ):
            for key in keys:
                row = rows.get(key)
                if row is None or len(row) != 10 or any(x not in LETTERS for x in row):
                    raise ValueError(f"play table row {name} {key} needs 10 chart letters")

    @classmethod
    def by_total(cls, rule: PlayRule) -> PlayTable:
        """The table of a rule that only hits or stands by the hand's total and softness
        (``lim17`` and the like): its answer for each row, whatever the upcard."""

        @attrs.frozen
        class _Hand:
            cards: tuple[int, ...]
            total: int
            soft: bool

        def row(total: int, soft: bool) -> list[str]:
            letters = []
            for up in range(1, 11):
                answer = rule(_Hand((), total, soft), up, ("hit", "stand"))
                letters.append("H" if answer == "hit" else "S")
            return letters  # upcard values 1..10 are rank indices 0..9

        hard = {t: row(t, False) for t in HARD_ROWS}
        soft = {t: row(t, True) for t in SOFT_ROWS}
        pairs = {r: (soft[12] if r == 0 else hard[2 * min(r + 1, 10)]) for r in PAIR_ROWS}
        return cls(hard, soft, pairs)


def play_table(strategy: Strategy) -> PlayTable | None:
    """The strategy's data form, if it has one."""
    if strategy.table is not None:
        return strategy.table
    method = getattr(strategy.play, "play_table", None)
    return method() if callable(method) else None


@attrs.frozen
class SimKernel:
    """A compiled simulator: ``prepare(manager, rules, strategy, seats)`` returns a
    :class:`KernelJob`, or a one-line reason why it cannot play these; ``count`` (optional)
    does the same for a card counter's play (a
    :class:`~croupier.plugins.blackjack.counting.CountPlay` as a fifth argument); ``indices``
    (optional) for measuring playing indices (an
    :class:`~croupier.plugins.blackjack.sim_indices.IndexSim` as the fourth argument, no seats)."""

    name: str
    summary: str
    prepare: Callable[[PluginManager, BlackjackRules, Strategy, int], KernelJob | str]
    count: (
        Callable[[PluginManager, BlackjackRules, Strategy, int, CountPlay], KernelJob | str] | None
    ) = None
    indices: (
        Callable[[PluginManager, BlackjackRules, Strategy, IndexSim], KernelJob | str] | None
    ) = None
