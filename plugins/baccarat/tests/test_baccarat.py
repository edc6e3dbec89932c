"""Baccarat: the tableau, the exact solver against brute force, the table, the simulator."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from functools import partial

import pytest

from croupier.engine import CroupierError
from croupier.engine.games import Turn
from croupier.engine.gamesim import simulate_game
from croupier.plugins.baccarat.core import BaccaratCore
from croupier.plugins.baccarat.solver import odds, shoe_counts
from croupier.plugins.baccarat.tableau import BACCARAT_VALUE, banker_draws, deal_coup


def test_card_values_are_pips_mod_ten():
    assert [BACCARAT_VALUE[4 * r] for r in range(13)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


def test_the_banker_draws_by_the_tableau():
    # the tableau written as a table: banker total -> player third-card values that draw
    draws = {
        0: set(range(10)),
        1: set(range(10)),
        2: set(range(10)),
        3: set(range(10)) - {8},
        4: {2, 3, 4, 5, 6, 7},
        5: {4, 5, 6, 7},
        6: {6, 7},
        7: set(),
    }
    for banker, thirds in draws.items():
        assert {t for t in range(10) if banker_draws(banker, t)} == thirds
        assert banker_draws(banker, None) == (banker <= 5)


def brute_force(cards: list[int]) -> dict[str, Fraction]:
    """Deal every ordering of six cards out of ``cards`` (distinct physical cards)."""
    tally: Counter[str] = Counter()
    total = 0
    for order in itertools.permutations(cards, 6):
        coup = deal_coup(iter(order).__next__)
        total += 1
        tally[coup.winner] += 1
        tally["six"] += coup.winner == "banker" and coup.banker_total == 6
    return {k: Fraction(v, total) for k, v in tally.items()}


@pytest.mark.parametrize(
    "cards",
    [
        [0, 4, 8, 12, 16, 20, 24, 28],  # A..8 of spades: naturals and every third-card case
        [36, 40, 44, 48, 4, 20, 32, 28],  # tens-rich: many zeros
        [28, 29, 30, 8, 12, 13, 21, 36],  # repeated values (8s, 4s)
        [20, 21, 22, 23, 24, 25, 16, 0],  # sixes and sevens: the banker stands on 6-7
    ],
)
def test_the_solver_equals_dealing_every_ordering_of_a_small_shoe(cards):
    counts = [0] * 10
    for card in cards:
        counts[BACCARAT_VALUE[card]] += 1
    exact = odds(counts)
    seen = brute_force(cards)
    assert exact.player == seen.get("player", 0)
    assert exact.banker == seen.get("banker", 0)
    assert exact.tie == seen.get("tie", 0)
    assert exact.banker_six == seen.get("six", 0)


def test_a_shoe_of_tens_always_ties():
    assert odds([20, 0, 0, 0, 0, 0, 0, 0, 0, 0]).tie == 1


def test_eight_decks_add_up_and_favour_the_banker():
    result = odds(shoe_counts(8))
    assert result.player + result.banker + result.tie == 1
    assert result.banker > result.player > result.tie > 0
    edges = result.edges()
    # the banker's win chance pays 19:20: an edge, but the smallest of the three
    assert 0 < edges["banker"] < edges["player"] < edges["tie"]
    assert edges["banker_no_commission"] > edges["banker"]


def test_the_solver_refuses_bad_shoes_in_one_line(manager):
    solver = manager.solvers.get("baccarat")
    for problem, message in [
        ({"counts": [1, 2]}, "ten counts"),
        ({"counts": [0] * 9 + [5]}, "a coup may need 6 cards"),
        ({"decks": 0}, "decks is a whole number from 1 to 64"),
        ({"deck": 8}, "unknown baccarat problem field(s): deck"),
        ({"tie_pays": True}, "tie_pays is a whole number"),
    ]:
        with pytest.raises(CroupierError, match=message.replace("(", r"\(").replace(")", r"\)")):
            solver.solve(problem)


def test_solve_baccarat_cli(cli):
    status, out, err = cli("solve", "baccarat", "--decks", "6", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["cards"] == 312
    assert Fraction(data["exact"]["edges"]["banker"]) == odds(shoe_counts(6)).edges()["banker"]
    status, out, _ = cli("solve", "baccarat")
    assert status == 0 and "banker (5% commission)" in out and "exactly " in out
    status, _, err = cli("solve", "baccarat", "--counts", "1,x")
    assert status == 1 and err.startswith("croupier: error: --counts is ten whole numbers")


@pytest.fixture
def baccarat(manager):
    return manager.games.get("baccarat")


def test_a_table_settles_every_bet_and_conserves_chips(baccarat):
    options = baccarat.rules()
    events = []
    core = BaccaratCore(options, 11, [1000, 1000, 1000], events.append)
    answers = [
        {"kind": "bet", "banker": 40},
        {"kind": "bet", "player": 20, "tie": 20},
        {"kind": "pass"},
    ]
    for _ in range(30):
        flow = core.play_round()
        turn = next(flow)
        try:
            while True:
                action = answers[turn.seat - 1]
                assert core.check(turn, action) is None
                turn = flow.send(action)
        except StopIteration as stop:
            assert stop.value is True
    assert core.ledger.conserved()
    assert core.chips(3) == 1000  # passed every coup
    coups = [e for e in events if e["kind"] == "coup"]
    assert len(coups) == 30 and all(e["text"] and e["round"] for e in events)
    wins = Counter(e["winner"] for e in coups)
    for seat, spot in ((1, "banker"),):
        won = wins[spot]
        sixes = sum(e["winner"] == "banker" and e["banker_total"] == 6 for e in coups)
        assert sixes <= won
        lost = 30 - won - wins["tie"]
        assert core.chips(seat) == 1000 + won * 38 - lost * 40  # 40 wins 38 at 19:20


def test_bets_are_checked(baccarat):
    options = baccarat.rules()
    core = BaccaratCore(options, 1, [100], None)
    check = partial(baccarat.refusal, options, core)  # the schema, then the game's rules
    turn = Turn(1, ("bet", "pass"), {}, {"kind": "pass"})
    assert check(turn, {"kind": "bet", "banker": 20}) is None
    assert "hit is not allowed now (legal: bet, pass)" in check(turn, {"kind": "hit"})
    assert "at least one spot" in check(turn, {"kind": "bet"})
    assert "from 20 to 2000 chips, not 10 on tie" in check(turn, {"kind": "bet", "tie": 10})
    assert "more than the seat's 100 chips" in check(
        turn, {"kind": "bet", "banker": 60, "player": 60}
    )
    assert "not dragon" in check(turn, {"kind": "bet", "dragon": 20})
    assert "whole number" in check(turn, {"kind": "bet", "banker": 20.5})


def test_rules_and_options(baccarat):
    assert baccarat.rules("no-commission")["commission"] == "none"
    with pytest.raises(CroupierError, match="has no option 'h17'"):
        baccarat.rules(None, {"h17": True})
    with pytest.raises(CroupierError, match="has no rule set 'vegas'"):
        baccarat.rules("vegas")
    with pytest.raises(CroupierError, match="commission is 5% or none"):
        baccarat.rules(None, {"commission": "2%"})
    schema = baccarat.schema()
    assert [a["kind"] for a in schema["actions"]] == ["bet", "pass"]
    assert set(schema["strategies"]) == {"player", "banker", "tie"}
    json.dumps(schema)  # plain data


@pytest.mark.slow
def test_simulated_bets_earn_the_exact_edges(baccarat):
    """20,000 coups per bet from a fixed seed: each within 3.5 standard errors of the
    solver's exact edge (the cut card changes baccarat's odds very little). A smoke size:
    that dealing every ordering of a small shoe gives the solver's odds exactly, and that a
    table settles every bet by the rules, are checked above."""
    edges = odds(shoe_counts(8)).edges()
    options = baccarat.rules()
    for spot in ("banker", "player", "tie"):
        report = simulate_game(baccarat, options, spot, 20_000, 1, 2024)
        assert report["conserved"] and report["hands"] == 20_000
        bet = options["min_bet"]
        se = report["sd"] / bet / report["hands"] ** 0.5
        assert abs(report["result_per_chip"] + float(edges[spot])) < 3.5 * se


def test_sim_game_cli_is_reproducible_across_workers(cli, monkeypatch):
    monkeypatch.setattr("croupier.engine.gamesim.GAME_CHUNK", 1000)  # three chunks, small ones
    argv = ("sim", "--game", "baccarat", "--hands", "2500", "--seed", "9", "--json")
    one = json.loads(cli(*argv, "--workers", "1")[1])
    two = json.loads(cli(*argv, "--workers", "2")[1])
    assert one.pop("ran_on") == "this process" and two.pop("ran_on") == "2 worker processes"
    assert one == two and one["strategy"] == "player" and one["conserved"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--set", "commission"), "--set takes NAME=VALUE"),
        (("--set", "commission=2%"), "commission is 5% or none, not '2%'"),
        (("--strategy", "lim17"), "baccarat has no strategy 'lim17'; known: player, banker, tie"),
        (("--engine", "compiled"), "baccarat has no compiled kernel"),
    ],
)
def test_sim_game_errors_are_one_line_before_a_seed(cli, argv, message):
    status, out, err = cli("sim", "--game", "baccarat", "--hands", "10", *argv)
    assert status == 1 and out == ""
    assert err == f"croupier: error: {err.split('error: ', 1)[1]}" and message in err
    assert err.count("\n") == 1


def test_an_unknown_game_names_the_known_ones(cli):
    status, _, err = cli("sim", "--game", "poker")
    assert status == 1 and "unknown game 'poker'; known: baccarat, blackjack" in err


def test_croupier_games_lists_them(cli):
    status, out, _ = cli("games", "--json")
    assert status == 0
    schema = next(g for g in json.loads(out) if g["name"] == "baccarat")
    assert schema["rule_sets"]["no-commission"] == {"commission": "none"}
    status, out, _ = cli("games", "baccarat")
    assert status == 0 and "rule sets: punto-banco, no-commission, six-deck" in out
    assert "blackjack" not in out
    status, _, err = cli("games", "poker")
    assert status == 1 and "known: baccarat, blackjack" in err
