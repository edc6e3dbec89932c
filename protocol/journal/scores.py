"""A scored table's scores in the journal: its scored decisions and its seats' rounds.

As the oracle's answers come in, a scored table hands its rounds whose questions are all
answered (:meth:`~croupier.engine.scoring.Scorer.take_settled`) to the journal: one
``score_rounds`` row per seat and round (plain and luck-adjusted results) and one ``scores``
row per scored decision (the action taken and its value, the best action and its value,
the loss). Read back in order they rebuild each seat's
:class:`~croupier.engine.scoring.Scorecard` exactly (the same additions in the same order),
so ``table.info`` and the history show them after a restart, and a recovered table goes
on scoring from them.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from croupier.engine.scoring import DecisionScore, Scorecard, ScoredRound

INSERT_ROUND = (
    "INSERT OR REPLACE INTO score_rounds (table_id, round, seat, plain, adjusted)"
    " VALUES (?, ?, ?, ?, ?)"
)
INSERT_DECISION = (
    "INSERT OR REPLACE INTO scores (table_id, round, seat, position, phase, taken, best,"
    " value_taken, value_best, loss, staked, edge) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def round_params(table: int, rounds: Sequence[ScoredRound]) -> list[tuple[Any, ...]]:
    return [(table, r.round, r.seat, r.plain, r.adjusted) for r in rounds]


def decision_params(table: int, rounds: Sequence[ScoredRound]) -> list[tuple[Any, ...]]:
    return [
        (
            table,
            d.round,
            d.seat,
            position,
            d.phase,
            d.taken,
            d.best,
            d.value_taken,
            d.value_best,
            d.loss,
            d.staked,
            d.edge,
        )
        for r in rounds
        for position, d in enumerate(r.decisions, 1)
    ]


def _decision(table: int, row: Sequence[Any]) -> DecisionScore:
    round_, seat, phase, taken, best, value_taken, value_best, staked, edge = row
    return DecisionScore(
        round_, seat, phase, taken, best, value_taken, value_best, staked, edge, table
    )


def scored_rounds(conn: sqlite3.Connection, table: int) -> list[ScoredRound]:
    """Every scored round of ``table`` the journal holds, in order (round, then seat)."""
    decisions: dict[tuple[int, int], list[DecisionScore]] = defaultdict(list)
    for row in conn.execute(
        "SELECT round, seat, phase, taken, best, value_taken, value_best, staked, edge"
        " FROM scores WHERE table_id = ? ORDER BY round, seat, position",
        (table,),
    ):
        decisions[row[0], row[1]].append(_decision(table, row))
    return [
        ScoredRound(round_, seat, plain, adjusted, tuple(decisions.get((round_, seat), ())))
        for round_, seat, plain, adjusted in conn.execute(
            "SELECT round, seat, plain, adjusted FROM score_rounds WHERE table_id = ?"
            " ORDER BY round, seat",
            (table,),
        )
    ]


def scorecards(conn: sqlite3.Connection, table: int, seats: int) -> list[dict[str, Any]] | None:
    """Each seat's scorecard (:meth:`Scorecard.to_dict`) from the journal's scored rounds
    of ``table``, or None when it holds none (the table was not scored, or nothing of it
    was answered yet)."""
    rounds = scored_rounds(conn, table)
    if not rounds:
        return None
    cards = [Scorecard() for _ in range(seats)]
    for done in rounds:
        if 1 <= done.seat <= seats:
            cards[done.seat - 1].add_round(done.plain, done.adjusted, done.decisions)
    return [card.to_dict() for card in cards]


def decision_page(
    conn: sqlite3.Connection, table: int, offset: int, limit: int
) -> list[dict[str, Any]]:
    """Scored decisions ``offset + 1`` to ``offset + limit`` of ``table``, in the order taken
    (round, seat, then place), each as :meth:`DecisionScore.to_dict` has it."""
    return [
        _decision(table, row).to_dict()
        for row in conn.execute(
            "SELECT round, seat, phase, taken, best, value_taken, value_best, staked, edge"
            " FROM scores WHERE table_id = ? ORDER BY round, seat, position LIMIT ? OFFSET ?",
            (table, limit, offset),
        )
    ]
