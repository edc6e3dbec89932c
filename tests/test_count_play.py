"""Playing by the count: the counting kernel's move at every decision against an
independent player written here from docs/counting.md, and whole runs against the chart
the deviations write.

The player here reads the chart's letters and the index table as the doc says a counter
plays them, decision by decision and without the kernel's letter maps: surrender first
(by its index if the table has one, else as the letter says), then the double, then stand
or hit (by the stand or hit index, else the letter); a pair is split by its split index
(else as its letter says), and a pair not split is played as its total, that total's
indices included, from the pair's letter (from the total's when a split index declined
it). The kernel's own compiled move (``count_move``, with the tables it plays from) is
asked the same question for every upcard, hand, state and true count -15..15 under the
I18 and Fab 4, the generated 6-deck set and a set of hit, soft and pair indices, on four
rule sets. The old kernel turned a stand index into "every letter stands", losing basic
strategy's surrender of 16 v T and 16 v 9 under the I18, and played 5,5 and 7,7 by the
pair's letter without the hard 10 and 14 indices.
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.engine import PluginManager
from croupier.plugins.blackjack.counting import CountPlay
from croupier.plugins.blackjack.indices import read_indices
from croupier.plugins.blackjack.kernel.count_data import deviations, params
from croupier.plugins.blackjack.kernel.count_move import chart_cells, count_move, letter_plans
from croupier.plugins.blackjack.kernel.data import chart_array, compiled_dealer, rules_vector
from croupier.plugins.blackjack.kernel.kernel import (
    DOUBLE_A,
    HIT,
    SPLIT_A,
    STAND,
    SURRENDER_A,
    _plans,
)
from croupier.plugins.blackjack.kernel.true_count import quotients
from croupier.plugins.blackjack.kernels import play_table
from croupier.plugins.blackjack.simulate import compiled_job
from croupier.plugins.blackjack.strategy import local_strategy

MOVES = {HIT: "hit", STAND: "stand", DOUBLE_A: "double", SPLIT_A: "split", SURRENDER_A: "surrender"}
UP_NAMES = "A23456789T"  # by rank index: 0 is an ace


@pytest.fixture(scope="module")
def manager():
    return PluginManager(autoload=False)


def by_the_doc(table, indices, rules, up, hard, ace, pair, first, split_hand, aces_only, tc):
    """The move of a hand (its hard total, an ace in it, ``pair``: its rank index when it
    may be split, else None) by docs/counting.md's rules, at true count ``tc``."""
    soft = ace and hard <= 11
    total = hard + 10 if soft else hard
    if total >= 21:
        return "stand"
    upname = UP_NAMES[up]

    def index(decision, hand):
        return indices.get((decision, hand, upname))

    can_double = (
        first
        and (not split_hand or rules.double_after_split)
        and (
            rules.double == "any"
            or (rules.double == "9-11" and not soft and 9 <= total <= 11)
            or (rules.double == "10-11" and not soft and 10 <= total <= 11)
        )
    )
    can_surrender = first and not split_hand and rules.surrender != "none"
    total_letter = (table.soft if soft else table.hard)[total][up]
    letter = total_letter
    if pair is not None:
        split_index = index("split", UP_NAMES[pair] * 2)
        pair_letter = table.pairs[pair][up]
        if split_index is not None:
            if split_index.takes(tc):
                return "split"
            letter = total_letter  # declined: the chart's play of the unsplit total
        elif pair_letter in ("P", "Ph", "Rp"):
            return "surrender" if pair_letter == "Rp" and can_surrender else "split"
        else:
            letter = pair_letter  # the chart does not split: the pair's own letter
    hand = f"s{total}" if soft else str(total)
    surrender = index("surrender", hand)
    wants = surrender.takes(tc) if surrender else letter in ("Rh", "Rs")
    if wants and can_surrender:
        return "surrender"
    double = index("double", hand)
    wants = double.takes(tc) if double else letter in ("Dh", "Ds")
    if wants and can_double:
        return "double"
    stand, hit = index("stand", hand), index("hit", hand)
    if stand is not None:
        stands = stand.takes(tc)
    elif hit is not None:
        stands = not hit.takes(tc)
    else:
        stands = letter in ("S", "Ds", "Rs")
    return "stand" if stands or aces_only else "hit"


def hands(rules):
    """(hard, ace, pair rank or None, first move, split hand, aces only) of every state."""
    for c0 in range(10):
        for c1 in range(c0, 10):
            hard, ace = c0 + c1 + 2, c0 == 0 or c1 == 0
            pair = c0 if c0 == c1 else None
            for split_hand in (False, True):
                yield hard, ace, pair, True, split_hand, False
                if pair is not None:
                    yield hard, ace, None, True, split_hand, False  # no more splits
            if c0 == 0 and not rules.hit_split_aces:
                yield hard, ace, pair if rules.resplit_aces else None, False, True, True
    for hard in range(5, 22):
        yield hard, False, None, False, False, False
        if hard <= 11:
            yield hard, True, None, False, False, False


