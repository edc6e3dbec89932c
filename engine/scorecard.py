"""Scores as plain data: one decision's (:class:`DecisionScore`, what the table's log, the
journal and a replay keep) and one bot's summary (:class:`Scorecard`: EV loss, plain and
luck-adjusted results with 95% intervals, bets against their edge, costliest decisions),
mergeable over tables and runs. :mod:`croupier.engine.scoring` makes them."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from croupier.engine.confidence import Z95
from croupier.engine.errors import CroupierError
from croupier.engine.oracle import Valuation

COSTLIEST = 5
"""How many of a bot's costliest decisions a scorecard keeps (for a replay to show)."""


TableKey = int | tuple[int, ...]
"""Which table a decision was taken at: a server table's id, or a tournament table's
``(tourney, round, table)``."""


def _table_key(value: Any) -> TableKey | None:
    """A table key back from plain data (a list once it went through JSON or msgpack)."""
    if value is None or isinstance(value, int):
        return value
    return tuple(int(v) for v in value)


@attrs.frozen
class DecisionScore:
    """One scored decision: plain data for the table's log and the journal. ``table`` and
    ``round`` say where it was taken, so a replay can show it."""

    round: int
    seat: int
    phase: str
    taken: str
    best: str
    value_taken: float
    value_best: float
    staked: int = 0
    edge: float | None = None
    table: TableKey | None = attrs.field(default=None, converter=_table_key)

    @property
    def loss(self) -> float:
        return self.value_best - self.value_taken

    def to_dict(self) -> dict[str, Any]:
        out = attrs.asdict(self)
        out["loss"] = self.loss
        if isinstance(self.table, tuple):  # plain data: as JSON and msgpack carry it
            out["table"] = list(self.table)
        return out

    @classmethod
    def of(
        cls,
        round_: int,
        seat: int,
        phase: str,
        valuation: Valuation,
        table: TableKey | None = None,
    ) -> DecisionScore:
        return cls(
            round_,
            seat,
            phase,
            valuation.taken,
            valuation.best,
            float(valuation.values[valuation.taken]),
            float(valuation.best_value),
            valuation.staked,
            valuation.edge,
            table,
        )


