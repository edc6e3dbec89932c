"""Betting and playing by the count on the compiled kernel, checked from first principles.

The count is recounted in Python over the engine's own round dealt from the kernel's
documented shuffle (tests/kernel_reference.py); the true count of a shuffled one-deck shoe
is compared with exact enumeration; a flat ramp without indices must give the count-free
kernel's totals exactly; deviations that are always taken must play as the chart they
write; and a run does not depend on the number of processes.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import attrs
import numpy as np
import pytest

from croupier.engine import PluginManager
from croupier.engine.chunks import CHUNK, run_chunks
from croupier.engine.counts import true_count
from croupier.engine.executor import open_executor
from croupier.plugins.blackjack.building import resolve_rules
from croupier.plugins.blackjack.counting import TCS, CountPlay, parse_ramp
from croupier.plugins.blackjack.indices import read_indices
from croupier.plugins.blackjack.kernel.count_data import params
from croupier.plugins.blackjack.kernel.true_count import dealt_true_counts
from croupier.plugins.blackjack.kernels import PlayTable, play_table
from croupier.plugins.blackjack.round import TableCore
from croupier.plugins.blackjack.simulate import BANKROLL, compiled_job, run_rounds
from croupier.plugins.blackjack.strategy import Strategy, local_strategy
from tests.kernel_reference import SplitMixShoe

SLOW = pytest.mark.slow


@pytest.fixture(scope="module")
def manager():
    return PluginManager(autoload=False)


def counted(manager, rules, strategy, play, key, rounds, seats=1):
    job = compiled_job(manager, rules, strategy.for_rules(rules), seats, play)
    return dict(zip(job.fields, job.run(job.data, key, rounds), strict=True))


def python_recount(manager, rules, strategy, system, key, rounds, seats):
    """Rounds and the table's net by true-count bucket, counted in Python: each round's
    true count from the running count of every card of the shoe's earlier rounds."""
    dealer, scheme = resolve_rules(manager, rules)
    shoe = SplitMixShoe(key, rules.decks, rules.penetration, False)
    core = TableCore(rules, dealer, scheme, shoe, [BANKROLL] * seats, keep_entries=False)
    tags = system.card_tags()
    n_cards = rules.decks * 52
    state = {"rc": 0, "shuffles": 0}
    rounds_by, net_by = Counter(), Counter()

    def after(core):
        if shoe.shuffles != state["shuffles"]:  # shuffled as this round began
            state["rc"], state["shuffles"] = system.irc(rules.decks), shoe.shuffles
        tc = true_count(state["rc"], n_cards - shoe._round_start, system, rules.decks)
        bucket = min(max(math.floor(tc), TCS[0]), TCS[-1])
        rounds_by[bucket] += 1
        net_by[bucket] += sum(seat.net for seat in core.seats)
        state["rc"] += sum(tags[c] for c in shoe._cards[shoe._round_start : shoe._pos])

    run_rounds(core, [strategy.for_rules(rules)] * seats, rounds, after)
    return rounds_by, net_by


@pytest.mark.parametrize(
    ("count", "evolve", "decks", "seats"),
    [
        ("hilo", {}, 6, 1),
        ("red7", {}, 6, 2),
        # the other systems, resolutions and roundings: the same kernel code, given other
        # tags and params (each reading of every system is checked exactly, and fast, in
        # tests/test_true_count_exact.py)
        pytest.param("halves", {}, 2, 3, marks=SLOW),
        pytest.param("ko", {"resolution": "half", "rounding": "round"}, 8, 1, marks=SLOW),
        pytest.param("zen", {"resolution": "whole", "rounding": "truncate"}, 1, 2, marks=SLOW),
        pytest.param("omega2", {"rounding": "none"}, 4, 1, marks=SLOW),
    ],
)
def test_the_kernels_count_is_a_python_recount_of_the_same_shoe(
    manager, count, evolve, decks, seats
):
    system = attrs.evolve(manager.count_systems.get(count), **evolve)
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=decks)
    basic = local_strategy(manager, "basic", rules)
    rounds_by, net_by = python_recount(manager, rules, basic, system, 7, 2000, seats)
    got = counted(manager, rules, basic, CountPlay(system), 7, 2000, seats)
    assert len(rounds_by) > 3
    for t in TCS:
        assert got[f"tc{t:+d}_rounds"] == rounds_by[t], t
        assert got[f"tc{t:+d}_flat_net"] == net_by[t], t


def exact_true_counts(system, dealt):
    """P(true count) after ``dealt`` cards of one fully shuffled deck: every subset."""
    tags = system.card_tags()
    out: Counter = Counter()
    for cards in itertools.combinations(range(52), dealt):
        rc = system.irc(1) + sum(tags[c] for c in cards)
        out[true_count(rc, 52 - dealt, system, 1)] += 1
    total = math.comb(52, dealt)
    return {tc: n / total for tc, n in out.items()}