def kernel_moves(rules, table, entries):
    """The kernel's move for every state: ``count_move`` with the tables it plays from."""
    chart = np.asarray(chart_array(table), np.int64)
    vector = np.asarray(rules_vector(rules, 0 if rules.dealer == "s17" else 1), np.int64)
    first, count, index, maps = deviations(entries, chart_array(table))
    index_a = np.asarray(index, np.float64).reshape(-1, 2)
    dev_at = np.ascontiguousarray(index_a[:, 0])
    dev_up = index_a[:, 1] > 0
    dev_to = np.asarray(maps, np.int64).reshape(-1)
    hilo = PluginManager(autoload=False).count_systems.get("hilo")
    p = np.asarray(params(CountPlay(hilo), 1, False), np.float64)
    q = quotients(52, 1, p)  # a running count rc with one deck left reads rc exactly
    tables = (
        chart_cells(chart),
        _plans(vector, chart),
        letter_plans(vector),
        np.asarray(first, np.int64),
        np.asarray(count, np.int64),
        dev_at,
        dev_up,
        dev_to,
    )

    def move(up, hard, ace, pair, first_move, split_hand, aces_only, tc):
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        flags = (1 if first_move else 0) | (2 if split_hand else 0) | (8 if aces_only else 0)
        row = soft * 22 + total
        pair_row = -1 if pair is None else 44 + pair
        return MOVES[int(count_move(up, row, pair_row, flags, tc, q, 52, p, *tables))]

    return move


SETS = {
    "i18+fab4": None,
    "generated": None,
    "hits and pairs": (
        "hit,s18,A,2,-\nhit,s18,3,-3,-\nstand,s18,9,3,+\ndouble,s18,2,1,+\n"
        "split,88,T,2,-\nstand,16,T,0,+\nsurrender,16,T,5,+\nsplit,99,7,1,+\n"
        "double,8,5,2,+\nstand,12,2,3,+\nsurrender,17,A,-6,-\nhit,13,2,-2,-\n"
        "double,10,T,4,+\nsurrender,14,T,3,+\nsplit,77,8,0,+\nstand,14,T,6,+\n"
        "double,s13,4,1,+\nsplit,AA,A,-5,+\nsplit,55,6,7,+\nstand,20,6,-20,-\n"
    ),
}


def entries_of(manager, name):
    if name == "i18+fab4":
        return (
            manager.index_sets.get("hilo-i18").entries + manager.index_sets.get("hilo-fab4").entries
        )
    if name == "generated":
        return manager.index_sets.get("hilo-6d-s17").entries
    return tuple(read_indices("decision,hand,upcard,index,direction\n" + SETS[name]))


@pytest.mark.parametrize("rule_set", ["vegas-s17", "vegas-h17", "single-deck", "downtown-h17-6to5"])
@pytest.mark.parametrize("index_set", list(SETS))
def test_every_move_is_the_docs_play(manager, rule_set, index_set):
    rules = manager.rule_sets.get(rule_set).rules
    assert compiled_dealer(manager, rules.dealer) is not None
    table = play_table(local_strategy(manager, "basic", rules).for_rules(rules))
    entries = tuple(e for e in entries_of(manager, index_set) if e.decision != "insurance")
    indices = {(e.decision, e.hand, e.upcard): e for e in entries}
    kernel = kernel_moves(rules, table, entries)
    checked = differ = 0
    for up in range(10):
        for state in hands(rules):
            for tc in range(-15, 16):
                want = by_the_doc(table, indices, rules, up, *state, tc)
                got = kernel(up, *state, tc)
                checked += 1
                assert got == want, (rule_set, UP_NAMES[up], state, tc)
                differ += got != by_the_doc(table, {}, rules, up, *state, tc)
    assert checked > 30_000 and differ > 500  # the indices were played, often


def counted(manager, rules, lines, seed, rounds):
    hilo = manager.count_systems.get("hilo")
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    entries = []
    for name in lines:
        if name in manager.index_sets:
            entries += manager.index_sets.get(name).entries
        else:
            entries += read_indices("decision,hand,upcard,index,direction\n" + name)
    job = compiled_job(manager, rules, basic, 1, CountPlay(hilo, indices=tuple(entries)))
    return dict(zip(job.fields, job.run(job.data, seed, rounds), strict=True))


def test_the_illustrious_18_keeps_basic_strategys_surrender(manager):
    """With the I18 (and the Fab 4), 16 v T, 16 v 9 and 15 v T surrender as basic strategy
    does on two cards: the same as saying so with explicit indices, round for round."""
    rules = manager.rule_sets.get("vegas-s17").rules
    always = "surrender,16,T,-99,+\nsurrender,16,9,-99,+"
    for sets, extra in (
        (["hilo-i18", "hilo-fab4"], always),
        (["hilo-i18"], always + "\nsurrender,15,T,-99,+"),
    ):
        plain = counted(manager, rules, sets, 21, 60_000)
        explicit = counted(manager, rules, [*sets, extra], 21, 60_000)
        assert plain == explicit, sets
