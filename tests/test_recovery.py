"""Crash recovery of tables: a server restarted on a journal that a crash left behind
rebuilds every unfinished table from its seed and its settled rounds and plays on, to
exactly the ledger of a run that never stopped; no round is settled twice, chips are
conserved, bots take their seats back with their tokens (compared by hash).

A crash is made exactly: the journal of an uninterrupted run, cut back to what a crash
right after round ``k`` had been committed leaves (the later rounds' rows gone, the table
still ``playing``): the writer commits whole rounds in order, so that is every journal a
crash can leave. ``tests/test_recovery_sigkill.py`` kills a real server; bot seats taken back
with their tokens are ``tests/test_recovery_bots.py``'s.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.journal import Journal
from croupier.protocol.journal.packing import Packer, Unpacker
from croupier.protocol.services import default_services
from croupier.protocol.tables import TableService
from croupier.protocol.tables import recovery as tablerecovery
from croupier.protocol.transport.limits import ServerLimits


def tables_of(server: Server) -> TableService:
    service = server.services[-1]
    assert isinstance(service, TableService)
    return service


async def serve(nursery: trio.Nursery, journal: Journal, **limits: Any) -> Server:
    services = [*default_services()[:-1], TableService(vacant_timeout=30, unclaimed_timeout=30)]
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=11,
        services=services,
        journal=journal,
        limits=ServerLimits(**limits),
    )
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    server.port = port  # type: ignore[attr-defined]
    return server


def rows(path: Path, table: int) -> tuple[Any, list[tuple[Any, ...]]]:
    """A table's row (state, reason, played, result) and its rounds: each one's first and
    last event, number, events and chips, whatever rows (blocks of rounds) hold them."""
    with sqlite3.connect(path) as conn:
        head = conn.execute(
            "SELECT state, reason, played, result FROM tables WHERE id = ?", (table,)
        ).fetchone()
        unpacker = Unpacker(conn)  # the events, not their encoding (dictionaries differ)
        events = []
        for first, round_, chips, data in conn.execute(
            "SELECT first, round, chips, data FROM events WHERE table_id = ? ORDER BY first",
            (table,),
        ):
            for number, found, got in unpacker.rounds(data, chips, round_):
                events.append((first, first + len(found) - 1, number, found, got))
                first += len(found)
    return head, events


def starting_chips(path: Path, table: int) -> list[int]:
    with sqlite3.connect(path) as conn:
        (chips,) = conn.execute("SELECT chips FROM tables WHERE id = ?", (table,)).fetchone()
    return list(json.loads(chips))


BLOCK = 3
"""Rounds per row in a journal :func:`crash_after` leaves (a writer commits a few at once)."""


def crash_after(src: Path, dst: Path, keep: dict[int, int]) -> None:
    """``dst``: the journal ``src`` as a crash right after round ``keep[t]`` of each table
    ``t`` was committed would have left it (its rounds up to it in blocks of
    :data:`BLOCK`)."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    for table, rounds in keep.items():
        kept = [r for r in rows(dst, table)[1] if r[2] is not None and r[2] <= rounds]
        with sqlite3.connect(dst) as conn:
            conn.execute("DELETE FROM events WHERE table_id = ?", (table,))
            for at in range(0, len(kept), BLOCK):
                write_rounds(conn, table, kept[at : at + BLOCK])
            conn.execute(
                "UPDATE tables SET state = 'playing', reason = NULL, played = 0, events = 0,"
                " finished = NULL, result = NULL WHERE id = ?",
                (table,),
            )


def write_rounds(conn: sqlite3.Connection, table: int, rounds: list[tuple[Any, ...]]) -> None:
    """Rounds (as :func:`rows` gives them) in one packed block, as the writer writes them."""
    packer = Packer(conn)
    blob = packer.pack_block("", [(number, found, chips) for _, _, number, found, chips in rounds])
    packer.save(conn)
    packer.saved()
    conn.execute(
        "INSERT OR REPLACE INTO events (table_id, first, last, round, chips, data)"
        " VALUES (?, ?, ?, ?, NULL, ?)",
        (table, rounds[0][0], rounds[-1][1], rounds[-1][2], blob),
    )


