"""One server per journal, one bad row gives up one table, and a journal that is not one
(truncated, corrupt) is one clear line at start."""

from __future__ import annotations

import sqlite3

import pytest

from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.journal import Journal, JournalError, open_journal
from tests.test_recovery import BACCARAT, BLACKJACK, crash_after, finish, recover, rows, run_to_end
from tests.test_recovery import tables_of as tables_in
from tests.test_recovery_sigkill import Served


def test_a_second_journal_on_the_same_file_is_refused_naming_the_first(tmp_path):
    path = str(tmp_path / "j.db")
    first = Journal(path)
    try:
        first.announce("127.0.0.1:7171")
        with pytest.raises(JournalError) as refused:
            Journal(path)
        said = str(refused.value)
        assert "in use by another croupier serve" in said and "\n" not in said
        assert f"pid {__import__('os').getpid()}, listening on 127.0.0.1:7171" in said
    finally:
        first.close()
    Journal(path).close()  # released with the first


@pytest.mark.slow
async def test_a_second_server_refuses_to_start_and_a_killed_ones_lock_dies_with_it(tmp_path, cli):
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    try:
        await served.said("listening on")
        assert served.proc is not None
        status, _out, err = cli("serve", "--port", "0", "--data", str(served.path))
        assert status == 1 and err.count("\n") == 1 and "Traceback" not in err
        assert f"pid {served.proc.pid}, listening on 127.0.0.1:{served.port}" in err
        served.kill()  # SIGKILL: the kernel drops the lock with the process
        served.start()
        await served.said("listening on")
    finally:
        served.stop()


def test_history_reads_the_journal_while_a_server_holds_it(tmp_path, cli):
    path = str(tmp_path / "j.db")
    held = Journal(path)
    try:
        status, out, err = cli("history", "tables", "--data", path)
    finally:
        held.close()
    assert status == 0 and "tables: 0 of 0" in out, err


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("settings", "{not json", "its row cannot be read from the journal (JSONDecodeError"),
        ("seed", "twelve", "its row cannot be read from the journal (ValueError"),
        ("rules", "[1, 2]", "its row cannot be read from the journal (ValueError: dict"),
    ],
)
async def test_one_bad_row_gives_up_its_table_and_the_others_recover(
    nursery, tmp_path, column, value, why
):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    bad, good = await run_to_end(whole, nursery, [BLACKJACK, BACCARAT])
    crash_after(whole, cut, {bad: 4, good: 4})
    with sqlite3.connect(cut) as conn:
        conn.execute(f"UPDATE tables SET {column} = ? WHERE id = ?", (value, bad))
    server = await recover(cut, nursery)
    assert bad not in tables_in(server).tables and good in tables_in(server).tables
    await finish(server, [good])
    (state, reason, *_), _ = rows(cut, bad)
    assert state == "finished" and reason.startswith(f"not recovered: {why}")
    assert rows(cut, good) == rows(whole, good)  # the other table ends as if never stopped


async def test_a_bad_tournament_row_gives_up_that_tournament_only(nursery, tmp_path):
    path = tmp_path / "j.db"
    journal = Journal(str(path))
    journal.tournament_created(
        {
            "tournament": 5,
            "game": "blackjack",
            "rule_set": None,
            "rules": "{}",
            "seed": 3,
            "settings": {},
            "join_time": 1.0,
            "state": "waiting",
            "progress": {"total": 1},
            "entries": [],
        },
        ["lim17"],
        "c",
        None,
        None,
        SeedCommitment(3),
    )
    await journal.aclose()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tournaments SET bots = 'nope' WHERE id = 5")
    server = await recover(path, nursery)
    await finish(server, [])
    with sqlite3.connect(path) as conn:
        state, reason = conn.execute("SELECT state, reason FROM tournaments").fetchone()
    assert state == "finished" and "bots" not in reason
    assert reason.startswith("not recovered: its rows cannot be read from the journal")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "cut-short", "empty-header"])
def test_a_journal_that_is_not_one_is_one_clear_line_at_start(tmp_path, cli, damage):
    path = tmp_path / "j.db"
    if damage == "garbage":
        path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    elif damage == "truncated":
        journal = Journal(str(path))
        for n in range(200):
            journal.table_created(
                {
                    "table": n,
                    "game": "blackjack",
                    "rule_set": None,
                    "rules": "{}",
                    "seed": n,
                    "chips": [1000],
                    "state": "finished",
                    "seats": [],
                },
                {"pad": "x" * 3000},
                "c",
                None,
                SeedCommitment(n),
            )
        journal.close()
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
    elif damage == "cut-short":  # only the last pages gone: nothing reads them at start
        journal = Journal(str(path))
        journal.table_created(
            {
                "table": 1,
                "game": "blackjack",
                "rule_set": None,
                "rules": "{}",
                "seed": 1,
                "chips": [1000],
                "state": "finished",
                "seats": [],
            },
            {"pad": "x" * 100_000},
            "c",
            None,
            SeedCommitment(1),
        )
        journal.close()
        data = path.read_bytes()
        page = int.from_bytes(data[16:18], "big")  # the header's page size: one whole page off
        path.write_bytes(data[:-page])
    else:
        path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 84)
    status, _out, err = cli("serve", "--port", "0", "--data", str(path))
    assert status != 0 and err.count("\n") == 1 and "Traceback" not in err, err
    assert str(path) in err and "is not a croupier journal or is damaged" in err
    with pytest.raises(JournalError):
        open_journal(str(path))


def test_a_damaged_page_found_by_recovery_is_one_clear_line(tmp_path, cli):
    """A page the start's own write never reads, damaged: recovery's read finds it."""
    path = tmp_path / "j.db"
    journal = Journal(str(path))
    for n in range(1, 300):
        journal.table_created(
            {
                "table": n,
                "game": "blackjack",
                "rule_set": None,
                "rules": {},
                "seed": n,
                "chips": [1000],
                "state": "waiting",
                "seats": [],
            },
            {"seats": 1, "fill": [None], "pad": "x" * 500},
            "c",
            None,
            SeedCommitment(n),
        )
    journal.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 4096 // 2
    data[middle * 4096 : (middle + 1) * 4096] = b"\xde\xad" * 2048
    path.write_bytes(bytes(data))
    status, _out, err = cli("serve", "--port", "0", "--data", str(path))
    last = err.strip().splitlines()[-1]
    assert status == 1 and "Traceback" not in err and "ExceptionGroup" not in err, err
    assert last == (
        f"croupier: error: the journal {path} cannot be read (database disk image is "
        "malformed): restore it from a backup, or move it aside to start a new one"
    )
