"""Three Card Poker solved exactly: every player hand against every dealer hand.

For each of the 22,100 player hands, the dealer's 18,424 possible hands from the other 49
cards are all equally likely; counting how many do not qualify, lose, tie and win gives
the exact expected result of playing (per unit ante: +1 when the dealer does not qualify,
+2 when the player wins, 0 on a tie, -2 when the player loses, plus the ante bonus, paid
whatever the dealer holds) against folding (-1). The best play takes the larger; the
ante's house edge is minus the average over all player hands. Hands that are the same up
to a relabelling of suits have the same odds, so each such class is counted once (numpy
over the 22,100 dealer hands) and weighted by its size. Every sum is an integer: the
results are exact fractions.

The pair plus bet does not meet the dealer: its edge follows from the number of hands in
each category (48 straight flushes, 52 three of a kind, 720 straights, 1,096 flushes, 3,744
pairs, 16,440 high cards).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import attrs
import numpy as np  # a dependency of numba, the simulator's

from croupier.engine import CODES, CroupierError, SpecError, cards
from croupier.plugins.three_card_poker.hands import (
    CATEGORIES,
    FLUSH,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    category,
    qualifies,
    value,
)

DEALER_HANDS = 18_424  # C(49, 3)
HANDS = 22_100  # C(52, 3)

PAYTABLES: dict[str, dict[int, int]] = {
    "40-30-6-3-1": {STRAIGHT_FLUSH: 40, TRIPS: 30, STRAIGHT: 6, FLUSH: 3, PAIR: 1},
    "40-30-6-4-1": {STRAIGHT_FLUSH: 40, TRIPS: 30, STRAIGHT: 6, FLUSH: 4, PAIR: 1},
    "40-25-6-4-1": {STRAIGHT_FLUSH: 40, TRIPS: 25, STRAIGHT: 6, FLUSH: 4, PAIR: 1},
}
"""Pair plus paytables: the category's payout to one."""
ANTE_BONUSES: dict[str, dict[int, int]] = {
    "5-4-1": {STRAIGHT_FLUSH: 5, TRIPS: 4, STRAIGHT: 1},
    "5-3-1": {STRAIGHT_FLUSH: 5, TRIPS: 3, STRAIGHT: 1},
    "none": {},
}
"""Ante bonus paytables (paid on the ante when the player plays, whatever the dealer has)."""


@lru_cache(maxsize=1)
def _all_hands() -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, ...]]]:
    combos: list[tuple[int, ...]] = list(itertools.combinations(range(52), 3))
    masks = np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in combos], dtype=np.uint64)
    values = np.array([value(h) for h in combos], dtype=np.int64)
    qualify = np.array([qualifies(int(v)) for v in values], dtype=bool)
    return masks, values, qualify, combos


