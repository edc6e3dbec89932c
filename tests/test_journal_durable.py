"""What the journal's writer promises the event loop: an answer waits for its commit, a
table never runs more than a moment ahead of a starved writer, ``--sync`` commits each
round before the next, and a failure is told to who waits (the writes are kept)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.protocol import Code, RpcError, connect
from croupier.protocol.journal import Journal
from croupier.protocol.journal import writer as writer_module
from croupier.protocol.journal.writer import open_writer
from tests.test_journal import serve
from tests.test_recovery import tables_of

SEAT = (
    "INSERT INTO tournament_seats (tournament_id, entry, player, token_sha256) VALUES (?, ?, ?, ?)"
)


def committed(path: Path, sql: str, *args: Any) -> Any:
    """One value as another process sees the file now (read-only: only what is committed)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(sql, args).fetchone()[0]
    finally:
        conn.close()


async def test_a_created_table_and_a_seat_token_are_committed_when_answered(nursery, tmp_path):
    path = tmp_path / "j.db"
    journal = Journal(str(path))
    server = await serve(nursery, journal)
    async with connect("127.0.0.1", server.port, name="c") as c:
        for _ in range(3):
            info = await c.call_named(
                "table.create",
                {"seats": 2, "fill": [None, "lim17"], "rounds": 3, "autostart": False},
            )
            sql = "SELECT count(*) FROM tables WHERE id = ?"
            assert committed(path, sql, info["table"]) == 1
            seated = await c.call("table.join", info["table"])
            sql = "SELECT token_sha256 FROM seats WHERE table_id = ? AND seat = 1"
            assert committed(path, sql, info["table"]) is not None
            await c.call("table.leave", seated["token"])
            assert committed(path, sql, info["table"]) is None
    server.stop()
    await journal.aclose()


async def test_keep_up_waits_once_the_oldest_uncommitted_round_is_older_than_the_window(
    tmp_path, monkeypatch
):
    """The writer has taken the round (its tick came) but is slow to commit it: the table
    waits once the round is ``WINDOW`` old. Before, keep_up measured from the writer's last
    take of the queue, so a writer that had just taken the queue held no table back however
    old the rounds it had not committed yet (the bound was the window plus two commits)."""
    writer = open_writer(str(tmp_path / "j.db"))
    taken, release = threading.Event(), threading.Event()
    transaction = writer._transaction

    def slow(writes: Any) -> None:  # the writer has the batch and commits it slowly
        taken.set()
        release.wait()
        transaction(writes)

    monkeypatch.setattr(writer, "_transaction", slow)
    waited: list[int] = []
    durable = writer.durable

    async def counted(patient: bool = False) -> None:
        waited.append(writer.queued)
        release.set()
        await durable(patient)

    writer.durable = counted  # type: ignore[method-assign]
    now = [1000.0]
    writer.clock = lambda: now[0]  # type: ignore[method-assign]
    try:
        with trio.fail_after(60):  # a hang guard only: the writer thread is real
            writer.put(SEAT, (1, 1, "a", None))  # a round settles at 1000.0
            await writer.keep_up()
            assert waited == []
            await trio.to_thread.run_sync(taken.wait)  # taken, not committed
            writer.put(SEAT, (1, 2, "a", None))  # the next round, within the window
            now[0] += writer_module.WINDOW / 2
            await writer.keep_up()
            assert waited == []
            writer.put(SEAT, (1, 3, "a", None))  # the first round is older than the window
            now[0] += writer_module.WINDOW
            await writer.keep_up()
            assert waited == [3] and writer.done >= 3
            writer.put(SEAT, (1, 4, "a", None))  # all committed before it: a fresh start
            await writer.keep_up()
            assert waited == [3]
    finally:
        release.set()
        await writer.aclose()


async def test_sync_commits_each_round_before_the_next_is_dealt(nursery, tmp_path):
    path = tmp_path / "j.db"
    journal = Journal(str(path), "FULL", sync_rounds=True)
    seen: list[tuple[int, int]] = []
    rounds = journal.table_round

    def table_round(table: int, round_: int, chips: list[int]) -> None:
        # the round before this one is committed by now (checked from the file)
        seen.append((round_, committed(path, "SELECT coalesce(max(round), 0) FROM events")))
        rounds(table, round_, chips)

    journal.table_round = table_round  # type: ignore[method-assign]
    server = await serve(nursery, journal)
    async with connect("127.0.0.1", server.port, name="c") as c:
        info = await c.call_named("table.create", {"seats": 2, "fill": ["lim17"] * 2, "rounds": 40})
        with trio.fail_after(60):  # a hang guard only
            await tables_of(server).tables[info["table"]].done.wait()
    assert seen == [(n, n - 1) for n in range(1, 41)], info
    server.stop()
    await journal.aclose()


async def test_an_answer_waiting_for_a_commit_that_fails_is_told_and_the_write_kept(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(writer_module, "RETRY", 3600.0)  # no retry unless woken
    writer = open_writer(str(tmp_path / "j.db"))
    try:
        with trio.fail_after(60):
            pages = await writer.read(lambda c: c.execute("PRAGMA page_count").fetchone()[0])
            await writer.read(lambda c: c.execute(f"PRAGMA max_page_count = {pages}"))
            for entry in range(2000):  # more than the pages left can take
                writer.put(SEAT, (1, entry, "x" * 100, None))
            with pytest.raises(RpcError) as told:
                await writer.durable()
            assert told.value.code == Code.JOURNAL_FAILED and "full" in told.value.message
            assert writer.failed is not None and writer.done == 0
            await writer.keep_up()  # a failed journal never holds a table here
            await writer.read(lambda c: c.execute("PRAGMA max_page_count = 1073741823"))
            await writer.durable(patient=True)  # wakes the writer: the kept writes go in
            await writer.writable()
        assert writer.failed is None and writer.done == 2000
        count = await writer.read(
            lambda c: c.execute("SELECT count(*) FROM tournament_seats").fetchone()[0]
        )
        assert count == 2000
    finally:
        await writer.aclose()
