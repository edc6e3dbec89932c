"""A counter's play (:class:`~croupier.plugins.blackjack.counting.CountPlay`) as the counting
kernel's arrays: the count's parameters, each card's tag, the ramp, the deviations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine import KernelJob, PluginManager
from croupier.plugins.blackjack.counting import CountPlay
from croupier.plugins.blackjack.indices import UPCARDS, IndexEntry
from croupier.plugins.blackjack.kernel.data import (
    chart_array,
    compiled_dealer,
    rules_vector,
    why_not,
)
from croupier.plugins.blackjack.kernels import LETTERS, play_table
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.strategy import Strategy

L = {letter: i for i, letter in enumerate(LETTERS)}
ROUNDING = {"floor": 0, "truncate": 1, "round": 2, "none": 3}
RESOLUTION = {"exact": 0, "half": 1, "whole": 2}


def params(play: CountPlay, decks: int, insurance: bool) -> list[float]:
    """The kernel's parameter vector (``true_count.IRC`` ... ``HAS_SPOTS``)."""
    system = play.system
    ins = [e for e in play.indices if e.decision == "insurance"]
    return [
        float(system.irc(decks)),
        float(system.deck_sum()),
        float(system.scale),
        float(system.balanced),
        float(ROUNDING[system.rounding]),
        float(RESOLUTION[system.resolution]),
        float(play.wong_in or 0.0),
        float(play.wong_out or 0.0),
        float(play.wong_in is not None),
        float(play.wong_out is not None),
        ins[0].index if ins else 0.0,
        1.0 if not ins or ins[0].direction == "+" else -1.0,
        float(bool(ins) and insurance),
        float(play.spots_at[0]) if play.spots_at else 0.0,
        float(play.spots_at[1]) if play.spots_at else 0.0,
        float(play.spots_at is not None),
    ]


def _row(hand: str) -> int:
    """The kernel's chart row of an index table's hand (kind * 22 + key)."""
    if hand.startswith("s"):
        return 22 + int(hand[1:])
    if hand.isdigit() and 4 <= int(hand) <= 21:  # else a pair such as 88 (as indices.py)
        return int(hand)
    return 44 + "A23456789T".index(hand[0])


STANDS = {"H": "S", "Dh": "Ds", "Rh": "Rs"}
"""A letter's form that stands where it would hit (doubling and surrender kept)."""
HITS = {v: k for k, v in STANDS.items()}


def _maps(e: IndexEntry, pair_fallback: int) -> tuple[list[int], list[int]]:
    """The letter after this deviation, from each letter before it: not taken, taken.

    A stand or hit index settles only what the letter does when it neither doubles,
    splits nor surrenders: ``Rh`` becomes ``Rs`` when it says stand, ``Ds`` becomes ``Dh``
    when it says hit (basic strategy's surrender and doubles are kept; the double, split
    and surrender indices, applied after it, settle those)."""
    if e.decision in ("stand", "hit"):
        stand = [L[STANDS.get(x, x)] for x in LETTERS]
        hit = [L[HITS.get(x, x)] for x in LETTERS]
        return (hit, stand) if e.decision == "stand" else (stand, hit)
    if e.decision == "double":
        taken = [L["Ds"] if x in ("S", "Ds", "Rs") else L["Dh"] for x in LETTERS]
        declined = [L["S"] if x == "Ds" else L["H"] if x == "Dh" else L[x] for x in LETTERS]
        return declined, taken
    if e.decision == "split":
        taken = [L["P"]] * 9
        declined = [pair_fallback if x in ("P", "Ph", "Rp") else L[x] for x in LETTERS]
        return declined, taken
    assert e.decision == "surrender"
    taken = [
        L["Rs"] if x in ("S", "Ds", "Rs") else L["Rp"] if x in ("P", "Ph", "Rp") else L["Rh"]
        for x in LETTERS
    ]
    declined = [{"Rh": L["H"], "Rs": L["S"], "Rp": L["P"]}.get(x, L[x]) for x in LETTERS]
    return declined, taken


def deviations(
    indices: Sequence[IndexEntry], chart: list[list[list[int]]]
) -> tuple[list[int], list[int], list[list[float]], list[list[int]]]:
    """``dev_first``, ``dev_count`` (per cell ``up * 66 + row``), ``dev_index`` and
    ``dev_map``: a cell's deviations in the order stand/hit, double, split, surrender
    (surrender last: it is offered first, and declined falls back on the rest)."""
    order = {"stand": 0, "hit": 0, "double": 1, "split": 2, "surrender": 3}
    by_cell: dict[int, list[IndexEntry]] = {}
    for e in indices:
        if e.decision == "insurance":
            continue
        up = (UPCARDS.index(e.upcard) + 1) % 10  # rank index: A is 0, T is 9
        by_cell.setdefault(up * 66 + _row(e.hand), []).append(e)
    first, count = [-1] * 660, [0] * 660
    index: list[list[float]] = []
    maps: list[list[int]] = []
    for cell, entries in sorted(by_cell.items()):
        first[cell], count[cell] = len(index), len(entries)
        up, row = divmod(cell, 66)
        kind, key = divmod(row, 22)
        if kind == 2:  # a pair not split plays its total's row
            total_row = 22 + 12 if key == 0 else 2 * key + 2
            pair_fallback = chart[total_row // 22][total_row % 22][up]
        else:
            pair_fallback = L["H"]
        for e in sorted(entries, key=lambda e: order[e.decision]):
            declined, taken = _maps(e, pair_fallback)
            index.append([e.index, 1.0 if e.direction == "+" else -1.0])
            maps.append(declined + taken)
    if not index:  # numba needs the arrays' shapes even when empty
        index, maps = [[0.0, 0.0]], [[0] * 18]
    return first, count, index, maps


def prepare_count(
    manager: PluginManager,
    rules: BlackjackRules,
    strategy: Strategy,
    seats: int,
    play: CountPlay,
) -> KernelJob | str:
    """The counting kernel's job, or why the kernel cannot play these."""
    reason = why_not(manager, rules, strategy)
    if reason is not None:
        return reason
    table = play_table(strategy)
    dealer = compiled_dealer(manager, rules.dealer)
    assert table is not None and rules.decks is not None and dealer is not None
    chart = chart_array(table)
    tags = list(play.system.card_tags())
    data = (
        rules_vector(rules, dealer),
        chart,
        seats,
        params(play, rules.decks, rules.insurance),
        tags,
        list(play.ramp),
        deviations(play.indices, chart),
    )
    from croupier.plugins.blackjack.kernel.count_kernel import COUNT_FIELDS

    return KernelJob(run_count_chunk, data, COUNT_FIELDS)


def run_count_chunk(data: Any, seed: int, rounds: int) -> Sequence[int]:
    """Play one counting chunk (in whatever process this runs in)."""
    import numpy as np

    from croupier.plugins.blackjack.kernel.instances import play_count_chunk

    rules, chart, seats, p, tags, ramp, (first, count, index, maps) = data
    out = play_count_chunk(
        np.asarray(rules, np.int64),
        np.asarray(chart, np.int64),
        np.uint64(seed),
        rounds,
        seats,
        np.asarray(p, np.float64),
        np.asarray(tags, np.int64),
        np.asarray(ramp, np.int64),
        np.asarray(first, np.int64),
        np.asarray(count, np.int64),
        np.asarray(index, np.float64).reshape(-1, 2),
        np.asarray(maps, np.int64).reshape(-1, 18),
    )
    return [int(x) for x in out]
