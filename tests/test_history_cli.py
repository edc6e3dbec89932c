"""``croupier history``: from a server (``--connect``) and from a journal file (``--data``),
the same tables and tournaments, and an export that replays."""

from __future__ import annotations

import json
import sys

import pytest
import trio

from croupier.engine import PluginManager
from croupier.engine.gamelog import replay_game
from croupier.engine.ledger import seat_account
from croupier.protocol import connect
from croupier.protocol.journal import Journal
from tests.test_journal import play_table, serve
from tests.test_recovery import tables_of


async def croupier(*argv: str) -> str:
    done = await trio.run_process(
        [sys.executable, "-m", "croupier.clients.cli", *argv], capture_stdout=True
    )
    return done.stdout.decode()


@pytest.mark.slow
async def test_history_from_the_server_and_from_the_file_agree(nursery, tmp_path):
    path = str(tmp_path / "j.db")
    journal = Journal(path)
    server = await serve(nursery, journal)
    final = await play_table(
        server.port, {"seats": 2, "fill": ["lim17", "never-bust"], "rounds": 15, "seed": 21}
    )
    where = f"127.0.0.1:{server.port}"
    online = json.loads(await croupier("history", "tables", "--connect", where, "--json"))
    exported = await croupier("history", "export", str(final["table"]), "--connect", where)
    shown = await croupier("history", "table", str(final["table"]), "--connect", where)
    server.stop()
    await journal.aclose()
    offline = json.loads(await croupier("history", "tables", "--data", path, "--json"))
    assert online == offline and offline["tables"][0]["seed"] == 21
    assert exported == await croupier("history", "export", str(final["table"]), "--data", path)
    core = replay_game(PluginManager(autoload=False), exported.splitlines())
    assert [core.ledger.balances[seat_account(i)] for i in (1, 2)] == final["chips"]
    assert "15 rounds played" in shown
    # croupier history replay: the export replays, one line; an edited one is caught
    log = tmp_path / "t.jsonl"
    log.write_text(exported)
    verdict = await croupier("history", "replay", str(log))
    chips = ", ".join(f"1000 -> {c}" for c in final["chips"])
    assert verdict.count("\n") == 1 and verdict.startswith(f"ok: {log} replays to the same")
    assert f"15 rounds, seat chips {chips} (seed 21)" in verdict
    lines = exported.splitlines()
    at = next(i for i, x in enumerate(lines) if '"kind": "action"' in x and '"stand"' in x)
    lines[at] = lines[at].replace('"stand"', '"hit"', 1)
    log.write_text("\n".join(lines) + "\n")
    done = await trio.run_process(
        [sys.executable, "-m", "croupier.clients.cli", "history", "replay", str(log)],
        capture_stderr=True,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 1 and err.count("\n") == 1, err
    assert err.startswith(f"croupier: error: {log} does not replay: ")
    assert max(map(len, shown.splitlines())) < 100  # one row per field, however nested
    assert "rules.decks" in shown and "settings.fill" in shown
    listed = await croupier("history", "tables", "--data", path, "--state", "finished")
    assert "tables: 1 of 1" in listed and str(final["table"]) in listed


def test_history_of_a_missing_journal_or_table_is_one_line(cli, tmp_path):
    status, _, err = cli("history", "tables", "--data", str(tmp_path / "none.db"))
    assert status == 1 and err.count("\n") == 1 and "no journal at" in err
    Journal(str(tmp_path / "j.db")).close()
    status, _, err = cli("history", "table", "7", "--data", str(tmp_path / "j.db"))
    assert status == 1 and "the journal has no table 7" in err
    status, out, _ = cli("history", "tournaments", "--data", str(tmp_path / "j.db"), "--json")
    assert status == 0 and json.loads(out) == {"total": 0, "tournaments": []}


def test_a_tournament_whose_runs_ended_early_says_why():
    """A finished tournament showing 361/500 read as unfinished to a newcomer: its runs
    had ended once every bot in them was out."""
    from croupier.clients.cli.commands.history import _progress

    row = {"progress": {"done": 361, "total": 500}, "state": "finished", "reason": "played"}
    assert _progress(row) == "361/500 (runs ended early: every bot out)"
    assert _progress({**row, "state": "playing", "reason": None}) == "361/500"
    assert _progress({**row, "reason": "stopped by its creator"}) == "361/500"
    assert _progress({**row, "progress": {"done": 500, "total": 500}}) == "500/500"


@pytest.mark.slow
async def test_a_live_tables_seed_is_hidden_in_the_history(nursery, tmp_path):
    path = str(tmp_path / "j.db")
    journal = Journal(path)
    server = await serve(nursery, journal)
    async with connect("127.0.0.1", server.port, name="c") as c:  # waits for its bot
        made = await c.call_named("table.create", {"seats": 2, "fill": [None, "lim17"]})
    seed = tables_of(server).tables[made["table"]].seed
    server.stop()  # the table stays unfinished in the journal, to resume
    await journal.aclose()
    listed = await croupier("history", "tables", "--data", path)
    assert "hidden" in listed and str(seed) not in listed
    (row,) = json.loads(await croupier("history", "tables", "--data", path, "--json"))["tables"]
    assert row["state"] == "waiting" and row["seed"] is None and row["commit"] == made["commit"]
    # its export has no seed yet: replaying it says why, in one line
    exported = await croupier("history", "export", str(made["table"]), "--data", path)
    log = tmp_path / "live.jsonl"
    log.write_text(exported)
    done = await trio.run_process(
        [sys.executable, "-m", "croupier.clients.cli", "history", "replay", str(log)],
        capture_stdout=True,
        capture_stderr=True,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 1 and err.count("\n") == 1, err
    assert "exported while its table was still playing" in err
