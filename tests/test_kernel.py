"""The compiled kernel deals and plays exactly as the engine's own round does.

The engine's ``TableCore`` is given a shoe shuffled by the kernel's documented recipe
(tests/kernel_reference.py, plain Python), so both deal the same cards; every total of a
chunk must then be equal: not close, equal.
"""

from __future__ import annotations

import pytest

from croupier.engine import PluginManager
from croupier.engine.chunks import CHUNK, chunk_seed, run_chunks
from croupier.engine.executor import open_executor
from croupier.plugins.blackjack.building import resolve_rules
from croupier.plugins.blackjack.round import TableCore
from croupier.plugins.blackjack.simulate import BANKROLL, SimStats, run_rounds
from croupier.plugins.blackjack.strategy import local_strategy
from tests.kernel_reference import SplitMixShoe

STATS = ("hands", "net", "net_sq", "round_net_sq", "wins", "pushes", "losses")
RATES = ("naturals", "busts", "doubles", "splits")


@pytest.fixture(scope="module")
def manager():
    return PluginManager(autoload=False)


def engine_totals(manager, rules, strategy, key, rounds, seats):
    dealer, scheme = resolve_rules(manager, rules)
    fresh = rules.shoe == "fresh-pack"
    shoe = SplitMixShoe(key, rules.decks, rules.penetration, fresh)
    core = TableCore(rules, dealer, scheme, shoe, [BANKROLL] * seats, keep_entries=False)
    stats = SimStats(rules.min_bet)
    run_rounds(core, [strategy] * seats, rounds, stats.add_round)
    return {name: getattr(stats, name) for name in STATS + RATES}


def kernel_totals(manager, rules, strategy, key, rounds, seats):
    job = manager.sim_kernels.get("blackjack").prepare(manager, rules, strategy, seats)
    assert not isinstance(job, str), job
    values = dict(zip(job.fields, job.run(job.data, key, rounds), strict=True))
    assert values["house"] == -values["net"]
    return {name: values[name] for name in STATS + RATES}


CASES = [
    ("vegas-s17", {}, "basic", 1),
    ("vegas-h17", {}, "basic", 3),
    ("single-deck", {}, "basic", 2),
    ("downtown-h17-6to5", {}, "basic", 1),
    pytest.param(  # doubling restricted, as "9-11" below; no surrender, as koth's rules
        "vegas-s17",
        {"decks": 2, "double": "10-11", "surrender": "none"},
        "basic",
        2,
        marks=pytest.mark.slow,
    ),
    ("vegas-s17", {"decks": 1, "penetration": 1.0}, "lim17", 7),  # runs dry in rounds
    ("vegas-s17", {"peek": False, "surrender": "early"}, "basic", 2),
    pytest.param(  # the one slow case: the engine splits up to 8 hands, round by round
        "vegas-s17",
        {"resplit_aces": True, "hit_split_aces": True, "max_split_hands": 8},
        "basic",
        1,
        marks=pytest.mark.slow,
    ),
    ("vegas-h17", {"double_after_split": False, "max_split_hands": 2}, "basic", 2),
    ("vegas-s17", {"double": "9-11"}, "never-bust", 4),
    ("vegas-h17", {"decks": 8, "penetration": 0.5}, "mimic-dealer", 5),
    ("single-deck", {"shoe": "fresh-pack"}, "basic", 3),
]


@pytest.mark.parametrize(("rule_set", "options", "strategy", "seats"), CASES)
def test_a_chunk_equals_the_engine_round_for_round(manager, rule_set, options, strategy, seats):
    rules = manager.rule_sets.get(rule_set).rules.evolve(**options)
    played = local_strategy(manager, strategy, rules)
    for key in (1, 2**64 - 1):
        rounds = 3000 // seats
        engine = engine_totals(manager, rules, played, key, rounds, seats)
        kernel = kernel_totals(manager, rules, played, key, rounds, seats)
        assert kernel == engine
        assert engine["hands"] == rounds * seats


def test_the_kernel_refuses_what_it_cannot_play_exactly(manager):
    kernel = manager.sim_kernels.get("blackjack")
    koth = manager.rule_sets.get("koth").rules
    assert "shoe" in kernel.prepare(manager, koth, local_strategy(manager, "lim17", koth), 1)
    classic = manager.rule_sets.get("classic").rules
    assert "dealer rule 'classic'" in kernel.prepare(
        manager, classic, local_strategy(manager, "lim17", classic), 1
    )
    s17 = manager.rule_sets.get("vegas-s17").rules
    lim17 = local_strategy(manager, "lim17", s17)
    assert "dealer rule 'koth'" in kernel.prepare(manager, s17.evolve(dealer="koth"), lim17, 1)
    assert "betting scheme 'koth'" in kernel.prepare(manager, s17.evolve(betting="koth"), lim17, 1)
    from croupier.plugins.blackjack.strategy import Strategy

    odd = Strategy("odd", "hits on even totals", lambda hand, up, legal: "hit")
    assert "not given as a chart" in kernel.prepare(manager, s17, odd, 1)