@attrs.define
class Moments:
    """Count, mean and variance of a stream (Welford), mergeable (Chan et al.)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    def merge(self, other: Moments) -> None:
        if other.n == 0:
            return
        n = self.n + other.n
        delta = other.mean - self.mean
        self.mean += delta * other.n / n
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.n = n

    @property
    def variance(self) -> float:
        return self.m2 / (self.n - 1) if self.n > 1 else math.nan

    def interval(self, scale: float = 1.0) -> tuple[float, float, float]:
        """(mean, low, high) of the mean times ``scale``, 95% (normal: many rounds)."""
        mean = self.mean * scale
        if self.n < 2:
            return mean, math.nan, math.nan
        half = Z95 * math.sqrt(self.variance / self.n) * abs(scale)
        return mean, mean - half, mean + half

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "mean": self.mean, "m2": self.m2}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Moments:
        return cls(int(data["n"]), float(data["mean"]), float(data["m2"]))


@attrs.define
class Scorecard:
    """One bot's skill report as plain data: decisions scored, EV loss per decision and per
    100 rounds, plain and luck-adjusted results per round (each with a 95% interval), how
    its bets followed the edge, and its costliest decisions. Merged over tables and runs
    (:meth:`merge`); :meth:`to_dict` is what reports, the wire and the leaderboard show."""

    loss: Moments = attrs.field(factory=Moments)
    """EV loss per scored decision (chips)."""
    round_loss: Moments = attrs.field(factory=Moments)
    """EV loss per round played (chips)."""
    plain: Moments = attrs.field(factory=Moments)
    adjusted: Moments = attrs.field(factory=Moments)
    staked: float = 0.0
    """Chips bet into rounds with a known edge, and their expected return (``bet_value``)."""
    bet_value: float = 0.0
    bets: int = 0
    edge_sum: float = 0.0
    """Sum of the edges of the rounds bet into (unweighted: the mean a flat bettor gets)."""
    costliest: list[DecisionScore] = attrs.field(factory=list)

    def add_round(self, plain: float, adjusted: float, decisions: Sequence[DecisionScore]) -> None:
        self.plain.add(plain)
        self.adjusted.add(adjusted)
        self.round_loss.add(sum(d.loss for d in decisions))
        for decision in decisions:
            self.loss.add(decision.loss)
            if decision.edge is not None and decision.staked > 0:
                self.bets += 1
                self.staked += decision.staked
                self.bet_value += decision.staked * decision.edge
                self.edge_sum += decision.edge
        self._keep(decisions)

    def _keep(self, decisions: Iterable[DecisionScore]) -> None:
        found = [*self.costliest, *(d for d in decisions if d.loss > 0)]
        found.sort(key=lambda d: -d.loss)
        self.costliest = found[:COSTLIEST]

    def merge(self, other: Scorecard) -> None:
        for mine, theirs in (
            (self.loss, other.loss),
            (self.round_loss, other.round_loss),
            (self.plain, other.plain),
            (self.adjusted, other.adjusted),
        ):
            mine.merge(theirs)
        self.staked += other.staked
        self.bet_value += other.bet_value
        self.bets += other.bets
        self.edge_sum += other.edge_sum
        self._keep(other.costliest)

    @property
    def decisions(self) -> int:
        return self.loss.n

    @property
    def rounds(self) -> int:
        return self.plain.n

    def to_dict(self) -> dict[str, Any]:
        """The report's figures (plain data): means with 95% intervals as [mean, low, high]."""
        out: dict[str, Any] = {
            "decisions": self.decisions,
            "rounds": self.rounds,
            "loss_per_decision": list(self.loss.interval()),
            "loss_per_100_rounds": list(self.round_loss.interval(100.0)),
            "plain_per_round": list(self.plain.interval()),
            "adjusted_per_round": list(self.adjusted.interval()),
            "costliest": [d.to_dict() for d in self.costliest],
        }
        if self.bets:
            out["bets"] = {
                "count": self.bets,
                "mean_edge": self.edge_sum / self.bets,
                "staked_edge": self.bet_value / self.staked if self.staked else 0.0,
            }
        return out

    def save(self) -> dict[str, Any]:
        """Everything needed to merge this card later (a checkpoint, the journal)."""
        return {
            "loss": self.loss.to_dict(),
            "round_loss": self.round_loss.to_dict(),
            "plain": self.plain.to_dict(),
            "adjusted": self.adjusted.to_dict(),
            "staked": self.staked,
            "bet_value": self.bet_value,
            "bets": self.bets,
            "edge_sum": self.edge_sum,
            "costliest": [attrs.asdict(d) for d in self.costliest],
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Scorecard:
        try:
            return cls(
                Moments.from_dict(data["loss"]),
                Moments.from_dict(data["round_loss"]),
                Moments.from_dict(data["plain"]),
                Moments.from_dict(data["adjusted"]),
                float(data["staked"]),
                float(data["bet_value"]),
                int(data["bets"]),
                float(data["edge_sum"]),
                [DecisionScore(**d) for d in data["costliest"]],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CroupierError(f"a saved scorecard is malformed: {exc!r}") from None


def describe(card: Scorecard) -> str:
    """The scorecard in one line of words (for a standings table)."""
    if not card.rounds:
        return "not scored"
    loss, lo, hi = card.round_loss.interval(100.0)
    plain, plo, phi = card.plain.interval()
    adj, alo, ahi = card.adjusted.interval()
    return (
        f"{card.decisions} decisions, EV loss {loss:.2f} [{lo:.2f}, {hi:.2f}] per 100 rounds; "
        f"per round: plain {plain:+.3f} [{plo:+.3f}, {phi:+.3f}], "
        f"luck-adjusted {adj:+.3f} [{alo:+.3f}, {ahi:+.3f}]"
    )