def _suit_class(hand: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The hand with its suits renamed in order of appearance: equal for hands that are
    the same up to a relabelling of suits."""
    names: dict[int, int] = {}
    out = []
    for card in sorted(hand, key=lambda c: (c // 4, c % 4)):
        out.append((card // 4, names.setdefault(card % 4, len(names))))
    return tuple(out)


@attrs.frozen
class Counts:
    """How the dealer's 18,424 hands fall against one player hand."""

    no_qualify: int
    wins: int
    ties: int
    losses: int

    def play(self, bonus: int) -> Fraction:
        """The exact result of playing, per unit ante (``bonus``: the ante bonus to one)."""
        net = self.no_qualify + 2 * self.wins - 2 * self.losses
        return Fraction(net, DEALER_HANDS) + bonus


def counts(hand: Sequence[int]) -> Counts:
    """The dealer's hands against ``hand``, counted exactly."""
    masks, values, qualify, _ = _all_hands()
    mine = np.uint64(sum(1 << c for c in hand))
    free = (masks & mine) == 0
    mine_value = value(hand)
    dealer = values[free]
    q = qualify[free]
    result = Counts(
        int((~q).sum()),
        int((q & (dealer < mine_value)).sum()),
        int((q & (dealer == mine_value)).sum()),
        int((q & (dealer > mine_value)).sum()),
    )
    assert result.no_qualify + result.wins + result.ties + result.losses == DEALER_HANDS
    return result


@lru_cache(maxsize=4)
def solve_ante(bonus_table: str = "5-4-1") -> dict[str, Any]:
    """The best play of every hand and the ante's exact house edge."""
    bonuses = ANTE_BONUSES[bonus_table]
    _, values, _, combos = _all_hands()
    classes: dict[tuple[tuple[int, int], ...], list[int]] = {}
    for index, hand in enumerate(combos):
        classes.setdefault(_suit_class(hand), []).append(index)
    total = Fraction(0)
    played = 0
    play: dict[int, bool] = {}
    for members in classes.values():
        hand = combos[members[0]]
        ev = counts(hand).play(bonuses.get(category(int(values[members[0]])), 0))
        best = max(ev, Fraction(-1))
        total += best * len(members)
        for index in members:
            play[index] = ev > -1
        played += len(members) * (ev > -1)
    # the weakest hand played and the strongest folded, by value
    weakest = min((int(values[i]), i) for i, p in play.items() if p)
    strongest_fold = max((int(values[i]), i) for i, p in play.items() if not p)
    ev_ante = total / HANDS
    p_play = Fraction(played, HANDS)
    return {
        "ante_ev": ev_ante,
        "play_probability": p_play,
        "element_of_risk": -ev_ante / (1 + p_play),
        "weakest_played": combos[weakest[1]],
        "strongest_folded": combos[strongest_fold[1]],
        "monotone": weakest[0] > strongest_fold[0],
    }


def pair_plus_edge(paytable: str) -> Fraction:
    """The pair plus bet's exact house edge per unit bet."""
    pays = PAYTABLES[paytable]
    _, values, _, _ = _all_hands()
    by_category = np.bincount(values // 15**3, minlength=6)
    ev = sum(
        (Fraction(int(n) * (pays.get(c, -1)), HANDS) for c, n in enumerate(by_category)),
        Fraction(0),
    )
    return -ev


def _text(hand: Sequence[int]) -> str:
    return " ".join(CODES[c] for c in hand)


def solve(problem: Mapping[str, Any]) -> dict[str, Any]:
    """The ``three-card-poker`` solver: ``{}``, or with ``"hand": "QS 6H 4D"`` that hand's
    exact results; ``"ante_bonus"`` and ``"pair_plus"`` name the paytables."""
    if not isinstance(problem, Mapping):
        raise CroupierError("a three card poker problem is a mapping such as {}")
    unknown = set(problem) - {"hand", "ante_bonus", "pair_plus"}
    if unknown:
        raise CroupierError(f"unknown three card poker field(s): {', '.join(sorted(unknown))}")
    bonus = problem.get("ante_bonus", "5-4-1")
    table = problem.get("pair_plus", "40-30-6-3-1")
    if bonus not in ANTE_BONUSES:
        raise CroupierError(f"ante_bonus is one of {', '.join(ANTE_BONUSES)}, not {bonus!r}")
    if table not in PAYTABLES:
        raise CroupierError(f"pair_plus is one of {', '.join(PAYTABLES)}, not {table!r}")
    ante = solve_ante(bonus)
    pair_plus = pair_plus_edge(table)
    out: dict[str, Any] = {
        "ante_bonus": bonus,
        "pair_plus": table,
        "ante_edge": float(-ante["ante_ev"]),
        "element_of_risk": float(ante["element_of_risk"]),
        "play_probability": float(ante["play_probability"]),
        "pair_plus_edge": float(pair_plus),
        "weakest_played": _text(ante["weakest_played"]),
        "strongest_folded": _text(ante["strongest_folded"]),
        "threshold_is_exact": ante["monotone"],
        "exact": {
            "ante_edge": str(-ante["ante_ev"]),
            "element_of_risk": str(ante["element_of_risk"]),
            "pair_plus_edge": str(pair_plus),
        },
    }
    if "hand" in problem:
        out["hand"] = hand_report(problem["hand"], bonus)
    return out


def hand_report(text: Any, bonus: str = "5-4-1") -> dict[str, Any]:
    """One hand's exact results: the dealer's hands against it, play and fold."""
    if not isinstance(text, str):
        raise CroupierError("hand is three cards as text, such as 'QS 6H 4D'")
    try:
        hand = cards(text)
    except SpecError as exc:
        raise CroupierError(str(exc)) from None
    if len(hand) != 3 or len(set(hand)) != 3:
        raise CroupierError(f"a hand is three different cards, not {text!r}")
    found = counts(hand)
    cat = category(value(hand))
    play = found.play(ANTE_BONUSES[bonus].get(cat, 0))
    return {
        "cards": _text(hand),
        "category": CATEGORIES[cat],
        "dealer": attrs.asdict(found),
        "play_ev": float(play),
        "fold_ev": -1.0,
        "best": "play" if play > -1 else "fold",
        "exact": {"play_ev": str(play)},
    }
