"""A journal of the first schema (V1) is upgraded in place to the current one, its rows
kept, and a table it holds unfinished is recovered like any other."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from croupier.protocol.journal import SCHEMA_VERSION, Journal
from croupier.protocol.journal.packing import Unpacker
from croupier.protocol.journal.schema import MIGRATIONS, migrate
from tests.test_recovery import BLACKJACK, crash_after, finish, recover, rows, run_to_end

V1_TABLES = (
    "id, game, rule_set, rules, seed, chips, settings, creator, state, reason, played,"
    " events, created, started, finished, result"
)


def v1_copy(src: Path, dst: Path) -> None:
    """``dst``: a V1 journal (made by V1's own migration) holding ``src``'s tables, seats
    and events, as the first release wrote them (no key hashes)."""
    conn = sqlite3.connect(dst, isolation_level=None)
    migrate(conn, str(dst), MIGRATIONS[:1])
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.execute("ATTACH DATABASE ? AS src", (str(src),))
    conn.execute(f"INSERT INTO tables ({V1_TABLES}) SELECT {V1_TABLES} FROM src.tables")
    conn.execute("INSERT INTO seats SELECT * FROM src.seats")
    unpacker = Unpacker(conn, "src")  # as V1 wrote them: JSON text, a round a row
    for table, first, round_, chips, data in conn.execute(
        "SELECT table_id, first, round, chips, data FROM src.events"
    ).fetchall():
        for number, events, got in unpacker.rounds(data, chips, round_):
            conn.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table,
                    first,
                    first + len(events) - 1,
                    number,
                    None if got is None else json.dumps(got),
                    json.dumps(events),
                ),
            )
            first += len(events)
    conn.execute("DETACH DATABASE src")
    conn.close()


async def test_a_v1_journal_is_upgraded_and_its_unfinished_table_recovered(nursery, tmp_path):
    whole, cut, old = tmp_path / "whole.db", tmp_path / "cut.db", tmp_path / "v1.db"
    (table,) = await run_to_end(whole, nursery, [BLACKJACK])
    crash_after(whole, cut, {table: 9})
    v1_copy(cut, old)
    before = rows(old, table)
    journal = Journal(str(old))  # upgrades
    with sqlite3.connect(old) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 13
        assert conn.execute("SELECT key_sha256 FROM tables").fetchall() == [(None,)]
        ((salt,),) = conn.execute("SELECT salt FROM tables").fetchall()  # V3 draws one
        assert len(salt) == 64 and int(salt, 16) >= 0
        assert conn.execute("SELECT count(*) FROM tournament_tables").fetchone() == (0,)
        columns = [c[1] for c in conn.execute("PRAGMA table_info(tournament_tables)")]
        assert columns[-1] == "answers"  # a tournament table's tcp seats' answers
        columns = [c[1] for c in conn.execute("PRAGMA table_info(tournaments)")]
        assert columns[-1] == "creator_left"  # when the tournament's creator left
        assert conn.execute("SELECT count(*) FROM checkpoints").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM dictionaries").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM scores").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM score_rounds").fetchone() == (0,)
        assert {type(d) for (d,) in conn.execute("SELECT data FROM events")} == {str}  # JSON
    assert rows(old, table) == before
    await journal.aclose()
    server = await recover(old, nursery)
    await finish(server, [table])
    assert rows(old, table) == rows(whole, table)