@pytest.mark.parametrize(("count", "dealt"), [("hilo", 3), ("red7", 3), ("halves", 4)])
def test_true_counts_of_a_shuffled_deck_match_exact_enumeration(manager, count, dealt):
    system = manager.count_systems.get(count)
    exact = exact_true_counts(system, dealt)
    shoes = 200_000
    p = np.asarray(params(CountPlay(system), 1, False), np.float64)
    tags = np.asarray(system.card_tags(), np.int64)
    seen = Counter(dealt_true_counts(1, dealt, shoes, np.uint64(18), p, tags).tolist())
    assert set(seen) <= set(exact)  # no true count the deck cannot read
    chi2 = sum((seen[tc] - shoes * q) ** 2 / (shoes * q) for tc, q in exact.items())
    # the bound is above the 1e-6 quantile of chi-square with len(exact) - 1 degrees of
    # freedom for these 7 and 12 classes (about 36 and 48); the seed is fixed, so the test
    # cannot flake. Seen: 10.8, 12.8, 17.6 here; 8.3, 7.6, 6.0 with 2,000,000 shoes
    assert chi2 < 3 * len(exact) + 20, (chi2, len(exact))


CASES = [
    ("vegas-s17", {}, "basic", 1),
    ("single-deck", {}, "basic", 2),
    ("vegas-s17", {"decks": 1, "penetration": 1.0}, "lim17", 7),  # runs dry in rounds
    ("single-deck", {"shoe": "fresh-pack"}, "basic", 3),
    # rules whose play the count-free kernel matches round for round in the fast tier
    # (tests/test_kernel.py); here each costs a chart solved and a kernel compiled
    pytest.param("vegas-h17", {}, "basic", 3, marks=SLOW),
    pytest.param("downtown-h17-6to5", {}, "basic", 1, marks=SLOW),
    pytest.param("vegas-s17", {"peek": False, "surrender": "early"}, "basic", 2, marks=SLOW),
]


