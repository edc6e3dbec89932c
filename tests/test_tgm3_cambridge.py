"""``tgm3-cambridge``: Cambridge's Ti randomizer, step by step from scripted picks, a
golden sequence, and its long-run statistics against the reference figures."""

from __future__ import annotations

import pytest

from croupier.engine import Stream
from croupier.engine.randomizer_stats import collect_stats
from croupier.plugins.tgm3_cambridge import PIECES, Tgm3Cambridge


class FirstPick:
    def randbelow(self, n: int) -> int:
        assert n == 20  # the first piece is one of the first 20 slots: I, T, L or J
        return 7  # a T slot


def scripted(picks: list[int]) -> Tgm3Cambridge:
    r = Tgm3Cambridge(Stream(0))
    r._first_stream = FirstPick()  # type: ignore[assignment]
    r._slots = iter(picks)
    return r


def text(indices) -> str:
    return "".join(PIECES[i] for i in indices)


def droughts(r: Tgm3Cambridge) -> dict[str, int]:
    return dict(zip(PIECES, r.droughts, strict=True))


PICKS = [20, 25, 0, *[21, 0, 22, 0, 23, 0, 24, 0, 26, 0, 27, 5], 15, 10, 25, 27]
"""Slot picks: I after a rejection, T after six, then J, L, Z and O at once."""


def test_each_rule_from_scripted_picks():
    r = scripted(PICKS)
    assert text(r.pool) == "IIIIITTTTTLLLLLJJJJJSSSSSZZZZZOOOOO"
    # the first piece: unchecked, it enters the history (Z,S,Z,S) and the counters, and
    # changes no slot
    assert r.deal(1) == ["T"]
    assert text(r.history) == "SZST" and text(r.pool).startswith("IIIIITTTTT")
    assert droughts(r) == {"I": 5, "J": 5, "L": 5, "O": 5, "S": 5, "T": 0, "Z": 5}
    # slot 20 (S) is in the history: it takes the most droughted piece (a five-way tie:
    # O, latest in I,T,L,J,S,Z,O), the extra pick (slot 25) is discarded, slot 0 deals I;
    # the highest counter went up, so the dealt slot is refilled (O)
    assert r.deal(1) == ["I"]
    assert r.pool[20] == r.pool[0] == PIECES.index("O")
    assert r.roll_failures == r.six_rejections == 0
    # six rejections (slots 21-24, 26, 27: S and Z, in the history Z,S,T,I): the extra pick
    # after the sixth (slot 5, T: in the history) is dealt unchecked, a roll failure
    assert r.deal(1) == ["T"]
    assert r.roll_failures == r.six_rejections == 1
    assert text(r.pool[20:30]) == "OOOOOZOOZZ"
    assert r.pool[5] == PIECES.index("O")  # refilled: the highest counter went up
    # no reroll: the dealt slot is always refilled
    assert r.deal(3) == ["J", "L", "Z"]
    assert r.pool[15] == r.pool[10] == r.pool[25] == PIECES.index("O")
    assert r.deal(1) == ["O"]  # slot 27 now holds an O
    assert droughts(r)["S"] == 11 and r.pool[27] == PIECES.index("S")  # S droughts alone


def test_the_bug_a_rerolled_deal_that_lowers_the_highest_counter_keeps_its_slot():
    r = scripted(PICKS)
    assert r.deal(7) == list("TITJLZO")
    r._slots = iter([28, 0, 27])  # Z (in history J,L,Z,O): rejected, then S from slot 27
    assert r.deal(1) == ["S"]
    # S was the only piece at the highest counter (11): after dealing it the highest is 6,
    # and the pick was rerolled, so slot 27 keeps the S just dealt; slot 28 took an S when
    # it was rejected
    assert max(r.droughts) == 6
    assert r.pool[27] == r.pool[28] == PIECES.index("S")


GOLDEN = [
    "J",
    "O",
    "L",
    "Z",
    "S",
    "I",
    "T",
    "J",
    "L",
    "S",
    "O",
    "Z",
    "T",
    "J",
    "I",
    "O",
    "S",
    "L",
    "T",
    "I",
    "J",
    "Z",
    "O",
    "T",
    "I",
    "S",
    "L",
    "O",
    "J",
    "Z",
]


def test_golden_sequence_and_any_batching(manager):
    assert manager.randomizer("tgm3-cambridge", Stream(1)).deal(30) == GOLDEN
    whole = manager.randomizer("tgm3-cambridge", Stream(7)).deal(500)
    parts = manager.randomizer("tgm3-cambridge", Stream(7))
    assert parts.deal(1) + parts.deal(0) + parts.deal(200) + parts.deal(299) == whole


# Reference figures: 20 runs of `croupier stats tgm3-cambridge -n 1000000 --seed 1..20`
# (docs/randomizers.md): repeats 0.7047% (sd of one run 0.0084%), roll failures 2.4028%
# (sd 0.0142%). A run of 200,000 pieces has sd about sqrt(5) times those; the bounds below
# are 5 of its sds, so a correct randomizer fails them about once in 10^6 runs, while
# tgm3's figures (1.02%, 3.5%) or a lost rule (no extra pick, refilling always) lie far
# outside.
@pytest.mark.parametrize("seed", [5, 2024])
def test_long_run_statistics_match_the_reference(manager, seed):
    r = manager.randomizer("tgm3-cambridge", Stream(seed))
    stats = collect_stats(r, 200_000)
    assert abs(stats.repeat_rate - 0.007047) < 5 * 0.000084 * 5**0.5
    assert stats.roll_failure_rate is not None
    assert abs(stats.roll_failure_rate - 0.024028) < 5 * 0.000142 * 5**0.5
    assert all(abs(stats.frequency(p) - 1 / 7) < 0.004 for p in PIECES)
    assert abs(stats.intervals.mean - 7) < 0.01
    assert len(r.pool) == 35 and 0.040 < r.six_rejections / 200_000 < 0.046
