"""Settled rounds in blocks (schema 7): the writer packs the consecutive rounds of each table
that one transaction commits into one row, so a round is durable exactly when its own row
would have been; recovery reads rounds from anywhere inside a block (a checkpoint's round,
a page's start), and a round that cannot be packed keeps its own JSON row."""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

from croupier.clients.cli.commands.journal import compact
from croupier.protocol.journal import Journal, NullJournal, waiting
from croupier.protocol.journal import blocks as blocks_module
from croupier.protocol.journal.packing import Packer, Unpacker
from croupier.protocol.journal.recovery import round_holding, settled_rounds
from croupier.protocol.journal.schema import MIGRATIONS, migrate
from tests.test_journal_packing import blackjack_like


def hold(journal: Journal) -> threading.Event:
    """Keep ``journal``'s writer busy until the event returned is set: what is queued
    meanwhile is taken at its next tick, all of it, and committed in one transaction."""
    entered, gate = threading.Event(), threading.Event()
    request = waiting.Read(lambda _: (entered.set(), gate.wait(10)))
    journal.writer._queue.append(request)
    journal.writer._wake.set()
    assert entered.wait(10)
    return gate


def play(journal: Journal, table: int, rounds: range, chips: Any = None) -> None:
    for number in rounds:
        for event in blackjack_like(number):
            journal.table_event(table, event)
        journal.table_round(table, number, chips or [number, -number])


def events_rows(journal: Journal) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = journal.writer.read_sync(
        lambda c: c.execute(
            "SELECT table_id, first, last, round, chips, data FROM events ORDER BY table_id, first"
        ).fetchall()
    )
    return found


def test_a_commit_packs_each_tables_consecutive_rounds_into_one_row(tmp_path, monkeypatch):
    journal = Journal(str(tmp_path / "j.db"))
    journal._addresses[1] = "10.0.0.1"
    gate = hold(journal)
    play(journal, 1, range(1, 4))
    play(journal, 2, range(1, 3))  # another table's rounds in between
    play(journal, 1, range(4, 6))
    journal.table_event(1, {"kind": "note", "text": "after the last round"})
    journal.table_finished(
        {"table": 1, "state": "finished", "reason": "r", "played": 5, "chips": [], "house": 0}
    )
    gate.set()
    rows = events_rows(journal)
    size = len(blackjack_like(1))
    assert [r[:5] for r in rows] == [
        (1, 1, 5 * size, 5, None),  # one block: rounds 1 to 5
        (1, 5 * size + 1, 5 * size + 1, None, None),  # the events after them: their own row
        (2, 1, 2 * size, 2, None),
    ]
    unpacker = Unpacker(journal.writer.conn)
    assert unpacker.rounds(rows[0][5], None, 5) == [
        (n, blackjack_like(n), [n, -n]) for n in range(1, 6)
    ]
    assert unpacker.rounds(rows[1][5], None, None) == [
        (None, [{"kind": "note", "text": "after the last round"}], None)
    ]
    written = len(rows[0][5]) + len(rows[1][5])
    assert written - 6 <= journal.usage("10.0.0.1") <= written  # each round counted once
    journal.close()


def test_a_tables_listener_records_its_events_through_recovery_until_it_finishes(tmp_path):
    """The engine hands each event to the journal's listener (a list's append, no call per
    event): a settled round's row holds exactly the events given since the previous one; a
    recovered table's listener drops the unsettled round's events and goes on; a no-journal
    server has no listener."""
    journal = Journal(str(tmp_path / "j.db"))
    listen = journal.table_listener(1)
    assert NullJournal().table_listener(1) is None
    for event in blackjack_like(1):
        listen(event)
    journal.table_round(1, 1, [1, -1])
    listen({"kind": "note", "text": "half a round, never settled"})
    journal.table_recovered(1, len(blackjack_like(1)), "blackjack")
    for event in blackjack_like(2):
        listen(event)
    journal.table_round(1, 2, [2, -2])
    journal.table_finished(
        {"table": 1, "state": "finished", "reason": "r", "played": 2, "chips": [], "house": 0}
    )
    journal.writer.read_sync(lambda c: None)  # everything queued is committed
    unpacker = Unpacker(journal.writer.conn)
    found = [
        round_ for row in events_rows(journal) for round_ in unpacker.rounds(row[5], None, row[3])
    ]
    assert found == [(1, blackjack_like(1), [1, -1]), (2, blackjack_like(2), [2, -2])]
    journal.close()


