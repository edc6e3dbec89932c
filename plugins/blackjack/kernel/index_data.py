"""Index measurement (:class:`~croupier.plugins.blackjack.sim_indices.IndexSim`) as the index
kernel's arrays: the decisions by chart cell with their letter maps, the count's
parameters (rounded and not), each card's tag."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine import KernelJob, PluginManager
from croupier.plugins.blackjack.counting import CountPlay
from croupier.plugins.blackjack.indices import UPCARDS, entry
from croupier.plugins.blackjack.kernel.count_data import ROUNDING, L, _maps, _row, params
from croupier.plugins.blackjack.kernel.data import (
    chart_array,
    compiled_dealer,
    rules_vector,
    why_not,
)
from croupier.plugins.blackjack.kernels import play_table
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.sim_indices import IndexSim, index_fields
from croupier.plugins.blackjack.strategy import Strategy

KINDS = ("stand", "hit", "double", "split", "surrender")  # index_kernel.KIND_ACTION's order


def cells(
    sim: IndexSim, chart: list[list[list[int]]], insurance: bool
) -> tuple[list[int], list[int], list[int], list[int], list[list[int]], int]:
    """``cell_first``, ``cell_count`` (per cell ``up * 66 + row``), each decision's slot,
    kind and letter maps (as the counting kernel's deviations), and insurance's slot (-1:
    none, or the rules offer none)."""
    by_cell: dict[int, list[int]] = {}
    ins = -1
    for slot, (decision, hand, upcard) in enumerate(sim.decisions):
        entry(decision, hand, upcard, 0.0, "+")  # checked as an index table's row
        if decision == "insurance":
            ins = slot if insurance else -1
            continue
        up = (UPCARDS.index(upcard) + 1) % 10  # rank index: A is 0, T is 9
        by_cell.setdefault(up * 66 + _row(hand), []).append(slot)
    first, count = [-1] * 660, [0] * 660
    slots: list[int] = []
    kinds: list[int] = []
    maps: list[list[int]] = []
    for cell, members in sorted(by_cell.items()):
        first[cell], count[cell] = len(slots), len(members)
        up, row = divmod(cell, 66)
        kind, key = divmod(row, 22)
        if kind == 2:  # a pair not split plays its total's row
            total_row = 22 + 12 if key == 0 else 2 * key + 2
            pair_fallback = chart[total_row // 22][total_row % 22][up]
        else:
            pair_fallback = 0  # H
        for slot in members:
            decision, hand, upcard = sim.decisions[slot]
            if decision in ("stand", "hit"):  # measured: stand against hit, whatever else
                stand, hit = [L["S"]] * 9, [L["H"]] * 9
                declined, taken = (hit, stand) if decision == "stand" else (stand, hit)
            else:
                declined, taken = _maps(entry(decision, hand, upcard, 0.0, "+"), pair_fallback)
            slots.append(slot)
            kinds.append(KINDS.index(decision))
            maps.append(declined + taken)
    if not slots:  # numba needs the arrays' shapes even when empty
        slots, kinds, maps = [0], [0], [[0] * 18]
    return first, count, slots, kinds, maps, ins


def prepare_indices(
    manager: PluginManager, rules: BlackjackRules, strategy: Strategy, sim: IndexSim
) -> KernelJob | str:
    """The index kernel's job, or why the kernel cannot play these."""
    reason = why_not(manager, rules, strategy)
    if reason is not None:
        return reason
    table = play_table(strategy)
    dealer = compiled_dealer(manager, rules.dealer)
    assert table is not None and rules.decks is not None and dealer is not None
    chart = chart_array(table)
    p = params(CountPlay(sim.system), rules.decks, False)
    raw = list(p)
    raw[4] = float(ROUNDING["none"])  # true_count.ROUNDING
    data = (
        rules_vector(rules, dealer),
        chart,
        p,
        raw,
        list(sim.system.card_tags()),
        cells(sim, chart, rules.insurance),
        len(sim.decisions),
        sim.reading == "decision",
        sim.rows == "two-card",
    )
    return KernelJob(run_index_chunk, data, index_fields(len(sim.decisions)))


def run_index_chunk(data: Any, seed: int, rounds: int) -> Sequence[int]:
    """Measure one chunk (in whatever process this runs in)."""
    import numpy as np

    from croupier.plugins.blackjack.kernel.index_kernel import KIND_ACTION
    from croupier.plugins.blackjack.kernel.instances import play_index_chunk

    rules, chart, p, raw, tags, found, slots, at_decision, two_card = data
    first, count, slot_of, kinds, maps, ins = found
    out = play_index_chunk(
        np.asarray(rules, np.int64),
        np.asarray(chart, np.int64),
        np.uint64(seed),
        rounds,
        np.asarray(p, np.float64),
        np.asarray(raw, np.float64),
        np.asarray(tags, np.int64),
        np.asarray(first, np.int64),
        np.asarray(count, np.int64),
        np.asarray(slot_of, np.int64),
        np.asarray([KIND_ACTION[k] for k in kinds], np.int64),
        np.asarray(maps, np.int64).reshape(-1, 18),
        ins,
        slots,
        at_decision,
        two_card,
    )
    return [int(x) for x in out]
