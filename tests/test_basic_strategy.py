"""The solver's chart as the `basic` strategy: played by the simulator, it earns the solver's
house edge (within the simulation's confidence interval)."""

from __future__ import annotations

import pytest

from croupier.engine import CroupierError
from croupier.plugins.blackjack.simulate import simulate
from croupier.plugins.blackjack.solver import solve_rules
from croupier.plugins.blackjack.strategy import Strategy, local_strategy


@pytest.mark.slow
def test_basic_is_a_rules_dependent_strategy(manager):
    basic = manager.strategies.get("basic")
    assert isinstance(basic, Strategy) and basic.adapt is not None
    with pytest.raises(CroupierError, match="depends on the rules"):
        basic.play(None, 10, ("hit", "stand"))  # type: ignore[arg-type]
    s17 = manager.rule_sets.get("vegas-s17").rules
    assert local_strategy(manager, "lim17", s17) is manager.strategies.get("lim17")
    bound = local_strategy(manager, "basic", s17)
    assert bound.adapt is None


@pytest.mark.slow
def test_simulated_basic_strategy_earns_the_solvers_house_edge(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    edge = solve_rules(rules).edge_td
    report = simulate(
        manager, rules, local_strategy(manager, "basic", rules), 100_000, 1, seed=2024
    )
    low, high = report["ci95"]
    sigma = (high - low) / 2 / 1.96
    assert abs(report["mean"] - (-edge)) < 3 * sigma
    assert report["double_rate"] > 0.05 and report["split_rate"] > 0.01
    assert report["conserved"]


def test_sim_cli_plays_basic(cli):
    status, out, _ = cli("sim", "--strategy", "basic", "--hands", "2000", "--seed", "1")
    assert status == 0
    assert "strategy basic" in out


def test_basic_refuses_rules_the_solver_cannot_solve(cli):
    status, _, err = cli("sim", "--rules", "koth", "--peek", "--strategy", "basic", "--hands", "10")
    assert status == 1
    assert err.startswith("croupier: error:") and err.count("\n") == 1
