"""Scoring play against a game's oracle: EV loss per decision and luck-adjusted results.

A :class:`Scorer` follows one table: it feeds the table's public events to the game's
:class:`~croupier.engine.oracle.TableOracle`, asks it about each decision as it is taken,
and books per seat and round the chips won (``plain``) and:

- **EV loss**: for each decision the oracle values, the value of the action taken, of the
  best action, and the difference (a :class:`DecisionScore`). A bot that always takes the
  best action loses exactly 0.
- **Luck-adjusted result** (control variates, the principle of DIVAT/AIVAT): at every
  chance event subtract the value after it minus its exact expectation before it. With
  the oracle's values (best play afterwards) the chance terms after a round's first
  *covering* decision (:attr:`Valuation.covers`) telescope: the round's adjusted result is
  that decision's best value minus the losses of the seat's decisions from then on. Each
  term removed has mean zero, so the adjusted result has the plain result's mean; a round
  with no covering decision (a natural, a seat the oracle could not value) keeps its plain
  result, which is also unbiased, only noisier.
- **Bets and their edge**: each bet valued with the exact edge of the round it went
  into, so a report can show whether a bot's bets followed its edge (a bet an oracle
  prices dearly, :attr:`Question.bet`, only when :attr:`Scorer.bets` is set).

Answers to the oracle's questions may be computed at once (``defer=False``) or kept and
computed later (:meth:`Scorer.settle`), off the table's path. :class:`Scorecard` is one
bot's summary as plain data (every report and the leaderboard show it), merged over tables
(:mod:`croupier.engine.scorecard`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from croupier.engine.errors import CroupierError
from croupier.engine.games import Plain, Turn
from croupier.engine.oracle import OracleKind, Question, TableOracle, Valuation, phase_of
from croupier.engine.scorecard import (
    COSTLIEST,
    DecisionScore,
    Moments,
    Scorecard,
    TableKey,
    describe,
)

__all__ = [
    "COSTLIEST",
    "DecisionScore",
    "Moments",
    "Scorecard",
    "ScoredRound",
    "Scorer",
    "TableKey",
    "check_score_bets",
    "describe",
    "oracle_for",
]


@attrs.define
class _Pending:
    round: int
    seat: int
    phase: str
    question: Question
    valuation: Valuation | None = None


@attrs.define
class _Round:
    """One seat's round: chips won, and its scored decisions (in order)."""

    round: int
    plain: float = 0.0
    decisions: list[_Pending] = attrs.field(factory=list)


@attrs.frozen
class ScoredRound:
    """One seat's round once every question of it is answered: what the journal keeps of
    it (and what a recovered table's scorecards start from: :meth:`Scorer.restore`)."""

    round: int
    seat: int
    plain: float
    adjusted: float
    decisions: tuple[DecisionScore, ...]


def oracle_for(manager: Any, game: str) -> OracleKind:
    """The oracle of ``game``, or one clear line saying it has none."""
    oracles = manager.oracles
    if game not in oracles:
        have = ", ".join(sorted(oracles.names())) or "none"
        raise CroupierError(
            f"{game} has no oracle, so its play cannot be scored (games with one: {have})"
        )
    found: OracleKind = oracles.get(game)
    return found


def check_score_bets(manager: Any, game: str) -> None:
    """One clear line unless ``game``'s oracle has bets to value on request
    (:attr:`OracleKind.dear_bets`): scoring bets asks for what it would not do anyway."""
    oracle = oracle_for(manager, game)
    if not oracle.dear_bets:
        have = ", ".join(sorted(o.name for o in manager.oracles if o.dear_bets)) or "none"
        raise CroupierError(
            f"{game}'s oracle values every bet it can already: scoring bets by their "
            f"round's edge is for games whose bets are dear to value ({have})"
        )


