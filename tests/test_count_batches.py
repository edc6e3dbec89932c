"""The counting kernel's totals against its own rounds, one by one: the per-shoe batch sums
(plugins/blackjack/kernel/count_batches.py) and the counter's figures on a simulated run.

A chunk of ``k`` rounds is the first ``k`` rounds of a longer chunk from the same seed, so the
difference of the totals of ``k`` and ``k - 1`` rounds is round ``k`` alone: its bucket, its
flat and ramp nets, whether it was played, and whether a shuffle came before it (a new shoe).
Summing each shoe's rounds by bucket gives the batch sums the kernel must report; the
rounds' own mean and SD give EV, SD, SCORE and N0 from their definitions.
"""

from __future__ import annotations

import math
from collections import defaultdict

import attrs
import pytest

from croupier.engine import PluginManager
from croupier.plugins.blackjack.count_report import count_report, n0, score
from croupier.plugins.blackjack.counting import TCS, CountPlay, parse_ramp
from croupier.plugins.blackjack.simulate import compiled_job
from croupier.plugins.blackjack.strategy import local_strategy

ROUNDS = 150


@pytest.fixture(scope="module")
def manager():
    return PluginManager(autoload=False)


@attrs.frozen
class Round:
    tc: int
    new_shoe: bool
    flat: int
    played: bool
    ramp: int


def kernel_rounds(job, key: int, rounds: int) -> tuple[list[Round], dict[str, int]]:
    """Each round of a chunk, from the totals of its prefixes; and the chunk's totals."""
    before = dict.fromkeys(job.fields, 0)
    out = []
    for k in range(1, rounds + 1):
        now = dict(zip(job.fields, job.run(job.data, key, k), strict=True))
        (t,) = [t for t in TCS if now[f"tc{t:+d}_rounds"] > before[f"tc{t:+d}_rounds"]]
        at = f"tc{t:+d}_"
        out.append(
            Round(
                t,
                now["shuffles"] > before["shuffles"],
                now[at + "flat_net"] - before[at + "flat_net"],
                now[at + "played"] > before[at + "played"],
                now[at + "ramp_net"] - before[at + "ramp_net"],
            )
        )
        before = now
    return out, before


@pytest.fixture(scope="module")
def run(manager):
    # two decks: about 17 rounds a shoe, and no shoe runs dry inside a round
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=2)
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    play = CountPlay(
        manager.count_systems.get("hilo"), parse_ramp("<=0:1,1:2,2:4,3+:8"), wong_out=-1
    )
    job = compiled_job(manager, rules, basic, 1, play)
    rounds, totals = kernel_rounds(job, 77, ROUNDS)
    return rules, rounds, totals


@pytest.mark.slow
def test_shoe_sums_are_the_sums_of_each_shoes_rounds(run):
    _, rounds, got = run
    shoes: list[list[Round]] = []
    for r in rounds:
        if r.new_shoe or not shoes:
            shoes.append([])
        shoes[-1].append(r)
    assert len(shoes) >= 8 and not all(r.played for r in rounds)  # Wonged out sometimes
    expect: dict[str, int] = defaultdict(int)
    for shoe in shoes:
        by_tc: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # N F P R
        for r in shoe:
            sums = by_tc[r.tc]
            sums[0] += 1
            sums[1] += r.flat
            sums[2] += r.played
            sums[3] += r.ramp
        for t, (n, f, p, r) in by_tc.items():
            at = f"tc{t:+d}_"
            expect[at + "rounds_shoe_sq"] += n * n
            expect[at + "flat_shoe_sq"] += f * f
            expect[at + "flat_shoe_x"] += f * n
            expect[at + "played_shoe_sq"] += p * p
            expect[at + "ramp_shoe_sq"] += r * r
            expect[at + "ramp_shoe_x"] += r * p
        played = sum(r.played for r in shoe)
        ramp = sum(r.ramp for r in shoe)
        expect["shoes"] += 1
        expect["shoe_played_sq"] += played * played
        expect["shoe_ramp_sq"] += ramp * ramp
        expect["shoe_ramp_x"] += ramp * played
    for name in [f for f in got if "shoe" in f]:
        assert got[name] == expect.get(name, 0), name


@pytest.mark.slow
def test_score_and_n0_from_their_definitions_on_the_simulated_rounds(run):
    """EV and SD from the rounds played; SCORE: the win over 100 rounds of a $10,000 bankroll
    betting the ramp scaled to Kelly (``B * EV / SD**2`` times it); N0: the rounds after
    which the expected win is one SD of the total, found by search, not by the formula."""
    rules, rounds, totals = run
    report = count_report(totals, min_bet=rules.min_bet)
    nets = [r.ramp / rules.min_bet for r in rounds if r.played]
    ev = sum(nets) / len(nets)
    sd = math.sqrt(sum((x - ev) ** 2 for x in nets) / (len(nets) - 1))
    assert report["ev_per_round"] == pytest.approx(ev) and report["sd_per_round"] == pytest.approx(
        sd
    )
    kelly = 10_000 * ev / sd**2
    assert score(ev, sd) == pytest.approx(100 * kelly * ev)
    # the report shows them for a winning game only (this run loses: they are null, why said)
    assert (report["score"] is None) == (ev <= 0)
    assert (report["advantage_note"] is None) == (ev > 0)

    def reached(n: int) -> bool:  # the expected win (or loss) is one SD of the total
        return n * abs(ev) >= sd * math.sqrt(n)

    high = 1
    while not reached(high):
        high *= 2
    low = high // 2  # not reached at low (or low is 0): bisect to the first n reached
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if reached(mid) else (mid, high)
    assert high - 1 <= n0(ev, sd) <= high


def test_a_shuffle_every_round_makes_every_round_its_own_batch(manager):
    """With a fresh pack each round, a shoe is one round: the batch sums are the rounds'."""
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=1, shoe="fresh-pack")
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    play = CountPlay(manager.count_systems.get("hilo"), parse_ramp("<=0:1,1+:3"))
    job = compiled_job(manager, rules, basic, 1, play)
    got = dict(zip(job.fields, job.run(job.data, 5, 3000), strict=True))
    assert got["shoes"] == 3000
    for t in TCS:
        at = f"tc{t:+d}_"
        assert got[at + "rounds_shoe_sq"] == got[at + "rounds"]
        assert got[at + "flat_shoe_sq"] == got[at + "flat_sq"]
        assert got[at + "flat_shoe_x"] == got[at + "flat_net"]
        assert got[at + "ramp_shoe_sq"] == got[at + "ramp_sq"]
    report = count_report(got, min_bet=rules.min_bet)
    assert report["design_effect"] == pytest.approx(1.0, rel=1e-9)
