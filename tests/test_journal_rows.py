"""The journal writes rows as multi-row INSERTs: the same rows, in the same order, as one
statement a row, in a few statements (the writer thread gives up the interpreter lock at
every statement step and, beside a busy event loop, waits to get it back)."""

from __future__ import annotations

import sqlite3

import pytest
import trio

from croupier.protocol.journal.rows import MAX_ROWS, execute_rows


def _db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, a TEXT, b INTEGER)")
    conn.execute("CREATE TABLE wide (" + ", ".join(f"c{i} INTEGER" for i in range(20)) + ")")
    return conn


def _statements(conn: sqlite3.Connection) -> list[str]:
    """The INSERT and UPDATE statements ``conn`` runs from now on, each time it runs one."""
    run: list[str] = []
    conn.set_trace_callback(
        lambda sql: run.append(sql) if sql.startswith(("INSERT", "UPDATE")) else None
    )
    return run


@pytest.mark.parametrize("n", [0, 1, 2, 3, MAX_ROWS - 1, MAX_ROWS, MAX_ROWS + 1, 1000])
def test_the_same_rows_in_the_same_order_in_a_few_statements(n):
    rows = [(i, f"x{i}", i * i) for i in range(n)]
    one, many = _db(), _db()
    for row in rows:
        one.execute("INSERT INTO t (k, a, b) VALUES (?, ?, ?)", row)
    run = _statements(many)
    execute_rows(many, "INSERT INTO t (k, a, b) VALUES (?, ?, ?)", rows)
    assert (
        many.execute("SELECT rowid, * FROM t").fetchall()
        == one.execute("SELECT rowid, * FROM t").fetchall()
    )
    # full statements of MAX_ROWS, then one of each power of two the rest needs
    assert len(run) == n // MAX_ROWS + bin(n % MAX_ROWS).count("1")


def test_a_later_row_replaces_an_earlier_one_of_the_same_statement_as_one_at_a_time_does():
    rows = [(1, "a", 1), (2, "b", 2), (1, "c", 3), (3, "d", 4), (2, "e", 5)]
    one, many = _db(), _db()
    for row in rows:
        one.execute("INSERT OR REPLACE INTO t (k, a, b) VALUES (?, ?, ?)", row)
    execute_rows(many, "INSERT OR REPLACE INTO t (k, a, b) VALUES (?, ?, ?)", rows)
    assert (
        many.execute("SELECT * FROM t ORDER BY k").fetchall()
        == one.execute("SELECT * FROM t ORDER BY k").fetchall()
    )


def test_a_wide_row_keeps_each_statement_under_sqlites_parameter_limit():
    conn = _db()
    run = _statements(conn)
    sql = "INSERT INTO wide VALUES (" + ", ".join("?" * 20) + ")"
    execute_rows(conn, sql, [tuple(range(i, i + 20)) for i in range(100)])
    assert conn.execute("SELECT count(*), sum(c19) FROM wide").fetchone() == (
        100,
        sum(range(19, 119)),
    )
    assert len(run) == 100 // 32 + bin(100 % 32).count("1")  # 32 rows of 20: 640 parameters


def test_other_statements_run_row_by_row():
    conn = _db()
    execute_rows(conn, "INSERT INTO t (k, a, b) VALUES (?, ?, ?)", [(1, "a", 0), (2, "b", 0)])
    run = _statements(conn)
    execute_rows(conn, "UPDATE t SET b = ? WHERE k = ?", [(5, 1), (6, 2)])
    assert len(run) == 2
    assert conn.execute("SELECT b FROM t ORDER BY k").fetchall() == [(5,), (6,)]


async def test_a_table_ahead_of_the_writer_by_more_than_the_backlog_waits_for_it(tmp_path):
    """keep_up returns at once below BACKLOG queued writes; above it, only once the writer
    has taken them (committed: a read sees them), and it holds no lock while it waits."""
    from croupier.protocol.journal.writer import BACKLOG, open_writer

    writer = open_writer(str(tmp_path / "j.db"))
    sql = (
        "INSERT INTO tournament_seats (tournament_id, entry, player, token_sha256)"
        " VALUES (?, ?, ?, ?)"
    )
    try:
        with trio.fail_after(60):  # a hang guard only: the writer thread is real
            writer.put(sql, (1, 0, "a", None))
            await writer.keep_up()  # one write queued: no wait
            for entry in range(1, 3 * BACKLOG):
                writer.put(sql, (1, entry, "a", None))
            await writer.keep_up()
            assert len(writer._queue) <= BACKLOG // 2 + 1
            await writer.keep_up()
        count = await writer.read(
            lambda c: c.execute("SELECT count(*) FROM tournament_seats").fetchone()[0]
        )
        assert count == 3 * BACKLOG
    finally:
        await writer.aclose()
