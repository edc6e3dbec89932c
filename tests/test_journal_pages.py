"""The journal's SQLite pages are ``PAGE_SIZE`` (2 kB: the end of a leaf page too full for
the next block's first part is less empty space in smaller pages), for a new journal and,
after ``croupier journal compact``, for an older one, which reads the same after it and stays
in WAL."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from croupier.protocol.journal import Journal
from croupier.protocol.journal.schema import PAGE_SIZE
from tests.test_journal import play_table, serve

TWO = {"seats": 2, "fill": ["lim17", "never-bust"], "rounds": 40, "seed": 21}


def pages(path: str) -> tuple[int, str]:
    with closing(sqlite3.connect(path)) as conn:  # sqlite3's own `with` does not close
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    return size, mode


def repage(path: str, size: int) -> None:
    """Rewrite the closed journal at ``path`` into pages of ``size`` bytes (as an older
    croupier left it), in WAL as before."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute(f"PRAGMA page_size = {size}")
    conn.execute("VACUUM")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


async def test_a_new_journal_has_pages_of_page_size(tmp_path):
    path = str(tmp_path / "j.db")
    journal = Journal(path)
    await journal.aclose()
    assert PAGE_SIZE == 2048
    assert pages(path) == (PAGE_SIZE, "wal")


async def test_compact_brings_an_older_journal_to_page_size_and_it_reads_the_same(
    nursery, tmp_path, cli
):
    path = str(tmp_path / "j.db")
    journal = Journal(path)
    server = await serve(nursery, journal)
    table = (await play_table(server.port, TWO))["table"]
    server.stop()
    await journal.aclose()
    repage(path, 8192)  # the journals before 2 kB pages
    assert pages(path) == (8192, "wal")
    before = cli("history", "export", str(table), "--data", path)[1]
    status, out, err = cli("journal", "compact", path)
    assert status == 0, out + err
    assert pages(path) == (PAGE_SIZE, "wal")
    assert cli("history", "export", str(table), "--data", path)[1] == before
    status, out, _ = cli("journal", "check", path)
    assert status == 0 and out.splitlines()[-1] == "1 tables checked, ok", out
