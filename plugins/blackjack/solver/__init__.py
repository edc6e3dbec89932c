"""The exact blackjack strategy solver: EVs of every decision, charts and house edges.

Contributes the ``blackjack`` solver (problem and solution are plain data, see
:mod:`.problem`). Python users can call :func:`solve_rules` for an :class:`Analysis`
whose ``chart`` is a :class:`Chart` that decides like a player.

Registering the plugin imports no solver code (the dynamic programme and numba load in
about half a second): :func:`solve`, :func:`solve_rules` and :class:`Analysis` are imported
on first use, so a command that never solves (a simulation whose chart is cached) never
pays for them.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from croupier.engine import (
    VALUES,
    CroupierError,
    Problem,
    Solution,
    Solver,
    hookimpl,
    package_of,
    reuse,
    source_digest,
)
from croupier.plugins.blackjack.kernels import PlayTable
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.chart import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, Chart
from croupier.plugins.blackjack.strategy import HandView, PlayRule, Strategy

if TYPE_CHECKING:
    from croupier.plugins.blackjack.solver.analysis import Analysis, solve_rules
    from croupier.plugins.blackjack.solver.classic import ClassicPlayer
    from croupier.plugins.blackjack.solver.problem import solve

__all__ = ["BASIC", "SOLVER", "Analysis", "Chart", "basic_strategy", "solve", "solve_rules"]

_LAZY = {"Analysis": "analysis", "solve_rules": "analysis", "solve": "problem"}


def __getattr__(name: str) -> Any:
    """The solver's entry points, imported on first use (see the module's text)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)


def _solve(problem: Problem) -> Solution:
    """The ``blackjack`` solver's function (:func:`.problem.solve`, imported on first use)."""
    from croupier.plugins.blackjack.solver.problem import solve

    return solve(problem)


SOLVER = Solver(
    "blackjack",
    "exact blackjack EVs, basic-strategy charts, house edges, dealer probabilities",
    _solve,
    problem_doc=(
        "rules: rule options (decks: null or 'inf' for an infinite deck); "
        "objective: 'ev' | 'win-probability'; chart: bool; hand: 'T,6' with upcard: 'T'; "
        "dealer: bool; post_split: 'cdz-' | 'cdp1' | 'cdp' | 'cdpn'; "
        "indices: {count: a count system as plain data, decisions: "
        "['stand 16 T', ...], rounding, rows: 'all' | 'two-card', workers} (alone)"
    ),
)


CHART_CACHE = "blackjack basic-strategy chart"

log = logging.getLogger("croupier.blackjack")


@lru_cache(maxsize=16)
def basic_strategy(rules: BlackjackRules) -> Chart:
    """The total-dependent basic-strategy chart for ``rules`` (solved once per rules and
    machine: the chart is kept on disk, see :mod:`croupier.engine.solvecache`, under the
    rules and the source of this plugin, and in memory for this process).

    ``basic_strategy(rules).decide(hand_cards, upcard, legal_actions)`` is the ``basic``
    player; ``solve_rules(rules).edge_td`` is the house edge of playing it.
    """
    code = source_digest(package_of(__name__))
    chart, _ = reuse(
        CHART_CACHE,
        code,
        rules.to_dict(),
        lambda: _solved_chart(rules),
        _whole_chart,
    )
    return chart


def _solved_chart(rules: BlackjackRules) -> dict[str, Any]:
    # a server's first table of `basic` seats on new rules waits for this: say why
    log.info(
        "solving the basic-strategy chart of new rules (%s decks; once per rules and "
        "machine; the first solve after an install also compiles the solver: up to a minute)",
        rules.decks or "infinite",
    )
    # this package's solve_rules, looked up at each call (tests count the solves through it)
    solve: Callable[[BlackjackRules], Analysis] = sys.modules[__name__].solve_rules
    return solve(rules).chart.to_dict()


def _whole_chart(data: object) -> Chart:
    """A chart read back from plain data, with every row (a kept chart that lost some is
    not a chart: :class:`~croupier.engine.CroupierError`, so it is solved again)."""
    if not isinstance(data, dict):
        raise CroupierError("not a chart: not a JSON object")
    chart = Chart.from_dict(data)
    rows = (chart.hard, HARD_ROWS), (chart.soft, SOFT_ROWS), (chart.pairs, PAIR_ROWS)
    whole = all(
        set(table) == set(names) and all("" not in row for row in table.values())
        for table, names in rows
    )
    if not whole:
        raise CroupierError("not a chart: rows or upcards are missing")
    return chart


def _basic_play(rules: BlackjackRules) -> PlayRule:
    """``basic`` under ``rules``: solved now (so rules it cannot play fail at once), played
    by a picklable rule that carries its chart (tournaments hand strategies to worker
    processes, and the server solves a chart in a worker process and keeps the rule)."""
    if rules.dealer == "classic":
        _classic_player(rules)
        return _ClassicPlay(rules)
    return _BasicPlay(basic_strategy(rules))


@attrs.frozen
class _BasicPlay:
    """The chart's decision. The chart is plain data, so the rule is self-contained: it
    never solves anything when it plays, wherever it was unpickled."""

    chart: Chart

    def __call__(self, hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
        return self.chart.decide_ranks([VALUES[c] - 1 for c in hand.cards], upcard - 1, legal)

    def play_table(self) -> PlayTable:
        """The chart as data, for the compiled simulator."""
        return PlayTable(self.chart.hard, self.chart.soft, self.chart.pairs)


@lru_cache(maxsize=4)
def _classic_player(rules: BlackjackRules) -> ClassicPlayer:
    from croupier.plugins.blackjack.solver.classic import ClassicPlayer

    return ClassicPlayer(rules)


@attrs.frozen
class _ClassicPlay:
    """The classic game's exact play of each hand."""

    rules: BlackjackRules

    def __call__(self, hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
        choice = _classic_player(self.rules).decide([VALUES[c] - 1 for c in hand.cards], upcard - 1)
        return choice if choice in legal else "stand" if "stand" in legal else legal[0]


BASIC = Strategy(
    "basic",
    "basic strategy: the chart the blackjack solver finds for the table's rules "
    "(under the classic dealer, its exact play of each hand)",
    adapt=_basic_play,
)


@hookimpl
def croupier_solvers() -> tuple[Solver, ...]:
    return (SOLVER,)


@hookimpl
def croupier_strategies() -> tuple[Strategy, ...]:
    return (BASIC,)