class Scorer:
    """Scores one table's seats (see the module's text). ``balances()`` gives each
    seat's chips (stakes on the table not included) between rounds."""

    def __init__(
        self,
        oracle: TableOracle,
        seats: int,
        balances: Callable[[], Sequence[int]],
        *,
        defer: bool = False,
        table: TableKey | None = None,
    ) -> None:
        self.oracle = oracle
        self.seats = seats
        self.balances = balances
        self.defer = defer
        self.table = table
        """The table's key, carried by every :class:`DecisionScore` (None: not named)."""
        self.bets = False
        """Value the bets an oracle prices dearly (:attr:`Question.bet`: blackjack's,
        a whole solve per round) for their edge; else they are left unscored."""
        self.rounds: list[dict[int, _Round]] = []
        self.restored: list[ScoredRound] = []
        """Rounds scored before a restart (from the journal), before :attr:`rounds`."""
        self._taken = 0
        """How many of :attr:`rounds` :meth:`take_settled` has handed out."""
        self._before: Sequence[int] | None = None
        self._current: dict[int, _Round] = {}

    def see(self, event: Plain) -> None:
        self.oracle.see(event)

    def round_starts(self) -> None:
        self._before = list(self.balances())
        self._current = {}

    def decided(self, round_: int, turn: Turn, action: Plain) -> DecisionScore | None:
        """Book a seat's decision (before the game applies it); its score when answered at
        once (None: deferred, or a decision the oracle does not value)."""
        seat = self._current.setdefault(turn.seat, _Round(round_))
        question = self.oracle.ask(turn, action)
        if question is None or (question.bet and not self.bets):
            return None
        pending = _Pending(round_, turn.seat, phase_of(turn), question)
        if not self.defer:
            pending.valuation = question.valuation()
        seat.decisions.append(pending)
        if pending.valuation is None:
            return None
        return DecisionScore.of(round_, turn.seat, pending.phase, pending.valuation, self.table)

    def adjusted(self, seat: int) -> float | None:
        """``seat``'s luck-adjusted result in the last round booked (None: no round, or the
        seat took no decision in it); its questions answered. A learning env's reward."""
        booked = self.rounds[-1].get(seat) if self.rounds else None
        return None if booked is None else _adjusted(booked)

    def round_ends(self) -> None:
        if self._before is None:
            return
        after = self.balances()
        for seat, booked in self._current.items():
            booked.plain = float(after[seat - 1] - self._before[seat - 1])
        if self._current:
            self.rounds.append(self._current)
        self._before = None
        self._current = {}

    def take_open(self) -> tuple[list[Any], list[Question]]:
        """The unanswered decisions so far (a handle) and their questions, for answers
        computed elsewhere while the table plays on: :meth:`answer` books them."""
        open_ = [p for p in self._pendings() if p.valuation is None]
        return open_, [p.question for p in open_]

    def answer(self, handle: Sequence[Any], valuations: Sequence[Valuation]) -> None:
        for pending, valuation in zip(handle, valuations, strict=True):
            pending.valuation = valuation

    def pending(self) -> list[Question]:
        """The questions not yet answered (a worker may answer them: :meth:`settle`)."""
        return [p.question for p in self._pendings() if p.valuation is None]

    def settle(self, answers: Iterable[Valuation] | None = None) -> None:
        """Answer the deferred questions: here, or from ``answers`` (in :meth:`pending`'s
        order) computed elsewhere."""
        open_ = [p for p in self._pendings() if p.valuation is None]
        given = list(answers) if answers is not None else [p.question.valuation() for p in open_]
        if len(given) != len(open_):
            raise CroupierError(f"{len(open_)} questions were open, {len(given)} answers given")
        for pending, valuation in zip(open_, given, strict=True):
            pending.valuation = valuation

    def _pendings(self) -> Iterable[_Pending]:
        for round_ in self.rounds:
            for booked in round_.values():
                yield from booked.decisions
        for booked in self._current.values():
            yield from booked.decisions

    def decisions(self, seat: int | None = None) -> list[DecisionScore]:
        """Every answered decision (of ``seat``), in the order taken."""
        return [
            DecisionScore.of(p.round, p.seat, p.phase, p.valuation, self.table)
            for p in self._pendings()
            if p.valuation is not None and (seat is None or p.seat == seat)
        ]

    def take_settled(self) -> list[ScoredRound]:
        """The rounds whose questions are all answered now, not handed out before, in
        order (a round waits for those before it): what the journal keeps."""
        out: list[ScoredRound] = []
        while self._taken < len(self.rounds):
            round_ = self.rounds[self._taken]
            if any(p.valuation is None for b in round_.values() for p in b.decisions):
                break
            for seat in sorted(round_):
                booked = round_[seat]
                out.append(
                    ScoredRound(
                        booked.round,
                        seat,
                        booked.plain,
                        _adjusted(booked),
                        tuple(self._scored(booked)),
                    )
                )
            self._taken += 1
        return out

    def restore(self, rounds: Sequence[ScoredRound]) -> None:
        """Start from ``rounds`` scored before a restart (the journal's, in order): each
        seat's round booked here (replayed) that they hold is dropped, the others stay to
        be answered and handed out (a crash may have cut a batch between two seats)."""
        done = {(r.round, r.seat) for r in rounds}
        self.restored = list(rounds)
        kept = []
        for round_ in self.rounds:
            left = {s: b for s, b in round_.items() if (b.round, s) not in done}
            if left:
                kept.append(left)
        self.rounds = kept
        self._taken = 0

    def card(self, seat: int, *, answered: bool = False) -> Scorecard:
        """Seat ``seat``'s scorecard (its questions answered: :meth:`settle`); with
        ``answered``, of the rounds whose questions are all answered so far."""
        card = Scorecard()
        for done in self.restored:
            if done.seat == seat:
                card.add_round(done.plain, done.adjusted, done.decisions)
        for round_ in self.rounds:
            booked = round_.get(seat)
            if booked is None:
                continue
            if answered and any(p.valuation is None for p in booked.decisions):
                continue
            card.add_round(booked.plain, _adjusted(booked), self._scored(booked))
        return card

    def _scored(self, booked: _Round) -> list[DecisionScore]:
        return [
            DecisionScore.of(p.round, p.seat, p.phase, p.valuation, self.table)
            for p in booked.decisions
            if p.valuation is not None
        ]


def _adjusted(booked: _Round) -> float:
    """The round's luck-adjusted result: the first covering decision's best value minus
    the losses from there on; the plain result when no decision covers the round."""
    valued = [p.valuation for p in booked.decisions]
    if any(v is None for v in valued):
        raise CroupierError("a scored round still has unanswered questions (settle first)")
    for start, valuation in enumerate(valued):
        assert valuation is not None
        if valuation.covers:
            rest = [v for v in valued[start:] if v is not None]
            return valuation.best_value - sum(v.loss for v in rest)
    return booked.plain
