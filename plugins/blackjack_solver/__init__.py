"""The exact blackjack strategy solver: EVs of every decision, charts and house edges.

Contributes the ``blackjack`` solver (problem and solution are plain data, see
:mod:`.problem`). Python users can call :func:`solve_rules` for an :class:`Analysis`
whose ``chart`` is a :class:`Chart` that decides like a player.
"""

from __future__ import annotations

from croupier.engine import BlackjackRules, Solver, hookimpl
from croupier.plugins.blackjack_solver.analysis import Analysis, solve_rules
from croupier.plugins.blackjack_solver.chart import Chart
from croupier.plugins.blackjack_solver.problem import solve

__all__ = ["SOLVER", "Analysis", "Chart", "basic_strategy", "solve", "solve_rules"]

SOLVER = Solver(
    "blackjack",
    "exact blackjack EVs, basic-strategy charts, house edges, dealer probabilities",
    solve,
    problem_doc=(
        "rules: rule options (decks: null or 'inf' for an infinite deck); "
        "objective: 'ev' | 'win-probability'; chart: bool; hand: 'T,6' with upcard: 'T'; "
        "dealer: bool"
    ),
)


def basic_strategy(rules: BlackjackRules) -> Chart:
    """The total-dependent basic-strategy chart for ``rules``.

    ``basic_strategy(rules).decide(hand_cards, upcard, legal_actions)`` is the ``basic``
    player; ``solve_rules(rules).edge_td`` is the house edge of playing it.
    """
    return solve_rules(rules).chart


@hookimpl
def croupier_solvers() -> tuple[Solver, ...]:
    return (SOLVER,)
