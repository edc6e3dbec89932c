"""The rewards an environment pays its agents: chips, or the exact ones of the game's oracle.

- ``chips``: a seat's net chips for each round it finishes, paid in the step in which
  the round ends.
- ``ev-loss``: minus the exact EV loss of each of the seat's decisions, paid in the
  step that takes it: the oracle's value of its best action less the value of the action
  taken (chips, under best play afterwards), so 0 for the best action and for a decision
  the oracle does not value (a blackjack bet). A dense signal with no luck in it at all.
- ``adjusted``: the round's luck-adjusted result, paid in the step in which the round
  ends: the first decision that covers the round (:attr:`Valuation.covers`) at its best
  value, less the EV losses of the seat's decisions from then on (the plain result for a
  round with no such decision). Its mean is the chips' mean, its variance smaller.

The exact rewards are the arena's own scoring (:class:`~croupier.engine.scoring.Scorer`
and the game's :class:`~croupier.engine.oracle.TableOracle`, fed the table's events as a
:class:`~croupier.engine.gametable.GameTable` feeds them), not a second implementation:
an env's decision scores the decision the arena scores at the same seed.
"""

from __future__ import annotations

from typing import Any

import attrs

from croupier.engine.scoring import DecisionScore

REWARDS = {
    "chips": "net chips of each round, when it ends",
    "ev-loss": "minus the oracle's EV loss of each decision, when it is taken",
    "adjusted": "the round's luck-adjusted result (the oracle's), when it ends",
}
EXACT = ("ev-loss", "adjusted")
"""The rewards that need the game's oracle."""


@attrs.define
class Outcome:
    """What a step brought: the nets of the rounds it finished, and, at a scored table,
    their luck-adjusted results (per agent seat) and the agents' scored decisions."""

    rounds: list[dict[int, int]] = attrs.field(factory=list)
    adjusted: list[dict[int, float]] = attrs.field(factory=list)
    decisions: list[DecisionScore] = attrs.field(factory=list)

    def reward(self, kind: str, seat: int) -> float:
        """Seat ``seat``'s reward of kind ``kind`` (one of :data:`REWARDS`)."""
        if kind == "ev-loss":
            return 0.0 - sum(d.loss for d in self.decisions if d.seat == seat)
        if kind == "adjusted":
            return 0.0 + sum(r.get(seat, 0.0) for r in self.adjusted)
        if not self.rounds:
            return 0.0
        return float(sum(r.get(seat, 0) for r in self.rounds))

    def info(self, seat: int, scored: bool) -> dict[str, Any]:
        """``info`` entries for seat ``seat``: ``rounds`` (nets), and at a scored table
        ``adjusted`` (per round, as ``rounds``) and ``decisions`` (each scored decision as
        the arena logs it: values of the action taken and of the best, the loss)."""
        out: dict[str, Any] = {"rounds": [r[seat] for r in self.rounds if seat in r]}
        if not scored:
            return out
        out["adjusted"] = [r[seat] for r in self.adjusted if seat in r]
        out["decisions"] = [d.to_dict() for d in self.decisions if d.seat == seat]
        return out
