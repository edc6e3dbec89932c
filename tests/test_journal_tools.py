"""``croupier journal check|compact|backup``: an older journal's JSON rows packed with its
history unchanged, a table that does not replay named in one line with a non-zero exit,
compact refused while a server holds the journal, and a backup taken while a server plays."""

from __future__ import annotations

import json
import sqlite3
import sys

import trio

from croupier.protocol import connect
from croupier.protocol.journal import Journal
from croupier.protocol.tables import TableService
from tests.test_journal import play_table, serve

TWO = {"seats": 2, "fill": ["lim17", "never-bust"], "rounds": 15, "seed": 21}


def export(cli, table: int, path: str) -> str:
    status, out, _ = cli("history", "export", str(table), "--data", path)
    assert status == 0
    return out


def kinds(path: str) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {t for (t,) in conn.execute("SELECT typeof(data) FROM events")}


async def test_compact_packs_old_rows_and_history_export_and_check_are_unchanged(
    nursery, tmp_path, cli
):
    path = str(tmp_path / "j.db")
    journal = Journal(path, compact=False)  # rows as JSON, as schema 4 and before wrote them
    server = await serve(nursery, journal)
    first = await play_table(server.port, TWO)
    second = await play_table(server.port, {**TWO, "seed": 22})
    status, _, err = cli("journal", "compact", path)  # the server holds the journal
    assert status == 1 and err.count("\n") == 1
    assert "is in use by another croupier serve" in err
    server.stop()
    await journal.aclose()
    assert kinds(path) == {"text"}
    exports = [
        cli("history", "export", str(t["table"]), "--data", path)[1] for t in (first, second)
    ]
    status, out, _ = cli("journal", "compact", path)
    assert status == 0 and out.count("\n") == 1 and " rows re-encoded; " in out
    assert kinds(path) == {"blob"}
    assert exports == [
        cli("history", "export", str(t["table"]), "--data", path)[1] for t in (first, second)
    ]
    status, out, _ = cli("journal", "check", path)
    assert status == 0, out
    assert out.splitlines() == [
        f"{path}: integrity ok",
        f"table {first['table']} (blackjack, finished, 15 rounds): ok",
        f"table {second['table']} (blackjack, finished, 15 rounds): ok",
        "2 tables checked, ok",
    ]
    status, out, _ = cli("journal", "compact", path)  # nothing left to re-encode
    assert status == 0 and " 0 rows re-encoded; " in out


async def test_check_names_the_table_that_does_not_replay_and_exits_non_zero(
    nursery, tmp_path, cli
):
    path = str(tmp_path / "j.db")
    journal = Journal(path, compact=False)
    server = await serve(nursery, journal)
    good = await play_table(server.port, TWO)
    bad = await play_table(server.port, {**TWO, "seed": 22})
    server.stop()
    await journal.aclose()
    with sqlite3.connect(path) as conn:  # one recorded decision of the second table changed
        for first, data in conn.execute(
            "SELECT first, data FROM events WHERE table_id = ? ORDER BY first", (bad["table"],)
        ).fetchall():
            if '"stand"' in data:
                conn.execute(
                    "UPDATE events SET data = ? WHERE table_id = ? AND first = ?",
                    (data.replace('"stand"', '"hit"', 1), bad["table"], first),
                )
                break
    status, out, _ = cli("journal", "check", path)
    lines = out.splitlines()
    assert status == 1
    assert lines[1] == f"table {good['table']} (blackjack, finished, 15 rounds): ok"
    assert lines[2].startswith(
        f"table {bad['table']} (blackjack, finished, 15 rounds): BAD: it does not replay: "
    )
    assert lines[3] == "2 tables checked, 1 bad"
    status, _, err = cli("journal", "check", str(tmp_path / "none.db"))
    assert status == 1 and err.count("\n") == 1 and "no journal at" in err


async def test_a_backup_taken_while_the_server_plays_is_a_consistent_journal(
    nursery, tmp_path, cli
):
    path, copy = str(tmp_path / "j.db"), str(tmp_path / "copy.db")
    journal = Journal(path)
    server = await serve(nursery, journal)
    async with connect("127.0.0.1", server.port, name="c") as client:
        info = await client.call_named(
            "table.create",
            {
                "seats": 1,
                "fill": ["lim17"],
                "rounds": 10**6,
                "seed": 3,
                "options": {"starting_chips": 10**9},  # never broke: it plays on
            },
        )
        while journal.writer.done < journal.writer.queued or journal.writer.done < 50:
            await trio.sleep(0.01)  # some rounds committed: the backup has rows to copy
        done = await trio.run_process(
            [sys.executable, "-m", "croupier.clients.cli", "journal", "backup", path, copy],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        table = server_table(server, info["table"])
        assert not table.done.is_set()  # the server played on meanwhile
        written = journal.writer.done
        while journal.writer.done <= written:  # and goes on writing after it
            await trio.sleep(0.01)
        assert journal.failed is None
        await client.call("table.stop", info["table"], info["key"])
    assert done.stdout.decode().startswith(f"{path} -> {copy}: 1 tables, ")
    server.stop()
    await journal.aclose()
    status, out, _ = cli("journal", "check", copy)
    assert status == 0 and out.splitlines()[0] == f"{copy}: integrity ok", out
    assert f"table {info['table']} (blackjack, playing, " in out
    status, _, err = cli("journal", "backup", path, copy)  # never overwrites
    assert status == 1 and f"{copy} exists" in err and err.count("\n") == 1
    with sqlite3.connect(copy) as conn:
        assert json.loads(conn.execute("SELECT settings FROM tables").fetchone()[0])["seats"] == 1


def server_table(server, table):
    (service,) = [s for s in server.services if isinstance(s, TableService)]
    return service.tables[table]
