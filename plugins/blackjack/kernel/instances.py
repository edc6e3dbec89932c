"""The round body's three compiled instances (:func:`.round_body.make_chunk`) and the entry
points the simulator's jobs call: :func:`play_chunk` (flat), :func:`play_count_chunk` (a
counter) and :func:`play_index_chunk` (measuring indices), each filling in the arguments
its instance does not read."""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.count_kernel import BUCKETS
from croupier.plugins.blackjack.kernel.round_body import make_chunk
from croupier.plugins.blackjack.kernel.true_count import PARAMS_LEN

_flat = make_chunk(False)
_count = make_chunk(True)
_index = make_chunk(False, True)


@njit(cache=True, nogil=True, error_model="numpy")
def play_count_chunk(
    rules: np.ndarray,
    chart: np.ndarray,
    seed: np.uint64,
    rounds: int,
    seats: int,
    p: np.ndarray,
    tags: np.ndarray,
    ramp: np.ndarray,
    dev_first: np.ndarray,
    dev_count: np.ndarray,
    dev_index: np.ndarray,
    dev_map: np.ndarray,
) -> np.ndarray:
    """Play ``rounds`` rounds counting; the totals named by ``COUNT_FIELDS`` (all -1 if the
    shoe ran dry in a round with nothing to reshuffle). ``p``: the count's parameters
    (true_count); ``tags``: the tag of each card id 0..51; ``ramp``: units of the minimum
    bet by bucket; a cell ``up * 66 + row`` with deviations has ``dev_count`` of them from
    ``dev_first``, each taken at or above (``dev_index[k, 1] > 0``) or at or below
    ``dev_index[k, 0]``, mapping the letter so far to ``dev_map[k, taken * 9 + letter]``.
    The index measurement's arguments are placeholders."""
    return _count(  # type: ignore[no-any-return]
        rules, chart, seed, rounds, seats, p, tags, ramp, dev_first, dev_count, dev_index,
        dev_map, p, np.zeros(1, np.int64), np.zeros(1, np.int64), -1, 0, False, False,
    )  # fmt: skip


@njit(cache=True, nogil=True, error_model="numpy")
def play_chunk(
    rules: np.ndarray, chart: np.ndarray, seed: np.uint64, rounds: int, seats: int
) -> np.ndarray:
    """Play ``rounds`` rounds flat; the totals named by ``FIELDS`` (all -1 if the shoe ran
    dry in a round with no discards to reshuffle). The count's and the measurement's
    arguments are placeholders: the flat instance reads none of them but the count's zero
    parameters."""
    p = np.zeros(PARAMS_LEN, np.float64)
    return _flat(  # type: ignore[no-any-return]
        rules, chart, seed, rounds, seats, p, np.zeros(52, np.int64),
        np.zeros(BUCKETS, np.int64), np.full(660, -1, np.int64), np.zeros(660, np.int64),
        np.zeros((1, 2), np.float64), np.zeros((1, 18), np.int64), p,
        np.zeros(1, np.int64), np.zeros(1, np.int64), -1, 0, False, False,
    )  # fmt: skip


@njit(cache=True, nogil=True, error_model="numpy")
def play_index_chunk(
    rules: np.ndarray,
    chart: np.ndarray,
    seed: np.uint64,
    rounds: int,
    p: np.ndarray,
    p_raw: np.ndarray,
    tags: np.ndarray,
    cell_first: np.ndarray,
    cell_count: np.ndarray,
    dec_slot: np.ndarray,
    dec_action: np.ndarray,
    dec_map: np.ndarray,
    ins_slot: int,
    slots: int,
    at_decision: bool,
    two_card: bool,
) -> np.ndarray:
    """Play ``rounds`` rounds to one seat measuring the decisions (see
    :mod:`.index_kernel`). A cell ``up * 66 + row`` has ``cell_count`` decisions from
    ``cell_first``; decision ``k`` adds to ``dec_slot[k]``, is taken by the move
    ``dec_action[k]`` (``KIND_ACTION`` of its kind: stand, hit, double, split, surrender)
    and maps the chart's letter to ``dec_map[k, taken * 9 + letter]``; ``ins_slot`` is
    insurance's slot (-1: none); ``p`` the count's parameters and ``p_raw`` the same
    unrounded; ``two_card``: decisions on two-card hands only. Returns per slot and bucket
    ``STATS``, then ``TRAILER``. The count's bets and deviations are placeholders."""
    return _index(  # type: ignore[no-any-return]
        rules, chart, seed, rounds, 1, p, tags, np.zeros(BUCKETS, np.int64), cell_first,
        cell_count, np.zeros((1, 2), np.float64), dec_map, p_raw, dec_slot, dec_action,
        ins_slot, slots, at_decision, two_card,
    )  # fmt: skip
