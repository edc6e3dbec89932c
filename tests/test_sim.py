"""``croupier sim`` and the simulator: exact plumbing, golden output, clear errors."""

from __future__ import annotations

import functools
import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.plugins.blackjack.building import resolve_rules
from croupier.plugins.blackjack.kernels import play_table
from croupier.plugins.blackjack.shoe import make_shoe
from croupier.plugins.blackjack.simulate import simulate
from croupier.plugins.blackjack.solver.analysis import ChartPlayer, UpcardSolver
from croupier.plugins.blackjack.solver.chart import Chart
from croupier.plugins.blackjack.strategy import Strategy
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule
from croupier.plugins.shoes import shoe_randomizer_name


def test_every_rule_set_resolves(manager):
    from croupier.engine import Stream

    assert len(manager.rule_sets) >= 6
    for rule_set in manager.rule_sets:
        rules = rule_set.rules
        dealer, scheme = resolve_rules(manager, rules)
        assert isinstance(dealer, DealerRule) and isinstance(scheme, BettingScheme)
        assert manager.randomizers.get(shoe_randomizer_name(rules.shoe))
        assert make_shoe(rules, Stream(1)).kind == rules.shoe


def test_builtin_strategies(manager):
    assert {"lim17", "mimic-dealer", "never-bust"} <= set(manager.strategies.names())
    assert all(isinstance(s, Strategy) for s in manager.strategies)


@pytest.mark.parametrize(("engine", "golden"), [("python", -3395), ("compiled", -2225)])
def test_sim_json_is_reproducible(cli, engine, golden):
    argv = ["sim", "--hands", "3000", "--seats", "2", "--seed", "11", "--json", "--engine", engine]
    status, out, err = cli(*argv)
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["hands"] == 6000 and data["seed"] == 11 and data["conserved"]
    assert data["engine"] == engine
    rates = data["win_rate"] + data["push_rate"] + data["loss_rate"]
    assert rates == pytest.approx(1.0)
    assert data["ci95"][0] < data["mean"] < data["ci95"][1]
    assert cli(*argv)[1] == out
    assert data["net_chips"] == golden  # the seed's deal is part of the contract


def test_sim_overrides_reach_the_table(cli):
    argv = ["sim", "--hands", "10", "--seed", "1", "--json", "--decks", "2", "--h17"]
    argv += ["--no-das", "--surrender", "none", "--payout", "6:5"]
    status, out, _ = cli(*argv)
    assert status == 0
    options = json.loads(out)["options"]
    assert (options["decks"], options["dealer"], options["double_after_split"]) == (2, "h17", False)
    assert (options["surrender"], options["blackjack_pays"]) == ("none", "6:5")


def test_sim_text_and_drawn_seed(cli):
    status, out, err = cli("sim", "--hands", "200", "--rules", "koth", "--strategy", "never-bust")
    assert status == 0
    assert "result per initial hand" in out and "95% CI" in out and "python engine" in out
    notice, seed = err.splitlines()
    assert notice == "croupier: notice: simulating in Python: the 'koth' shoe is played in Python"
    assert seed.startswith("croupier: seed ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--strategy", "nope"], "unknown strategy 'nope'"),
        (["--seats", "8"], "1 to 7 seats"),
        (["--decks", "inf"], "finite number of decks"),
        (["--rules", "vegas"], "unknown rule set"),
        (["--payout", "x"], "payout"),
    ],
)
def test_sim_errors_are_one_line(cli, argv, message):
    status, out, err = cli("sim", "--seed", "1", "--hands", "5", *argv)
    assert status == 1 and out == ""
    assert message in err and err.count("\n") == 1


def test_sim_usage_errors(cli):
    assert cli("sim", "--hands", "0")[0] == 2
    assert cli("sim", "--seats", "-1")[0] == 2


