"""What a starting server reads of the journal does not grow with what it need not replay:
a long table's latest checkpoint, the round it follows and the rounds after it are found
down the events' primary key, whatever the table's length (so a table of a million rounds
is back as fast as one of a thousand, issue 27), and the unfinished tables and tournaments
by their partial indexes, whatever the number of finished ones the journal keeps.

Two checks, no clock: every statement recovery runs is planned by SQLite with an index
(``EXPLAIN QUERY PLAN`` shows no bare ``SCAN``), and its cost in SQLite virtual-machine
steps (:func:`tests.test_journal_read_cost.steps`) is about the same on a journal ten
times as long or holding ten times as many finished tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from croupier.protocol.journal.recovery import (
    round_holding,
    settled_rounds,
    table_checkpoint,
    unfinished_tables,
    unfinished_tournaments,
)
from croupier.protocol.tables.recovery import PAGE
from tests.test_journal_read_cost import EVENTS_PER_ROUND, TABLE, journal_of, steps

TAIL = 5
"""Rounds settled after the checkpoint."""


def long_table(path: str, rounds: int, finished: int = 0) -> sqlite3.Connection:
    """A journal of one unfinished table of ``rounds`` settled rounds, checkpointed
    ``TAIL`` rounds before its end, beside ``finished`` finished tables and tournaments."""
    conn = journal_of(path, rounds, "playing")
    at = rounds - TAIL
    conn.execute(
        "INSERT INTO checkpoints (table_id, round, last, digest, data) VALUES (?, ?, ?, '', '{}')",
        (TABLE, at, at * EVENTS_PER_ROUND),
    )
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO tables (id, game, rules, seed, chips, settings, state, created, result)"
        " VALUES (?, 'blackjack', '{}', '1', '[1000]', ?, 'finished', 0, ?)",
        (
            (TABLE + 1 + i, '{"seats": 1, "pad": "' + "x" * 300 + '"}', "{}")
            for i in range(finished)
        ),
    )
    conn.executemany(
        "INSERT INTO tournaments (id, game, rules, seed, settings, bots, state, created)"
        " VALUES (?, 'blackjack', '{}', '1', '{}', '[]', 'finished', 0)",
        ((1 + i,) for i in range(finished)),
    )
    conn.execute("COMMIT")
    return conn


def after_checkpoint(conn: sqlite3.Connection) -> list[Any]:
    """The checkpoint, the round it follows and every round after it, as recovery reads
    them (protocol/tables/recovery.py)."""
    checkpoint = table_checkpoint(conn, TABLE)
    assert checkpoint is not None
    held = round_holding(conn, TABLE, checkpoint.last)
    assert held is not None and held.round == checkpoint.round
    rounds = settled_rounds(conn, TABLE, checkpoint.last, PAGE)
    assert [r.round for r in rounds] == list(
        range(checkpoint.round + 1, checkpoint.round + 1 + TAIL)
    )
    return rounds


def the_unfinished(conn: sqlite3.Connection) -> Any:
    (table,) = unfinished_tables(conn)
    assert table.id == TABLE and table.last_event == table.last_round * EVENTS_PER_ROUND > 0
    return table, unfinished_tournaments(conn)


READS: dict[str, Callable[[sqlite3.Connection], Any]] = {
    "a long table's checkpoint and the rounds after it": after_checkpoint,
    "the unfinished tables and tournaments": the_unfinished,
}


@pytest.mark.parametrize("what", list(READS))
def test_recovery_reads_are_planned_with_an_index(tmp_path, what):
    conn = long_table(str(tmp_path / "j.db"), 50, finished=20)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)  # each statement, its values bound
    try:
        READS[what](conn)
        conn.set_trace_callback(None)
        plans = {
            sql: [row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")]
            for sql in statements
            if sql.lstrip().upper().startswith("SELECT")
        }
    finally:
        conn.close()
    assert plans
    scans = {
        sql: plan
        for sql, plan in plans.items()
        if any(step.startswith("SCAN") and "USING" not in step for step in plan)
    }
    assert not scans, scans


@pytest.mark.parametrize(
    ("what", "rounds", "finished"),
    [
        ("a long table's checkpoint and the rounds after it", (400, 4000), (0, 0)),
        ("the unfinished tables and tournaments", (400, 4000), (0, 0)),
        ("the unfinished tables and tournaments", (50, 50), (300, 3000)),
    ],
)
def test_a_recovery_read_costs_the_same_on_a_journal_ten_times_as_large(
    tmp_path, what, rounds, finished
):
    read = READS[what]
    small = long_table(str(tmp_path / "small.db"), rounds[0], finished[0])
    large = long_table(str(tmp_path / "large.db"), rounds[1], finished[1])
    try:
        cost_small, cost_large = steps(small, read), steps(large, read)
    finally:
        small.close()
        large.close()
    # a scan of the rows recovery need not read costs ten times as much on the large one
    assert cost_large < 2 * cost_small + 5, (cost_small, cost_large)
