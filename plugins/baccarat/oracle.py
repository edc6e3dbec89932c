"""Baccarat's oracle: the exact value of each bet from the cards left in the shoe.

The seat's observation already holds the cards seen since the shuffle, so the remaining
shoe is known exactly; the solver's exact odds of the next coup give each spot's value,
paid as the table pays it (the 5% commission rounded down, as the core does). A bet is
valued against the same chips on the best single spot (its loss), and its edge is its
value per chip staked; its value covers the round (nothing else is decided in it).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import attrs

from croupier.engine import OracleKind, Plain, Question, Turn, Valuation, hookimpl, phase_of
from croupier.plugins.baccarat.core import SPOTS
from croupier.plugins.baccarat.solver import Odds, odds, shoe_counts


@lru_cache(maxsize=64)
def coup_odds(left: tuple[int, ...]) -> Odds:
    return odds(list(left))


def spot_value(o: Odds, spot: str, stake: int, commission: str, tie_pays: int) -> Fraction:
    """Expected chips won (net of the stake) on ``stake`` at ``spot``."""
    if spot == "tie":
        back = stake * (tie_pays + 1) * o.tie
    elif spot == "player":
        back = 2 * stake * o.player + stake * o.tie
    elif commission == "5%":
        back = (stake + stake * 19 // 20) * o.banker + stake * o.tie
    else:
        six = o.banker_six
        back = (stake + stake // 2) * six + 2 * stake * (o.banker - six) + stake * o.tie
    return back - stake


@attrs.frozen
class BetQuestion:
    left: tuple[int, ...]
    bets: tuple[tuple[str, int], ...]
    commission: str
    tie_pays: int


def value_bet(q: BetQuestion) -> Valuation:
    o = coup_odds(q.left)
    total = sum(n for _, n in q.bets)
    values = {spot: float(spot_value(o, spot, total, q.commission, q.tie_pays)) for spot in SPOTS}
    taken = "+".join(spot for spot, _ in q.bets)
    if taken not in values:
        values[taken] = float(
            sum(
                (spot_value(o, s, n, q.commission, q.tie_pays) for s, n in q.bets),
                Fraction(0),
            )
        )
    worth = values[taken]
    return Valuation(values, taken, staked=total, edge=worth / total, covers=True)


class BaccaratOracle:
    def __init__(self, options: Mapping[str, Any]) -> None:
        self.full = shoe_counts(int(options["decks"]))
        self.commission = str(options["commission"])
        self.tie_pays = int(options["tie_pays"])

    def see(self, event: Plain) -> None:
        return None

    def ask(self, turn: Turn, action: Plain) -> Question | None:
        if phase_of(turn) != "bet" or action.get("kind") != "bet":
            return None
        seen = turn.observation.get("seen")
        if not isinstance(seen, list) or len(seen) != 10:
            return None
        left = tuple(a - int(b) for a, b in zip(self.full, seen, strict=True))
        bets = tuple((s, int(action[s])) for s in SPOTS if int(action.get(s) or 0) > 0)
        if not bets or sum(left) < 6:
            return None
        return Question(value_bet, BetQuestion(left, bets, self.commission, self.tie_pays))


ORACLE = OracleKind("baccarat", "the exact value of each bet from the shoe left", BaccaratOracle)


@hookimpl
def croupier_oracles() -> tuple[OracleKind, ...]:
    return (ORACLE,)