@pytest.mark.slow
def test_lim17_matches_an_exact_infinite_deck_value(manager):
    """At a near-infinite shoe, lim17's mean agrees with the exact infinite-deck value
    computed here from first principles (a recursion over card probabilities)."""
    exact = float(_lim17_infinite_deck_ev())
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=64, surrender="none")
    report = simulate(manager, rules, manager.strategies.get("lim17"), 60_000, 1, 2024)
    low, high = report["ci95"]
    assert low < exact < high


def test_lim17s_infinite_deck_value_is_the_solvers_and_the_docs(manager):
    """The exact solver, playing lim17's chart in an infinite deck, gives the value of the
    recursion below (two independent computations); docs/tables.md quotes it to 4 places."""
    exact = _lim17_infinite_deck_ev()
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=None, surrender="none")
    table = play_table(manager.strategies.get("lim17"))
    chart = Chart(hard=table.hard, soft=table.soft, pairs=table.pairs)
    solved = sum(ChartPlayer(chart, UpcardSolver(rules, u, "ev")).round_total() for u in range(10))
    assert abs(solved - float(exact)) < 1e-12
    doc = (Path(__file__).parent.parent / "docs" / "tables.md").read_text()
    quoted = re.search(r"exact infinite-deck value, (-[\d.]+)%", doc)
    assert quoted is not None and quoted.group(1) == f"{100 * float(exact):.4f}"


def _lim17_infinite_deck_ev() -> Fraction:
    """Exact EV of hit-below-17 vs an S17 dealer (peek, 3:2), infinite deck. Both the
    player and the dealer draw to 17 or more, so one recursion serves both."""
    p = {v: Fraction(1, 13) for v in range(1, 10)}
    p[10] = Fraction(4, 13)

    @functools.cache
    def final(total: int, soft: bool) -> tuple[tuple[int, Fraction], ...]:
        best = total + 10 if soft and total + 10 <= 21 else total
        if best > 21 or best >= 17:
            return ((min(best, 22), Fraction(1)),)
        out: dict[int, Fraction] = {}
        for v, pv in p.items():
            for t, q in final(total + v, soft or v == 1):
                out[t] = out.get(t, Fraction(0)) + pv * q
        return tuple(out.items())

    def settle(mine: int, dealer: int) -> int:
        if mine > 21:
            return -1
        return 1 if dealer > 21 or mine > dealer else (0 if mine == dealer else -1)

    ev = Fraction(0)
    for a, b, up, hole in itertools.product(p, repeat=4):
        w = p[a] * p[b] * p[up] * p[hole]
        player_nat = {a, b} == {1, 10}
        dealer_nat = {up, hole} == {1, 10}
        if player_nat and dealer_nat:
            continue
        if player_nat or dealer_nat:
            ev += w * (Fraction(3, 2) if player_nat else -1)
            continue
        for mine, qp in final(a + b, 1 in (a, b)):
            for dealer, qd in final(up + hole, 1 in (up, hole)):
                ev += w * qp * qd * settle(mine, dealer)
    return ev


def _strict(text: str) -> object:
    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_one_hand_has_no_interval_and_stays_strict_json(cli):
    status, out, _ = cli("sim", "--hands", "1", "--seed", "1", "--json")
    assert status == 0 and _strict(out)["ci95"] is None
    status, out, _ = cli("sim", "--hands", "1", "--seed", "1")
    assert status == 0 and "95% CI needs 2 hands or more" in out and "inf" not in out