async def run_to_end(path: Path, nursery: trio.Nursery, tables: list[dict[str, Any]]) -> list[int]:
    """Play ``tables`` (table.create params, strategies only) to their end; their ids."""
    journal = Journal(str(path))
    server = await serve(nursery, journal, max_tables=64)
    ids = []
    async with connect("127.0.0.1", server.port, name="c") as c:
        for params in tables:
            ids.append((await c.call_named("table.create", params))["table"])
        for table in ids:
            await tables_of(server).tables[table].done.wait()
    server.stop()
    await journal.aclose()
    return ids


async def recover(path: Path, nursery: trio.Nursery, **limits: Any) -> Server:
    """A server on ``path``, once it has rebuilt what it recovers (it serves meanwhile)."""
    server = await serve(nursery, Journal(str(path)), **limits)
    await server.recovered.wait()
    return server


async def finish(server: Server, ids: list[int]) -> None:
    for table in ids:
        found = tables_of(server).tables.get(table)
        if found is not None:
            await found.done.wait()
    server.stop()
    await server.journal.aclose()


BLACKJACK = {"seats": 3, "fill": ["lim17", "never-bust", "mimic-dealer"], "rounds": 30, "seed": 5}
BACCARAT = {"game": "baccarat", "seats": 2, "fill": ["banker", "player"], "rounds": 25, "seed": 8}


@pytest.mark.parametrize("keep", [0, 1, 12, 24])
async def test_a_table_of_strategies_recovers_to_the_ledger_of_an_uninterrupted_run(
    nursery, tmp_path, keep
):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ids = await run_to_end(whole, nursery, [BLACKJACK, BACCARAT])
    crash_after(whole, cut, {t: keep for t in ids})
    assert rows(cut, ids[0])[0][0] == "playing"
    server = await recover(cut, nursery)
    await finish(server, ids)
    for table in ids:
        (state, reason, played, result), events = rows(cut, table)
        want_head, want_events = rows(whole, table)
        assert (state, reason, played, result) == want_head
        assert events == want_events  # every round once, numbered as before, same events
        numbers = [r[2] for r in events if r[2] is not None]
        assert numbers == list(range(1, played + 1))  # no round settled twice
        ledger = json.loads(result)  # chips conserved: seats and house hold what they had
        assert sum(ledger["chips"]) + ledger["house"] == sum(starting_chips(cut, table))


@pytest.mark.parametrize("keep", [10, 12])
async def test_a_table_recovers_a_page_of_rounds_at_a_time(
    nursery, tmp_path, monkeypatch, caplog, keep
):
    """Rounds read and replayed 5 at a time (a page boundary at the last round, and
    within a page): the same ledger and rows as an uninterrupted run; the log says what
    is being replayed, and how far it got."""
    monkeypatch.setattr(tablerecovery, "PAGE", 5)
    monkeypatch.setattr(tablerecovery, "PROGRESS_EVERY", 0.0)  # a line for every page
    caplog.set_level("INFO", "croupier")
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ids = await run_to_end(whole, nursery, [BLACKJACK, BACCARAT])
    crash_after(whole, cut, {t: keep for t in ids})
    server = await recover(cut, nursery)
    await finish(server, ids)
    for table in ids:
        assert rows(cut, table) == rows(whole, table)
    said = caplog.text
    assert f"recovering 2 unfinished table(s): {2 * keep} settled rounds to replay" in said
    for table in ids:
        pages = [f"table {table}: {done} of {keep} rounds replayed" for done in range(5, keep, 5)]
        assert all(line in said for line in pages), said


