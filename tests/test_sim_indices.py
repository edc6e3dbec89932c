"""Playing indices by simulation, against the exact generator and from first principles.

The simulated gain at each true count (read at the round's start, as the exact
generator's shoes are) must agree with the exact solver's gain of the mean shoe at that
reading within the simulation's interval; the crossing fit must find the zero of a line
it is given; a run must not depend on the number of processes; the CSV written must be
the one ``--indices`` reads.
"""

from __future__ import annotations

import json
import math

import pytest

from croupier.engine import PluginManager
from croupier.engine.chunks import CHUNK, run_chunks
from croupier.engine.executor import open_executor
from croupier.plugins.blackjack.counting import TCS
from croupier.plugins.blackjack.indices import read_indices
from croupier.plugins.blackjack.kernel.index_data import prepare_indices
from croupier.plugins.blackjack.sim_indices import (
    STATS,
    TC_SCALE,
    IndexSim,
    analyse,
    index_fields,
    simulate_indices,
)
from croupier.plugins.blackjack.solver.count_gains import Decision, upcard_gains
from croupier.plugins.blackjack.solver.count_shoes import count_shoes
from croupier.plugins.blackjack.strategy import local_strategy

KEYS = (
    ("insurance", "any", "A"),
    ("stand", "16", "T"),
    ("double", "11", "6"),
    ("split", "88", "T"),
    ("surrender", "15", "T"),
    ("stand", "12", "3"),
)


@pytest.fixture(scope="module")
def manager():
    return PluginManager(autoload=False)


@pytest.mark.slow
def test_simulated_gains_agree_with_the_exact_solver(manager):
    """Two decks, Hi-Lo, 2M rounds read at the round's start: at every reading with 1500
    samples or more, the simulated mean gain is within 4 standard errors (and a 0.01
    allowance for the mean shoe's approximation, docs/counting.md) of the exact gain of
    that reading's mean shoe, and the z-scores are not too spread."""
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=2)
    hilo = manager.count_systems.get("hilo")
    run = simulate_indices(manager, rules, IndexSim(hilo, KEYS, reading="round"), 2_000_000, 21)
    shoes = count_shoes(hilo, 2, penetration=rules.penetration)
    zs = []
    for key, found in zip(KEYS, run.found, strict=True):
        kind, hand, up = key
        decision = Decision(kind, hand, "A23456789T".index(up))
        for r in found.readings:
            if r.n < 1500 or r.tc not in shoes or min(shoes[r.tc].shoe) < 2:
                continue
            exact = upcard_gains(rules, shoes[r.tc].shoe, decision.upcard, [decision])[decision]
            assert abs(r.gain - exact) <= 4 * r.se + 0.01, (key, r, exact)
            assert abs(r.mean_tc - shoes[r.tc].mean_true_count) < 0.1, (key, r)
            zs.append((r.gain - exact) / r.se)
    assert len(zs) >= 30
    assert sum(z * z for z in zs) / len(zs) < 2.5, zs
    assert run.forks_dry == 0 and run.rounds == 2_000_000


def test_the_crossing_is_the_zero_of_the_line():
    """Totals made from a known line: gain = 0.02 (tc - 1.3), 10^4 samples a reading."""
    sim = IndexSim(PluginManager().count_systems.get("hilo"), (("stand", "16", "T"),))
    totals = dict.fromkeys(index_fields(1), 0)
    for tc in TCS:
        if not -5 <= tc <= 6:
            continue
        n, x = 10_000, tc + 0.5
        gain = 0.02 * (x - 1.3)
        half_units = round(2 * gain * n)
        totals.update(
            zip(
                (f"0:{tc:+d}:{s}" for s in STATS),
                (n, half_units, 4 * n, round(x * TC_SCALE * n)),  # SD about 1 a hand
                strict=True,
            )
        )
    (found,) = analyse(totals, sim)
    assert found.direction == "+" and found.index == 1  # reading 1's mean 1.5 >= 1.3
    assert math.isclose(found.crossing, 1.3, abs_tol=0.02)
    low, high = found.interval
    assert low < 1.3 < high and high - low < 1.0
    flipped = {k: (-v if k.endswith(":sum") else v) for k, v in totals.items()}
    (down,) = analyse(flipped, sim)
    assert down.direction == "-" and down.index == 0  # reading 0's mean 0.5 <= 1.3