@pytest.mark.parametrize(("rule_set", "options", "strategy", "seats"), CASES)
def test_a_flat_ramp_without_indices_is_the_count_free_kernel(
    manager, rule_set, options, strategy, seats
):
    rules = manager.rule_sets.get(rule_set).rules.evolve(**options)
    played = local_strategy(manager, strategy, rules).for_rules(rules)
    flat = compiled_job(manager, rules, played, seats)
    plain = dict(zip(flat.fields, flat.run(flat.data, 99, 3000 // seats), strict=True))
    for count in ("hilo", "red7"):
        play = CountPlay(manager.count_systems.get(count))
        got = counted(manager, rules, played, play, 99, 3000 // seats, seats)
        assert {k: got[k] for k in plain} == plain
        assert sum(got[f"tc{t:+d}_ramp_net"] for t in TCS) == plain["net"]
        assert sum(got[f"tc{t:+d}_ramp_sq"] for t in TCS) == plain["round_net_sq"]
        assert sum(got[f"tc{t:+d}_bet"] for t in TCS) == plain["hands"] * rules.min_bet


def test_a_ramp_scales_each_rounds_result_by_its_bet(manager):
    rules = manager.rule_sets.get("vegas-s17").rules  # min bet 10: every payout whole
    basic = local_strategy(manager, "basic", rules)
    hilo = manager.count_systems.get("hilo")
    got = counted(manager, rules, basic, CountPlay(hilo, parse_ramp("<=0:1,1:3,2+:5")), 5, 20_000)
    for t in TCS:
        units = 1 if t <= 0 else 3 if t == 1 else 5
        assert got[f"tc{t:+d}_ramp_net"] == units * got[f"tc{t:+d}_flat_net"]
        assert got[f"tc{t:+d}_ramp_sq"] == units**2 * got[f"tc{t:+d}_flat_sq"]
        assert got[f"tc{t:+d}_bet"] == units * rules.min_bet * got[f"tc{t:+d}_rounds"]


def test_wonging_sits_out_below_the_exit_and_back_in_at_the_entry(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules)
    hilo = manager.count_systems.get("hilo")
    got = counted(manager, rules, basic, CountPlay(hilo, wong_in=1, wong_out=-1), 3, 20_000)
    base = counted(manager, rules, basic, CountPlay(hilo), 3, 20_000)
    for t in TCS:
        assert got[f"tc{t:+d}_rounds"] == base[f"tc{t:+d}_rounds"]  # the same cards
        if t < -1:
            assert got[f"tc{t:+d}_played"] == 0
        if t >= 1:
            assert got[f"tc{t:+d}_played"] == got[f"tc{t:+d}_rounds"]
    dealt = sum(got[f"tc{t:+d}_rounds"] for t in TCS)
    played = sum(got[f"tc{t:+d}_played"] for t in TCS)
    assert 0 < played < dealt


def changed(table: PlayTable, *cells: tuple[str, int, int, str]) -> PlayTable:
    rows = {k: dict(getattr(table, k)) for k in ("hard", "soft", "pairs")}
    for kind, key, up, letter in cells:
        row = list(rows[kind][key])
        row[up] = letter
        rows[kind][key] = row
    return PlayTable(rows["hard"], rows["soft"], rows["pairs"])


def test_deviations_always_taken_play_as_the_chart_they_write(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    hilo = manager.count_systems.get("hilo")
    table = play_table(basic)
    # (index rows, chart cells the deviations write): up index 9 is a ten, 0 an ace; pairs
    # by rank index (7,7 is 6)
    cases = [
        # a stand index keeps basic strategy's surrender of 16 v T (Rh becomes Rs)
        ("stand,16,T,-99,+", [("hard", 16, 9, "Rs")]),
        ("stand,15,T,-99,+\nstand,16,9,-99,+", [("hard", 15, 9, "Rs"), ("hard", 16, 8, "Rs")]),
        ("hit,12,4,99,-", [("hard", 12, 3, "H")]),
        ("hit,s18,3,99,-", [("soft", 18, 2, "Dh")]),  # hit where it would not double
        ("double,11,A,-99,+", [("hard", 11, 0, "Dh")]),
        ("double,11,5,99,+", [("hard", 11, 4, "H")]),  # never taken: 11 v 5 hits
        ("split,TT,6,-99,+", [("pairs", 9, 5, "P")]),
        # never split: as hard 16 v T (surrender, else hit)
        ("split,88,T,99,+", [("pairs", 7, 9, table.hard[16][9])]),
        ("surrender,15,T,99,+", [("hard", 15, 9, "H")]),  # never surrender: hit
        ("surrender,14,T,-99,+", [("hard", 14, 9, "Rh"), ("pairs", 6, 9, "Rh")]),  # 7,7 too
        # a hard total's index plays the pair of that total when it is not split
        ("double,10,T,-99,+", [("hard", 10, 9, "Dh"), ("pairs", 4, 9, "Dh")]),
        ("stand,14,T,-99,+", [("hard", 14, 9, "S"), ("pairs", 6, 9, "S")]),
        # a declined split plays the total's letter with the total's index
        ("split,88,T,99,+\nstand,16,T,-99,+", [("pairs", 7, 9, "Rs"), ("hard", 16, 9, "Rs")]),
        # surrender settled by its index, stand or hit by the stand index
        ("stand,15,T,-99,+\nsurrender,15,T,99,+", [("hard", 15, 9, "S")]),
    ]
    for line, cells in cases:
        indices = tuple(read_indices("decision,hand,upcard,index,direction\n" + line))
        mine = Strategy("changed", "", table=changed(table, *cells))
        flat = compiled_job(manager, rules, mine, 2)
        expect = flat.run(flat.data, 11, 20_000)
        got = counted(manager, rules, basic, CountPlay(hilo, indices=indices), 11, 20_000, 2)
        assert [got[k] for k in flat.fields] == list(expect), line


def test_insurance_by_index_keeps_the_books_and_pays_two_to_one(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules)
    hilo = manager.count_systems.get("hilo")
    always = tuple(read_indices("decision,hand,upcard,index,direction\ninsurance,any,A,-99,+"))
    got = counted(manager, rules, basic, CountPlay(hilo, indices=always), 4, 50_000)
    base = counted(manager, rules, basic, CountPlay(hilo), 4, 50_000)
    assert got["house"] == -got["net"]
    assert got["hands"] == base["hands"] and got["naturals"] == base["naturals"]
    # insuring every ace up costs about a third of half a bet per ace (4/13 tens left)
    cost = (base["net"] - got["net"]) / rules.min_bet / 50_000
    assert 0.0 < cost < 0.02


def test_a_counting_run_is_the_same_on_one_process_or_two(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    hilo = manager.count_systems.get("hilo")
    indices = tuple(read_indices("decision,hand,upcard,index,direction\nstand,16,T,0,+"))
    play = CountPlay(hilo, parse_ramp("<=1:1,2:2,3:4,4:6,5+:8"), 1.0, -1.0, indices)
    job = compiled_job(manager, rules, basic, 1, play)
    rounds = CHUNK + 1000
    one = run_chunks(job, 2024, rounds)
    with open_executor(workers=2) as executor:
        two = run_chunks(job, 2024, rounds, executor=executor)
    assert one.totals == two.totals and one.rounds == two.rounds == rounds


def test_spots_at_a_count_deal_that_many_seats(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules)
    hilo = manager.count_systems.get("hilo")
    ramp = parse_ramp("<=1:1,2:2,3+:4")
    one = counted(manager, rules, basic, CountPlay(hilo, ramp), 8, 5000, 1)
    never = counted(manager, rules, basic, CountPlay(hilo, ramp, spots_at=(99, 3)), 8, 5000, 1)
    assert never == one
    three = counted(manager, rules, basic, CountPlay(hilo, ramp), 8, 5000, 3)
    always = counted(manager, rules, basic, CountPlay(hilo, ramp, spots_at=(-99, 3)), 8, 5000, 1)
    assert always == three
    some = counted(manager, rules, basic, CountPlay(hilo, ramp, spots_at=(2, 2)), 8, 5000, 1)
    assert 5000 < some["hands"] < 10_000 and some["house"] == -some["net"]