async def test_an_event_changed_in_a_later_page_is_found_and_named(nursery, tmp_path, monkeypatch):
    monkeypatch.setattr(tablerecovery, "PAGE", 5)
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    (table,) = await run_to_end(whole, nursery, [BLACKJACK])
    crash_after(whole, cut, {table: 12})
    _, kept = rows(cut, table)
    first = kept[7][0]
    kept[7][3][0]["round"] = 99  # round 8's first event says another round
    with sqlite3.connect(cut) as conn:
        (start,) = conn.execute(
            "SELECT first FROM events WHERE table_id = ? AND first <= ? ORDER BY first DESC"
            " LIMIT 1",
            (table, first),
        ).fetchone()
        write_rounds(conn, table, [r for r in kept if r[0] >= start][:BLOCK])
    server = await recover(cut, nursery)
    assert table not in tables_of(server).tables
    await finish(server, [])
    (state, reason, *_), _ = rows(cut, table)
    assert state == "finished"
    assert reason.startswith(f"not recovered: replay differs at event {first}: ")


async def test_the_recovered_tables_are_said_and_count_against_max_tables(
    nursery, tmp_path, caplog, monkeypatch
):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ids = await run_to_end(whole, nursery, [BLACKJACK, BACCARAT, BLACKJACK])
    crash_after(whole, cut, {t: 3 for t in ids})
    caplog.set_level("INFO", "croupier")
    held = trio.Event()  # the rebuilt tables play on only once the test has looked
    play_on = tablerecovery.resume

    async def resume_when_let(table: Any) -> None:
        await held.wait()
        await play_on(table)

    monkeypatch.setattr(tablerecovery, "resume", resume_when_let)
    server = await recover(cut, nursery, max_tables=2, tables_per_connection=4)
    assert "recovered from the journal: 0 tournaments, 2 tables" in caplog.text
    assert tables_of(server).open_tables() == 2
    async with connect("127.0.0.1", server.port, name="c") as c:
        with pytest.raises(RpcError) as full:
            await c.call_named("table.create", {"seats": 1, "fill": ["lim17"], "rounds": 1})
    assert full.value.code == Code.LIMIT_EXCEEDED
    held.set()
    await finish(server, ids)
    (state, reason, *_), _ = rows(cut, ids[2])
    assert state == "finished" and reason.startswith("not recovered: the server takes at most 2")


async def test_a_journal_that_does_not_replay_is_not_recovered(nursery, tmp_path):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    (table,) = await run_to_end(whole, nursery, [BLACKJACK])
    crash_after(whole, cut, {table: 5})
    with sqlite3.connect(cut) as conn:  # another seed: the recorded rounds cannot replay
        conn.execute("UPDATE tables SET seed = '6' WHERE id = ?", (table,))
    server = await recover(cut, nursery)
    assert table not in tables_of(server).tables
    await finish(server, [])
    (state, reason, *_), _ = rows(cut, table)
    assert state == "finished" and reason.startswith("not recovered: ")


async def test_a_graceful_stop_leaves_the_tables_to_resume_to_the_same_ledger(nursery, tmp_path):
    """SIGTERM (a reboot) with a journal: the tables stop after the round in progress, stay
    unfinished in the journal, and the restarted server plays them on to the ledger of an
    uninterrupted run."""
    tables = [dict(BLACKJACK, rounds=600), dict(BACCARAT, rounds=600)]
    whole, stopped = tmp_path / "whole.db", tmp_path / "stopped.db"
    ids = await run_to_end(whole, nursery, tables)
    journal = Journal(str(stopped))
    server = await serve(nursery, journal, max_tables=64)
    async with connect("127.0.0.1", server.port, name="c") as c:
        assert [(await c.call_named("table.create", p))["table"] for p in tables] == ids
    running = [tables_of(server).tables[t] for t in ids]
    while min(t.played for t in running) < 3:  # the test runs between any two rounds
        await trio.sleep(0)
    server.stop()
    for table in running:
        await table.done.wait()
    await journal.aclose()
    for table in ids:
        (state, _, _, result), events = rows(stopped, table)
        settled = [r[2] for r in events if r[2] is not None]  # the rounds the journal holds
        assert state == "playing" and result is None and settled == list(range(1, len(settled) + 1))
        assert 3 <= len(settled) < 600
    server = await recover(stopped, nursery)
    await finish(server, ids)
    for table in ids:
        assert rows(stopped, table) == rows(whole, table)  # every round once, same ledger