def test_a_run_is_the_same_on_one_process_or_two(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    job = manager.sim_kernels.get("blackjack").prepare(
        manager, rules, local_strategy(manager, "lim17", rules), 2
    )
    rounds = 2 * CHUNK + 1234
    one = run_chunks(job, 99, rounds)
    with open_executor(workers=2) as executor:
        two = run_chunks(job, 99, rounds, executor=executor)
    assert one == two and not one.partial and one.rounds == rounds
    assert one.totals["hands"] == 2 * rounds
    # chunk i is dealt from its own seed: the first chunk alone is the kernel's own run
    first = dict(zip(job.fields, job.run(job.data, chunk_seed(99, 0), CHUNK), strict=True))
    assert run_chunks(job, 99, CHUNK).totals == first


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", ["vegas-s17", "vegas-h17", "single-deck", "downtown-h17-6to5"])
def test_basic_earns_the_solvers_edge_from_a_fresh_shoe(manager, rule_set):
    """Dealt from a freshly shuffled shoe every round, the chart's result per hand is the
    solver's exact total-dependent edge (no cut-card effect): within 3.5 standard errors
    of 4 million hands (about 0.2% of the bet)."""
    from croupier.plugins.blackjack.solver import solve_rules

    rules = manager.rule_sets.get(rule_set).rules.evolve(shoe="fresh-pack")
    edge = solve_rules(manager.rule_sets.get(rule_set).rules).edge_td
    job = manager.sim_kernels.get("blackjack").prepare(
        manager, rules, local_strategy(manager, "basic", rules), 1
    )
    with open_executor(workers=2) as executor:
        totals = run_chunks(job, 2026, 4_000_000, executor=executor).totals
    n, bet = totals["hands"], rules.min_bet
    mean = totals["net"] / n / bet
    sd = ((totals["net_sq"] / n - (totals["net"] / n) ** 2) ** 0.5) / bet
    assert abs(mean + edge) < 3.5 * sd / n**0.5


def test_a_shoe_dry_with_nothing_to_reshuffle_ends_the_chunk_as_it_ends_the_engine(manager):
    """Seven seats that hit everything and split every pair can run a single fresh deck dry
    within a round, with no cards dealt before it to reshuffle: the engine's round raises,
    and the kernel's chunk is all -1. Chunks that never run dry are equal."""
    from croupier.engine.errors import CroupierError
    from croupier.plugins.blackjack.kernels import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, PlayTable
    from croupier.plugins.blackjack.strategy import Strategy

    rules = manager.rule_sets.get("vegas-s17").rules.evolve(
        decks=1, shoe="fresh-pack", resplit_aces=True, hit_split_aces=True, max_split_hands=8
    )
    table = PlayTable(
        {t: ["H"] * 10 for t in HARD_ROWS},
        {t: ["H"] * 10 for t in SOFT_ROWS},
        {r: ["P"] * 10 for r in PAIR_ROWS},
    )
    greedy = Strategy(
        "greedy",
        "splits every pair, hits everything else",
        lambda hand, up, legal: "split" if "split" in legal else "hit",
        table=table,
    )
    outcomes = []
    for key in range(1, 11):
        job = manager.sim_kernels.get("blackjack").prepare(manager, rules, greedy, 7)
        assert not isinstance(job, str), job
        try:
            engine = engine_totals(manager, rules, greedy, key, 20, 7)
        except CroupierError as exc:
            assert "ran out" in str(exc)
            assert list(job.run(job.data, key, 20)) == [-1] * len(job.fields)
            outcomes.append("dry")
        else:
            assert kernel_totals(manager, rules, greedy, key, 20, 7) == engine
            outcomes.append("played")
    assert "dry" in outcomes and "played" in outcomes


@pytest.mark.parametrize(("rule_set", "options", "strategy", "seats"), CASES)
def test_a_short_run_plays_the_kernels_chunk_in_plain_python(
    manager, rule_set, options, strategy, seats
):
    """The job's plain chunk (the round engine on the kernel's shoe, for runs too short to
    pay for loading compiled code) returns every total the kernel returns, shuffles and
    the house's net included; the driver takes it for runs up to ``plain_up_to`` rounds."""
    import attrs

    rules = manager.rule_sets.get(rule_set).rules.evolve(**options)
    played = local_strategy(manager, strategy, rules)
    job = manager.sim_kernels.get("blackjack").prepare(manager, rules, played, seats)
    assert job.plain is not None and job.plain_up_to * seats <= 20_000
    assert (job.plain_up_to == 0) == (rules.shoe == "fresh-pack")  # shuffled every round
    for key in (3, 2**64 - 2):
        rounds = 1200 // seats
        assert list(job.plain(key, rounds)) == list(job.run(job.data, key, rounds))
    short = min(job.plain_up_to, 1500 // seats)
    compiled = attrs.evolve(job, plain=None)
    assert run_chunks(job, 5, short) == run_chunks(compiled, 5, short)


def test_a_short_run_whose_shoe_runs_dry_in_a_round_ends_as_the_kernels_does(manager, monkeypatch):
    """A shoe with nothing left to reshuffle mid-round: the kernel's chunk is all -1 (the
    driver then says the chunk could not be played), and so is the plain chunk's."""
    from croupier.engine import ShoeRanOut
    from croupier.plugins.blackjack.kernel import plain

    def dry(*args, **kwargs):
        raise ShoeRanOut("the shoe ran out of cards in one round; use more decks")

    rules = manager.rule_sets.get("single-deck").rules
    job = manager.sim_kernels.get("blackjack").prepare(
        manager, rules, local_strategy(manager, "lim17", rules), 7
    )
    monkeypatch.setattr(plain, "run_rounds", dry)
    assert list(job.plain(11, 50)) == [-1] * len(job.fields)
