"""Oracles: a game's exact values of the actions open at a decision, for scoring play.

A plugin contributes an :class:`OracleKind` per game (the ``croupier_oracles`` hook; its
``name`` is the game's). A table that is scored makes one :class:`TableOracle` from the
table's options; the oracle sees every public event of the table (the cards dealt, the
shuffles), so it knows what any seat could know, and for each decision it is asked about
it returns a :class:`Question`: plain, picklable data holding everything its value needs
(the rules, the remaining shoe, the hand), or None for a decision it does not value. The
:class:`Question`'s ``answer`` is a pure function to a :class:`Valuation`, so that answers
may be computed in the table's task, in a worker process, or after the table, and the
table never waits on them.

Values are expected chips under best play afterwards, for the seat that decides. A
valuation also says whether its best value covers everything the seat has at stake from
then on in the round (``covers``: true for blackjack's first decision of a hand, for a
bet's value under best play afterwards), which the luck-adjusted result needs (see
:mod:`croupier.engine.scoring`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import attrs

from croupier.engine.games import Plain, Turn


def phase_of(turn: Turn) -> str:
    """The turn's phase: :attr:`Turn.phase`, else the observation's ``phase``."""
    return turn.phase or str(turn.observation.get("phase", ""))


@attrs.frozen
class Valuation:
    """Exact values (chips) of the actions open at one decision, and the one taken.

    ``values`` maps each alternative (an action kind, or a game's own key such as a bet's
    spot) to its expected chips under best play afterwards; ``taken`` is the key of the
    action the seat took. ``staked``/``edge``: for a bet, the chips it stakes and the exact
    expected return per chip of the round it goes into (None: not a bet).
    """

    values: Mapping[str, float]
    taken: str
    staked: int = 0
    edge: float | None = None
    covers: bool = False
    """The best value is the seat's whole expectation for the rest of the round (the
    first decision that does: see :mod:`croupier.engine.scoring`)."""

    @property
    def best(self) -> str:
        return max(self.values, key=lambda k: self.values[k])

    @property
    def best_value(self) -> float:
        return max(self.values.values())

    @property
    def loss(self) -> float:
        """Expected chips given up by the action taken (0 for the best action)."""
        return self.best_value - self.values[self.taken]


@attrs.frozen
class Question:
    """One decision as plain data, with the pure function that values it."""

    answer: Callable[[Any], Valuation]
    data: Any
    """Everything ``answer`` needs (picklable: the question may go to another process)."""
    bet: bool = False
    """A bet valued only for its edge (no loss, covers nothing) at a high price, such as
    blackjack's whole solve of the round: a scorer asks it only when told to
    (:attr:`~croupier.engine.scoring.Scorer.bets`)."""

    def valuation(self) -> Valuation:
        return self.answer(self.data)


class TableOracle(Protocol):
    """One table's oracle: it sees the table's public events in order, and turns a
    decision (the turn and the action the seat took) into a :class:`Question`."""

    def see(self, event: Plain) -> None: ...

    def ask(self, turn: Turn, action: Plain) -> Question | None: ...


@attrs.frozen
class OracleKind:
    """A game's oracle (``name``: the game's name), made per table from its options."""

    name: str
    summary: str
    new: Callable[[Mapping[str, Any]], TableOracle]
    dear_bets: bool = False
    """Its bets are priced dearly (:attr:`Question.bet`, blackjack's: a whole solve per
    round), so they are valued only when asked (``--score-bets``, ``score_bets``); an oracle
    without dear bets values every bet it can already, and asking is an error."""
