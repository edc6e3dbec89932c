"""What a history read costs does not grow with the table's length: a page of events at the
end of a long table, its export, and the event count of a running table each take a few
steps down the journal's primary key, not a walk over every row before them.

Cost is counted in SQLite virtual-machine steps (a progress handler called every
:data:`STEP` instructions), which is deterministic for a given file: no clock is read. A
journal with ten times the rounds must cost a page read about the same, where a scan costs
ten times as much.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from croupier.protocol.journal import queries
from croupier.protocol.journal.schema import open_for_writing

STEP = 100
EVENTS_PER_ROUND = 12
TABLE = 7


def journal_of(path: str, rounds: int, state: str) -> sqlite3.Connection:
    """A journal holding one table of ``rounds`` settled rounds, each one row of events."""
    conn = open_for_writing(path, "OFF")
    conn.execute(
        "INSERT INTO tables (id, game, rules, seed, chips, settings, state, created)"
        " VALUES (?, 'blackjack', '{}', '1', '[1000]', '{\"seats\": 1}', ?, 0)",
        (TABLE, state),
    )
    event = {"kind": "deal", "round": 0, "seat": 1, "card": "AS", "pad": "x" * 200}
    data = json.dumps([event] * EVENTS_PER_ROUND)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO events (table_id, first, last, round, chips, data) VALUES (?, ?, ?, ?, ?, ?)",
        (
            (TABLE, r * EVENTS_PER_ROUND + 1, (r + 1) * EVENTS_PER_ROUND, r + 1, "[1000]", data)
            for r in range(rounds)
        ),
    )
    conn.execute("COMMIT")
    return conn


def steps(conn: sqlite3.Connection, read: Callable[[sqlite3.Connection], Any]) -> int:
    """SQLite steps (in units of STEP instructions) that ``read`` takes."""
    count = 0

    def tick() -> int:
        nonlocal count
        count += 1
        return 0

    conn.set_progress_handler(tick, STEP)
    try:
        read(conn)
    finally:
        conn.set_progress_handler(None, STEP)
    return count


def events_in(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM events").fetchone()[0]) * EVENTS_PER_ROUND


def last_page(conn: sqlite3.Connection) -> list[Any]:
    total = events_in(conn)
    return queries.table_events(conn, TABLE, total - queries.MAX_PAGE, queries.MAX_PAGE)


def last_export(conn: sqlite3.Connection) -> dict[str, Any]:
    total = events_in(conn)
    return queries.export_lines(conn, TABLE, total - queries.MAX_PAGE, queries.MAX_PAGE)


READS = {
    "the last page of events": last_page,
    "the last page of the export": last_export,
    "a running table's record": lambda conn: queries.get_table(conn, TABLE),
    "the running tables": lambda conn: queries.list_tables(conn, state="running"),
}


@pytest.mark.parametrize("what", list(READS))
def test_a_read_costs_the_same_on_a_table_ten_times_as_long(tmp_path, what):
    read = READS[what]
    short = journal_of(str(tmp_path / "short.db"), 400, "playing")
    long = journal_of(str(tmp_path / "long.db"), 4000, "playing")
    try:
        cost_short, cost_long = steps(short, read), steps(long, read)
    finally:
        short.close()
        long.close()
    # a scan of the rows before the page costs ten times as much on the long table
    assert cost_long < 2 * cost_short + 5, (cost_short, cost_long)


def test_a_page_from_any_offset_holds_exactly_those_events(tmp_path):
    conn = journal_of(str(tmp_path / "j.db"), 50, "finished")
    conn.execute("UPDATE events SET data = ? WHERE 1", ("[]",))
    # number every event so a page shows which ones it holds
    rows = conn.execute("SELECT first, last FROM events ORDER BY first").fetchall()
    conn.execute("BEGIN")
    for first, last in rows:
        numbered = [{"n": n} for n in range(first, last + 1)]
        conn.execute(
            "UPDATE events SET data = ? WHERE table_id = ? AND first = ?",
            (json.dumps(numbered), TABLE, first),
        )
    conn.execute("COMMIT")
    total = 50 * EVENTS_PER_ROUND
    try:
        for offset in (0, 1, 11, 12, 13, 299, total - 5, total - 1, total, total + 7):
            for limit in (1, 5, 12, 25, 1000):
                got = [e["n"] for e in queries.table_events(conn, TABLE, offset, limit)]
                want = list(range(offset + 1, min(total, offset + limit) + 1))
                assert got == want, (offset, limit)
    finally:
        conn.close()
