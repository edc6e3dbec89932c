"""Three Card Poker's oracle: the exact value of playing or folding a hand, and of a bet.

From the seat's three cards the dealer's 18,424 hands of the other 49 cards are equally
likely (other seats' cards are unseen, so they change nothing the seat knows): playing is
worth the solver's exact result per ante, folding loses the ante. A bet is valued under
best play afterwards (the ante's exact edge, pair plus's), which covers the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from croupier.engine import (
    CroupierError,
    OracleKind,
    Plain,
    Question,
    Turn,
    Valuation,
    card,
    hookimpl,
    phase_of,
)
from croupier.plugins.three_card_poker.hands import category, value
from croupier.plugins.three_card_poker.solver import (
    ANTE_BONUSES,
    PAYTABLES,
    _suit_class,
    counts,
    pair_plus_edge,
    solve_ante,
)


def play_value(hand: tuple[int, ...], bonus: str) -> float:
    """Playing ``hand`` (card indices), per unit ante: the solver's exact result (hands
    equal up to a relabelling of suits share it: 1,755 classes of the 22,100 hands)."""
    key = (_suit_class(hand), bonus)
    found = _PLAY_VALUES.get(key)
    if found is None:
        bonus_to_one = ANTE_BONUSES[bonus].get(category(value(hand)), 0)
        found = _PLAY_VALUES[key] = float(counts(hand).play(bonus_to_one))
    return found


_PLAY_VALUES: dict[tuple[object, str], float] = {}


@attrs.frozen
class PlayQuestion:
    hand: tuple[int, ...]
    ante: int
    bonus: str
    taken: str


def value_play(q: PlayQuestion) -> Valuation:
    play = play_value(q.hand, q.bonus)
    return Valuation({"play": q.ante * play, "fold": -float(q.ante)}, q.taken)


@attrs.frozen
class BetQuestion:
    ante: int
    pair_plus: int
    bonus: str
    paytable: str


def value_bet(q: BetQuestion) -> Valuation:
    """The bet's value under best play (covers the round: the play decision's loss is
    what the seat can still lose by playing)."""
    ante_ev = float(solve_ante(q.bonus)["ante_ev"])
    worth = q.ante * ante_ev - q.pair_plus * float(pair_plus_edge(q.paytable))
    staked = q.ante + q.pair_plus
    return Valuation({"bet": worth}, "bet", staked=staked, edge=worth / staked, covers=True)


class PokerOracle:
    def __init__(self, options: Mapping[str, Any]) -> None:
        self.bonus = str(options["ante_bonus"])
        self.paytable = str(options["pair_plus"])
        if self.bonus not in ANTE_BONUSES or self.paytable not in PAYTABLES:
            raise CroupierError(f"no paytable {self.bonus!r} or {self.paytable!r}")

    def see(self, event: Plain) -> None:
        return None

    def ask(self, turn: Turn, action: Plain) -> Question | None:
        kind = action.get("kind")
        obs = turn.observation
        if phase_of(turn) == "bet" and kind == "bet":
            ante, pair_plus = int(action.get("ante", 0)), int(action.get("pair_plus", 0) or 0)
            if ante + pair_plus <= 0:
                return None
            return Question(value_bet, BetQuestion(ante, pair_plus, self.bonus, self.paytable))
        if phase_of(turn) == "play" and kind in ("play", "fold"):
            hand = tuple(sorted(card(c) for c in obs["cards"]))
            return Question(value_play, PlayQuestion(hand, int(obs["ante"]), self.bonus, kind))
        return None


ORACLE = OracleKind(
    "three-card-poker", "the exact value of play and fold, and of each bet", PokerOracle
)


@hookimpl
def croupier_oracles() -> tuple[OracleKind, ...]:
    return (ORACLE,)
