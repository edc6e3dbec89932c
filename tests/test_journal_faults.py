"""The journal when things go wrong: a full disk mid-run, a read-only file, a journal
from a newer croupier, an older one to upgrade, and retention."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.journal import (
    SCHEMA_VERSION,
    Journal,
    JournalError,
    open_journal,
    token_hash,
)
from croupier.protocol.journal import writer as writer_module
from croupier.protocol.journal.packing import Unpacker
from croupier.protocol.journal.schema import MIGRATIONS, migrate
from croupier.protocol.running import retain
from croupier.protocol.tournaments import TournamentService
from croupier.protocol.tournaments import run as tournamentrun
from croupier.protocol.transport.limits import ServerLimits
from tests.servedtables import Recorder
from tests.test_journal import play_table, serve


async def test_a_full_disk_pauses_play_tells_why_and_resumes_once_it_writes(
    nursery, tmp_path, caplog, monkeypatch
):
    """A write that fails (SQLite's own "database or disk is full", what a full file system
    gives) drops nothing: the table pauses before its next round, its watchers are told
    why, new tables are refused; once the file may grow again the held writes go in, in
    order, and the table plays on to its end with every round recorded once."""
    monkeypatch.setattr(writer_module, "RETRY", 0.01)
    journal = Journal(str(tmp_path / "j.db"))
    server = await serve(nursery, journal)
    first = await play_table(server.port, {"seats": 1, "fill": ["lim17"], "rounds": 3})
    rec = Recorder()
    with caplog.at_level(logging.WARNING, logger="croupier"):
        async with connect("127.0.0.1", server.port, name="c", on_notification=rec) as c:
            info = await c.call_named(
                "table.create",
                {"seats": 2, "fill": ["lim17"] * 2, "rounds": 300, "autostart": False},
            )
            await c.call("table.watch", info["table"])
            pages = await journal.read(lambda c: c.execute("PRAGMA page_count").fetchone()[0])
            await journal.read(lambda c: c.execute(f"PRAGMA max_page_count = {pages}"))
            try:  # answered once committed: its own row may be the first that does not fit
                await c.call("table.start", info["table"])
            except RpcError as exc:  # then it started all the same, recorded once it writes
                assert exc.code == Code.JOURNAL_FAILED, exc
            with trio.fail_after(60):  # a guard against a hang, not a timing
                await rec.until(lambda: any("paused" in s for s in rec.statuses))
            paused = next(s for s in rec.statuses if "paused" in s)
            assert "cannot write its journal" in paused["paused"] and "full" in paused["paused"]
            assert paused["state"] == "playing" and paused["played"] < 300
            with pytest.raises(RpcError) as refused:
                await c.call_named("table.create", {"seats": 1, "fill": ["lim17"], "rounds": 1})
            with pytest.raises(RpcError) as no_tournament:
                await c.call_named("tournament.start", {"bots": ["lim17"]})
            assert await c.call("ping") == "pong"
            assert (await c.call("table.info", info["table"]))["played"] == paused["played"]
            journal.writer.read_sync(lambda c: c.execute("PRAGMA max_page_count = 1073741823"))
            await rec.finished.wait()
    assert refused.value.code == no_tournament.value.code == Code.JOURNAL_FAILED
    assert rec.statuses[-1]["reason"] == "300 rounds played"
    assert "paused" not in rec.statuses[-1]
    said = [r.getMessage() for r in caplog.records if r.name == "croupier.journal"]
    assert len(said) == 2 and "full" in said[0] and "writes again" in said[1]
    server.stop()
    await journal.aclose()
    with sqlite3.connect(tmp_path / "j.db") as conn:  # whole transactions, nothing dropped
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        (played,) = conn.execute("SELECT played FROM tables WHERE id = ?", (first["table"],))
        assert played == (3,)
        unpacker = Unpacker(conn)  # every round once, in order, in blocks of rounds
        rounds = conn.execute(
            "SELECT round, chips, data FROM events WHERE table_id = ? AND round IS NOT NULL"
            " ORDER BY first",
            (info["table"],),
        ).fetchall()
        assert [n for row in rounds for n, _, _ in unpacker.rounds(row[2], row[1], row[0])] == list(
            range(1, 301)
        )
        (state,) = conn.execute("SELECT state, played FROM tables WHERE id = ?", (info["table"],))
        assert state == ("finished", 300)


def _read_only(path: str) -> None:
    """Make ``path`` read-only, for root too (``chattr +i``) when the tests run as root."""
    os.chmod(path, 0o444)
    if os.geteuid() == 0:
        chattr = shutil.which("chattr")
        done = chattr and subprocess.run([chattr, "+i", path], capture_output=True, check=False)
        if not done or done.returncode != 0:
            pytest.skip("root ignores chmod and chattr +i is not available here")


def test_a_read_only_journal_is_one_clear_line_at_start(tmp_path, cli):
    path = str(tmp_path / "j.db")
    Journal(path).close()
    _read_only(path)
    try:
        with pytest.raises(JournalError, match="cannot write the journal"):
            open_journal(path)
        status, _out, err = cli("serve", "--port", "0", "--data", path)
    finally:
        if os.geteuid() == 0:
            subprocess.run([shutil.which("chattr") or "chattr", "-i", path], check=False)
    assert status == 1 and err.count("\n") == 1 and "readonly" in err.replace("-", "")


def test_a_journal_from_a_newer_croupier_is_refused_untouched(tmp_path, cli):
    path = tmp_path / "j.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    status, _out, err = cli("serve", "--port", "0", "--data", str(path))
    assert status == 1 and err.count("\n") == 1
    assert f"newer croupier (schema {SCHEMA_VERSION + 1}" in err
    assert path.read_bytes() == before


def test_an_older_journal_is_upgraded_in_place(tmp_path):
    path = tmp_path / "j.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, "test") == 0  # a new file is version 0: every migration runs
    conn.execute(
        "INSERT INTO tables (id, game, rules, seed, chips, settings, state, created)"
        " VALUES (5, 'blackjack', '{}', '1', '[]', '{}', 'finished', 0)"
    )
    later = (*MIGRATIONS, "ALTER TABLE tables ADD COLUMN note TEXT;")
    assert migrate(conn, "test", later) == SCHEMA_VERSION
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert conn.execute("SELECT id, note FROM tables").fetchall() == [(5, None)]
    conn.close()


async def test_retention_deletes_only_what_finished_long_enough_ago(nursery, tmp_path):
    journal = Journal(str(tmp_path / "j.db"))
    server = await serve(nursery, journal)
    now = 1_800_000_000.0
    for days_ago in (10, 3):
        journal._clock = lambda d=days_ago: now - d * 86_400  # type: ignore[misc]
        await play_table(server.port, {"seats": 1, "fill": ["lim17"], "rounds": 1})
    assert await journal.prune(5, now=now) == (1, 0)
    async with connect("127.0.0.1", server.port, name="c") as c:
        left = await c.call_named("history.tables", {})
    assert left["total"] == 1 and left["tables"][0]["finished"] == now - 3 * 86_400
    assert (
        journal.writer.read_sync(
            lambda c: c.execute("SELECT sum(last - first + 1) FROM events").fetchone()
        )[0]
        == left["tables"][0]["events"]
    )
    server.stop()
    await journal.aclose()


async def test_retention_runs_at_start_and_then_daily(autojump_clock):
    calls: list[float] = []

    class Counting:
        async def prune(self, keep_days: float) -> tuple[int, int]:
            calls.append(trio.current_time())
            return 0, 0

    with trio.move_on_after(2.5 * 86_400):
        await retain(Counting(), 7)  # type: ignore[arg-type]
    assert calls == [0.0, 86_400.0, 2 * 86_400.0]


@pytest.fixture
def tiny_disk(tmp_path):
    """A 1 MB file system of its own (tmpfs; root only, skipped elsewhere), unmounted after."""
    where = tmp_path / "tiny"
    where.mkdir()
    mount = shutil.which("mount")
    done = mount and subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], capture_output=True
    )
    if not done or done.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (not root?)")
    try:
        yield where
    finally:
        subprocess.run([shutil.which("umount") or "umount", str(where)], check=False)


def test_a_server_refuses_to_start_on_a_full_disk(tiny_disk, cli):
    path = tiny_disk / "j.db"
    Journal(str(path)).close()
    fill = os.open(tiny_disk / "fill", os.O_WRONLY | os.O_CREAT)
    try:  # the disk full to its last byte
        with pytest.raises(OSError):
            while True:
                os.write(fill, b"\0" * 4096)
    finally:
        os.close(fill)
    status, _out, err = cli("serve", "--port", "0", "--data", str(path))
    assert status == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert f"cannot write the journal {path}" in err


async def test_a_join_answered_journal_failed_leaves_the_seat_free(nursery, tmp_path, monkeypatch):
    """The seat's token could not be recorded: the join is refused and the seat is not
    taken (a crash would have lost the token, and nobody could take the seat); once the
    journal writes again the seat is given to the next join, and the journal has it so."""
    monkeypatch.setattr(writer_module, "RETRY", 0.01)
    journal = Journal(str(tmp_path / "j.db"))
    server = await serve(nursery, journal)
    async with (
        connect("127.0.0.1", server.port, name="c") as c,
        connect("127.0.0.1", server.port, name="b", role="bot") as bot,
    ):
        info = await c.call_named(
            "table.create", {"seats": 1, "fill": [None], "rounds": 1, "autostart": False}
        )
        await journal.read(lambda conn: conn.execute("PRAGMA query_only = 1"))  # writes fail
        with pytest.raises(RpcError) as refused:
            await bot.call_named("table.join", {"table": info["table"]})
        assert refused.value.code == Code.JOURNAL_FAILED
        seats = (await c.call("table.info", info["table"]))["seats"]
        assert [s["kind"] for s in seats] == ["free"]
        await journal.read(lambda conn: conn.execute("PRAGMA query_only = 0"))
        await journal.writable()
        joined = await bot.call_named("table.join", {"table": info["table"]})
        assert joined["seat"] == 1
        hashed = await journal.read(
            lambda conn: conn.execute(
                "SELECT token_sha256 FROM seats WHERE table_id = ?", (info["table"],)
            ).fetchone()[0]
        )
        assert hashed == token_hash(joined["token"])
    server.stop()
    await journal.aclose()


@pytest.mark.slow  # 9 s; a table's pause and resumption: the full-disk test above
async def test_a_tournament_pauses_while_its_journal_cannot_write_and_plays_on_after(
    nursery, tmp_path, monkeypatch
):
    """Like a table: no new table of the tournament is dealt while its results cannot be
    recorded (those in play finish), its watchers are told why, and once the journal
    writes again it plays on to its end with every table recorded."""
    monkeypatch.setattr(writer_module, "RETRY", 0.01)
    journal = Journal(str(tmp_path / "j.db"))
    server = await serve(nursery, journal)
    (service,) = [s for s in server.services if isinstance(s, TournamentService)]
    statuses: list[dict[str, Any]] = []
    paused, finished = trio.Event(), trio.Event()

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status":
            statuses.append(params[1])
            if "paused" in params[1]:
                paused.set()
            if params[1]["state"] == "finished":
                finished.set()

    bots = ["lim17", "never-bust", "mimic-dealer", "lim17", "never-bust"]
    async with connect("127.0.0.1", server.port, name="c", on_notification=status) as c:
        info = await c.call_named(
            "tournament.start", {"bots": bots, "tourneys": 300, "rounds": 4, "hands": 3}
        )
        running = service.tournaments[info["tournament"]]
        await journal.read(lambda conn: conn.execute("PRAGMA query_only = 1"))  # writes fail
        with trio.fail_after(60):  # a guard against a hang, not a timing
            await paused.wait()
        at_pause = running.recorded
        for _ in range(20):  # time passes; the tables in play finish, no new one is dealt
            await journal.read(lambda conn: conn.execute("SELECT 1").fetchone())
        assert running.recorded - at_pause <= tournamentrun.CONCURRENCY
        shown = await c.call("tournament.info", info["tournament"])
        assert "cannot write its journal" in shown["paused"] and shown["state"] == "playing"
        assert shown["progress"]["done"] < shown["progress"]["total"]
        await journal.read(lambda conn: conn.execute("PRAGMA query_only = 0"))
        with trio.fail_after(120):
            await finished.wait()
    assert statuses[-1]["reason"] == "played" and "paused" not in statuses[-1]
    assert any("paused" not in s and s["state"] == "playing" for s in statuses[1:])
    server.stop()
    await journal.aclose()
    with sqlite3.connect(tmp_path / "j.db") as conn:
        (rows,) = conn.execute("SELECT count(*) FROM tournament_tables").fetchone()
    assert rows == running.recorded


async def test_an_address_past_its_journal_quota_has_its_tables_finish_and_makes_no_more(
    nursery, tmp_path
):
    """``--journal-quota``: a table of a million rounds stops soon after its address's rows
    pass the quota, and that address's next table is refused, so one client cannot fill
    the disk; the journal holds about the quota, not a million rounds."""
    quota = 40_000
    journal = Journal(str(tmp_path / "j.db"))
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=11,
        journal=journal,
        limits=ServerLimits(journal_quota=quota),
    )
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    final = await play_table(port, {"seats": 2, "fill": ["lim17"] * 2, "rounds": 10**6})
    assert final["reason"] == f"its creator's address used its journal quota ({quota:,} bytes)"
    assert quota <= journal.usage("127.0.0.1") and final["played"] < 10**6
    async with connect("127.0.0.1", port, name="c") as c:
        with pytest.raises(RpcError) as refused:
            await c.call_named("table.create", {"seats": 1, "fill": ["lim17"], "rounds": 1})
    assert refused.value.code == Code.LIMIT_EXCEEDED
    assert "its quota (--journal-quota) is 40,000: no more tables" in refused.value.message
    server.stop()
    await journal.aclose()
    with sqlite3.connect(tmp_path / "j.db") as conn:
        (written,) = conn.execute("SELECT sum(length(data)) FROM events").fetchone()
    assert quota <= written < 3 * quota