def test_a_block_holds_at_most_max_block_rounds(tmp_path, monkeypatch):
    monkeypatch.setattr(blocks_module, "MAX_BLOCK", 2)
    journal = Journal(str(tmp_path / "j.db"))
    gate = hold(journal)
    play(journal, 1, range(1, 6))
    gate.set()
    assert [r[3] for r in events_rows(journal)] == [2, 4, 5]
    journal.close()


def test_a_round_that_cannot_be_packed_keeps_its_own_json_row(tmp_path):
    journal = Journal(str(tmp_path / "j.db"))
    gate = hold(journal)
    play(journal, 1, range(1, 3))
    play(journal, 1, range(3, 4), chips=[2**70, 0])  # beyond msgpack's integers
    play(journal, 1, range(4, 5))
    gate.set()
    rows = events_rows(journal)
    assert [(r[3], type(r[5])) for r in rows] == [(1, bytes), (2, bytes), (3, str), (4, bytes)]
    unpacker = Unpacker(journal.writer.conn)
    assert unpacker.rounds(rows[2][5], rows[2][4], 3) == [(3, blackjack_like(3), [2**70, 0])]
    journal.close()


def blocks_journal() -> sqlite3.Connection:
    """Table 1's rounds 1 to 10 in blocks of 1, 4 and 5 rounds."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn, ":memory:", MIGRATIONS)
    packer = Packer(conn)
    first = 1
    for rounds in (range(1, 2), range(2, 6), range(6, 11)):
        block = [(n, blackjack_like(n), [n]) for n in rounds]
        last = first + sum(len(events) for _, events, _ in block) - 1
        conn.execute(
            "INSERT INTO events VALUES (1, ?, ?, ?, NULL, ?)",
            (first, last, rounds[-1], packer.pack_block("blackjack", block)),
        )
        first = last + 1
    return conn


def test_recovery_reads_rounds_from_anywhere_inside_a_block():
    conn = blocks_journal()
    size = len(blackjack_like(1))
    every = settled_rounds(conn, 1, after=0, limit=100)
    assert [(r.round, r.first, r.chips) for r in every] == [
        (n, (n - 1) * size + 1, [n]) for n in range(1, 11)
    ]
    assert all(r.events == blackjack_like(r.round) for r in every)
    for after in range(0, 10):  # a page starts after any round, inside a block or not
        for limit in (1, 3, 20):
            page = settled_rounds(
                conn, 1, after=every[after - 1].first if after else 0, limit=limit
            )
            assert [r.round for r in page] == list(range(after + 1, min(after + limit, 10) + 1))
    for round_ in range(1, 11):  # a checkpoint's round, where its last event is
        held = round_holding(conn, 1, event=round_ * size)
        assert held is not None and (held.round, held.first, held.chips) == (
            round_,
            (round_ - 1) * size + 1,
            [round_],
        )
        assert round_holding(conn, 1, event=round_ * size - 1) is None  # not a round's end
    assert round_holding(conn, 1, event=10 * size + 1) is None


def test_compact_turns_rows_of_one_round_into_blocks_that_read_the_same():
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn, ":memory:", MIGRATIONS)
    conn.execute(
        "INSERT INTO tables (id, game, rules, seed, chips, settings, state, created)"
        " VALUES (1, 'blackjack', '{}', '1', '[]', '{}', 'playing', 0)"
    )
    packer, first = Packer(conn), 1
    for number in range(1, 8):  # as schema 6 (packed) and 4 (JSON) wrote them, a round a row
        events, chips = blackjack_like(number), [number]
        data: Any = packer.pack("blackjack", events, chips)
        if number % 3 == 0:
            data, chips = json.dumps(events), json.dumps(chips)
        conn.execute(
            "INSERT INTO events VALUES (1, ?, ?, ?, ?, ?)",
            (first, first + len(events) - 1, number, None if number % 3 else chips, data),
        )
        first += len(events)
    before = settled_rounds(conn, 1, after=0, limit=100)
    assert compact(conn) == 7 and compact(conn) == 0  # nothing left to re-encode
    ((count, kind),) = conn.execute("SELECT count(*), hex(substr(data, 1, 1)) FROM events")
    assert (count, kind) == (1, "C7")  # one block
    assert settled_rounds(conn, 1, after=0, limit=100) == before