@pytest.mark.slow
def test_a_run_is_the_same_on_one_process_or_two(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    sim = IndexSim(manager.count_systems.get("halves"), KEYS)
    job = prepare_indices(manager, rules, basic, sim)
    assert not isinstance(job, str)
    rounds = CHUNK + 1000
    one = run_chunks(job, 2026, rounds)
    with open_executor(workers=2) as executor:
        two = run_chunks(job, 2026, rounds, executor=executor)
    assert one.totals == two.totals and one.totals["rounds"] == rounds
    assert one.totals != run_chunks(job, 2027, rounds).totals


def test_the_cli_writes_the_csv_sim_reads(cli, tmp_path):
    out = tmp_path / "hilo-sim.csv"
    status, text, err = cli(
        "solve", "blackjack", "--indices", "hilo", "--only", "stand 16 T,insurance any A",
        "--by-sim", "--hands", "3e6", "--seed", "5", "--workers", "1", "--out", str(out),
        "--json",
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(text)
    simulated = data["simulated"]
    assert simulated["seed"] == 5 and simulated["rounds"] == 3_000_000
    assert {x["decision"] for x in data["exact"]["indices"]} == {"stand", "insurance"}
    entries = read_indices(out.read_text())
    assert [(e.decision, e.hand, e.upcard, e.index, e.direction) for e in entries] == [
        (x["decision"], x["hand"], x["upcard"], x["index"], x["direction"])
        for x in simulated["indices"]
    ]
    assert "--seed 5" in out.read_text()
    assert {e.decision for e in entries} == {"stand", "insurance"}
    insurance = next(x for x in simulated["indices"] if x["decision"] == "insurance")
    assert 2 <= insurance["index"] <= 4  # Hi-Lo's +3, give or take the noise of 3M rounds
    status, _, err = cli("solve", "blackjack", "--hands", "10", "--indices", "hilo")
    assert status != 0 and "--by-sim" in err


def _dealer(up: int, hole: int, cards: list[int]) -> int:
    """S17 dealer's final total (22 for a bust) from ranks 1..10, drawing from ``cards``."""
    hard, ace = up + hole, 1 in (up, hole)
    while (total := hard + 10 if ace and hard <= 11 else hard) < 17:
        card = cards.pop(0)
        hard, ace = hard + card, ace or card == 1
    return total if total <= 21 else 22


def _settle(hands: list[int], dealer: int) -> int:
    return sum(1 if h > dealer or dealer == 22 else 0 if h == dealer else -1 for h in hands)


def test_a_fork_plays_the_shoe_as_a_python_reference(manager):
    """16 v T stood and hit, and T,T v 6 split with every ten split again (to four hands,
    each then standing), against a plain Python play of the same cards: equal, hand by
    hand, in half units."""
    import numpy as np

    from croupier.plugins.blackjack.kernel.data import chart_array, compiled_dealer, rules_vector
    from croupier.plugins.blackjack.kernel.index_kernel import HIT, SPLIT_A, STAND, _play_out
    from croupier.plugins.blackjack.kernel.kernel import _plans
    from croupier.plugins.blackjack.kernels import play_table

    rules = manager.rule_sets.get("vegas-s17").rules
    vector = np.array(rules_vector(rules, compiled_dealer(manager, "s17")), np.int64)
    chart = np.array(chart_array(play_table(local_strategy(manager, "basic", rules))), np.int64)
    plans = _plans(vector, chart)
    rank_of = np.array([min(k // 4, 9) for k in range(52)], np.int64)
    live = np.empty(8, np.int64)
    rng = np.random.default_rng(18)
    for _ in range(300):
        shoe = rng.permutation(np.arange(312) % 52).astype(np.int8)
        ranks = [int(rank_of[c]) + 1 for c in shoe]  # 1 (ace) .. 10
        hole = int(rank_of[shoe[0]])
        stood, _ = _play_out(
            vector, plans, shoe, rank_of, live, 1, 9, 5, 16, False, 9, hole, STAND, False
        )
        hit, _ = _play_out(
            vector, plans, shoe, rank_of, live, 1, 9, 5, 16, False, 9, hole, HIT, False
        )
        if hole == 0:
            continue  # an ace under the ten: a natural, peeked at, so no decision
        assert stood == 2 * _settle([16], _dealer(10, hole + 1, ranks[1:]))
        total = 16 + ranks[1] if ranks[1] > 1 else 17
        want = -1 if total > 21 else _settle([total], _dealer(10, hole + 1, ranks[2:]))
        assert hit == 2 * want
        split, _ = _play_out(
            vector, plans, shoe, rank_of, live, 1, 9, 9, 20, False, 5, hole, SPLIT_A, True
        )
        cards, hands, waiting = ranks[1:], [], 2  # two hands of one ten each
        while waiting:
            card = cards.pop(0)
            if card == 10 and len(hands) + waiting < 4:
                waiting += 1  # split again
                continue
            hands.append(10 + (11 if card == 1 else card))
            waiting -= 1
        assert split == 2 * _settle(hands, _dealer(6, hole + 1, cards))
