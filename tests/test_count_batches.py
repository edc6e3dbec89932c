"""The counting kernel's per-shoe batch sums (plugins/blackjack/kernel/count_batches.py),
against the same sums made in Python from the kernel's own rounds.

A chunk of ``k`` rounds is the first ``k`` rounds of a longer chunk from the same seed, so the
difference of the totals of ``k`` and ``k - 1`` rounds is round ``k`` alone: its bucket, its
flat and ramp nets, whether it was played, and whether a shuffle came before it (a new shoe).
Summing each shoe's rounds by bucket gives the batch sums the kernel must report.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from croupier.engine import PluginManager
from croupier.plugins.blackjack.count_report import count_report
from croupier.plugins.blackjack.counting import TCS, CountPlay, parse_ramp
from croupier.plugins.blackjack.players import local_strategy
from croupier.plugins.blackjack.simulate import compiled_job

ROUNDS = 150


@pytest.fixture(scope="module")
def manager():
    return PluginManager(autoload=False)


def test_shoe_sums_are_the_sums_of_each_shoes_rounds(manager):
    # two decks: about 17 rounds a shoe, and no shoe runs dry inside a round
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=2)
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    play = CountPlay(
        manager.count_systems.get("hilo"), parse_ramp("<=0:1,1:2,2:4,3+:8"), wong_out=-1
    )
    job = compiled_job(manager, rules, basic, 1, play)

    def totals(rounds: int) -> dict[str, int]:
        return dict(zip(job.fields, job.run(job.data, 77, rounds), strict=True))

    before = dict.fromkeys(job.fields, 0)
    shoe: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # bucket: N F P R
    expect: dict[str, int] = defaultdict(int)
    shoes_seen = 0

    def end_shoe() -> None:
        played = ramp = 0
        for t, (n, f, p, r) in shoe.items():
            at = f"tc{t:+d}_"
            expect[at + "rounds_shoe_sq"] += n * n
            expect[at + "flat_shoe_sq"] += f * f
            expect[at + "flat_shoe_x"] += f * n
            expect[at + "played_shoe_sq"] += p * p
            expect[at + "ramp_shoe_sq"] += r * r
            expect[at + "ramp_shoe_x"] += r * p
            played, ramp = played + p, ramp + r
        expect["shoes"] += 1
        expect["shoe_played_sq"] += played * played
        expect["shoe_ramp_sq"] += ramp * ramp
        expect["shoe_ramp_x"] += ramp * played
        shoe.clear()

    for k in range(1, ROUNDS + 1):
        now = totals(k)
        if now["shuffles"] > before["shuffles"] and shoe:
            end_shoe()
            shoes_seen += 1
        (t,) = [t for t in TCS if now[f"tc{t:+d}_rounds"] > before[f"tc{t:+d}_rounds"]]
        at = f"tc{t:+d}_"
        sums = shoe[t]
        sums[0] += 1
        sums[1] += now[at + "flat_net"] - before[at + "flat_net"]
        sums[2] += now[at + "played"] - before[at + "played"]
        sums[3] += now[at + "ramp_net"] - before[at + "ramp_net"]
        before = now
    end_shoe()  # the chunk's last shoe, in part
    assert shoes_seen >= 6  # several whole shoes, so the test says something
    got = totals(ROUNDS)
    assert sum(got[f"tc{t:+d}_played"] for t in TCS) < ROUNDS  # Wonged out sometimes
    for name in [f for f in job.fields if "shoe" in f]:
        assert got[name] == expect.get(name, 0), name


def test_a_shuffle_every_round_makes_every_round_its_own_batch(manager):
    """With a fresh pack each round, a shoe is one round: the batch sums are the rounds'."""
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(decks=1)
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    play = CountPlay(manager.count_systems.get("hilo"), parse_ramp("<=0:1,1+:3"))
    job = compiled_job(manager, rules.evolve(shoe="fresh-pack"), basic, 1, play)
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