def test_a_strategy_that_raises_stops_the_simulation_with_its_name(manager):
    from croupier.engine import CroupierError
    from croupier.plugins.blackjack.simulate import simulate

    broken = Strategy("broken", "divides by zero", play=lambda hand, upcard, legal: 1 // 0)
    rules = manager.rule_sets.get("vegas-s17").rules
    with pytest.raises(CroupierError, match="strategy 'broken' failed: ZeroDivisionError"):
        simulate(manager, rules, broken, 100, 1, seed=1)


def test_the_header_shows_every_override_and_chips_is_refused(cli):
    argv = ["sim", "--hands", "1e3", "--seed", "1", "--decks", "2", "--h17", "--no-das"]
    argv += ["--surrender", "none", "--payout", "6:5"]
    status, out, _ = cli(*argv)
    assert status == 0
    header = out.splitlines()[0]
    assert header.startswith(
        "vegas-s17 with decks 2, dealer h17, double_after_split no, surrender none, "
        "blackjack_pays 6:5, strategy lim17"
    )
    assert "1,000 initial hands" in header
    data = json.loads(cli(*argv, "--json")[1])
    assert data["overrides"] == {
        "decks": 2,
        "dealer": "h17",
        "double_after_split": False,
        "surrender": "none",
        "blackjack_pays": "6:5",
    }
    assert json.loads(cli("sim", "--hands", "10", "--seed", "1", "--json")[1])["overrides"] == {}
    status, _, err = cli("sim", "--hands", "3", "--chips", "5")
    assert status == 1 and "--chips does not apply to croupier sim" in err
    for bad in ("1.5", "0", "-1", "1e9x", "inf"):
        status, _, err = cli("sim", "--hands", bad)
        assert status == 2 and "expected a positive whole number" in err


def test_sim_deals_from_a_continuous_shuffler_on_request(cli):
    """--shoe fresh-pack deals every round from a freshly shuffled shoe: the game the
    solver's edge describes (no cut-card effect)."""
    argv = ("sim", "--hands", "2000", "--seed", "3", "--strategy", "basic", "--json")
    status, out, err = cli(*argv, "--shoe", "fresh-pack")
    assert status == 0, err
    data = json.loads(out)
    assert data["options"]["shoe"] == "fresh-pack" and data["overrides"] == {"shoe": "fresh-pack"}
    assert data["engine"] == "compiled"
    assert json.loads(cli(*argv)[1])["net_chips"] != data["net_chips"]
    status, _, err = cli("sim", "--shoe", "csm")
    assert status == 2 and "argument --shoe: invalid choice: 'csm'" in err


@pytest.mark.parametrize(
    ("ci95", "digits"),
    [
        (None, 2),
        ([-0.08, 0.06], 2),  # half-width 7%
        ([-0.0455, -0.0313], 2),  # 0.71%
        ([-0.00455, -0.00313], 3),  # 0.071%: the third decimal
        ([-0.003671, -0.003530], 4),  # 0.0071% (1e9 hands)
        ([-0.0036001, -0.0035999], 4),  # never more than four
    ],
)
def test_the_result_shows_the_digits_its_interval_resolves(ci95, digits):
    from croupier.clients.cli.commands.sim import _digits

    assert _digits(ci95) == digits


def _round(*nets):
    from types import SimpleNamespace

    seats = [
        SimpleNamespace(present=True, net=n, natural=0, busts=0, doubles=0, splits=0) for n in nets
    ]
    return SimpleNamespace(seats=seats)


def test_seats_that_move_together_get_one_seats_interval():
    """Seats share the dealer's hand. Two seats winning and losing together carry the
    information of one: the interval must be one seat's, not sqrt(2) narrower."""
    from croupier.plugins.blackjack.simulate import SimStats

    one, two = SimStats(10), SimStats(10)
    for k in range(1000):
        result = 10 if k % 3 == 0 else -10
        one.add_round(_round(result))
        two.add_round(_round(result, result))
    a, b = one.report(), two.report()
    assert a["mean"] == b["mean"] == pytest.approx(-0.332)  # 334 wins, 666 losses
    assert b["ci95"] == pytest.approx(a["ci95"])
    assert a["sd"] == pytest.approx(b["sd"], rel=1e-3) and a["sd"] == pytest.approx(
        (8 / 9) ** 0.5, rel=1e-2
    )
    assert a["per_100_hands"] == pytest.approx(100 * a["mean"])
    # seats that move against each other cancel out: no spread of rounds at all
    opposite = SimStats(10)
    for k in range(1000):
        opposite.add_round(_round(10, -10) if k % 2 else _round(-10, 10))
    assert opposite.report()["ci95"] == [0.0, 0.0]
