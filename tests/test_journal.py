"""The server's journal: tables, seats (tokens hashed), events and tournaments recorded in
SQLite, read back through the history methods, and exported logs that replay."""

from __future__ import annotations

import hashlib
import itertools
import json
import sqlite3
from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.engine.gamelog import replay_game
from croupier.engine.ledger import seat_account
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.journal import Journal
from croupier.protocol.journal.packing import Unpacker
from croupier.protocol.services import default_services
from croupier.protocol.tables import TableService
from tests.servedtables import Recorder


async def serve(nursery: trio.Nursery, journal: Journal | None) -> Server:
    services = [*default_services()[:-1], TableService(vacant_timeout=30, unclaimed_timeout=30)]
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=11,
        services=services,
        journal=journal,
    )
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    server.port = port  # type: ignore[attr-defined]
    return server


@pytest.fixture
async def journal(tmp_path):
    found = Journal(str(tmp_path / "croupier.db"))
    yield found
    await found.aclose()


@pytest.fixture
async def served(nursery, journal):
    server = await serve(nursery, journal)
    yield server
    server.stop()


async def play_table(port: int, params: dict[str, Any]) -> dict[str, Any]:
    """Create a table of strategies and wait until it finishes; its last status."""
    rec = Recorder()
    async with connect("127.0.0.1", port, name="c", on_notification=rec) as c:
        info = await c.call_named("table.create", {**params, "autostart": False})
        await c.call("table.watch", info["table"])
        await c.call("table.start", info["table"])
        await rec.finished.wait()
    return rec.statuses[-1]


async def export(c: Any, table: int, page: int) -> list[str]:
    lines: list[str] = []
    offset: int | None = 0
    while offset is not None:
        got = await c.call_named(
            "history.export", {"table": table, "offset": offset, "limit": page}
        )
        lines.extend(got["lines"])
        offset = got["next"]
    return lines


async def test_a_blackjack_table_is_recorded_and_its_export_replays_to_the_same_ledger(served):
    fill = ["lim17", "never-bust", "mimic-dealer"]
    final = await play_table(served.port, {"seats": 3, "fill": fill, "rounds": 25, "seed": 4})
    async with connect("127.0.0.1", served.port, name="h") as c:
        listed = await c.call_named("history.tables", {"state": "finished"})
        assert listed["total"] == 1
        (row,) = listed["tables"]
        assert row["table"] == final["table"] and row["seed"] == 4 and row["played"] == 25
        assert row["result"] == {"chips": final["chips"], "house": final["house"]}
        assert [s["player"] for s in row["seats"]] == fill
        assert row["creator"].startswith("c (#") and "127.0.0.1" not in row["creator"]
        one = await c.call("history.table", final["table"])
        assert one["settings"]["rounds"] == 25 and one["rules"] == final["rules"]
        events = await c.call("history.events", final["table"], 0, 1000)
        assert len(events) == row["events"]
        paged = []
        for offset in range(0, len(events), 5):  # pages cut rounds anywhere
            paged += await c.call("history.events", final["table"], offset, 5)
        assert paged == events
        lines = await export(c, final["table"], page=7)  # pages cut anywhere
    assert len(lines) == row["events"] + 1
    assert json.loads(lines[0])["game"] == "blackjack"  # every table exports as a game log
    core = replay_game(PluginManager(autoload=False), lines)
    chips = [core.ledger.balances[seat_account(i + 1)] for i in range(len(final["chips"]))]
    assert chips == final["chips"]


async def test_a_game_table_export_replays_with_replay_game(served):
    final = await play_table(
        served.port,
        {"game": "baccarat", "seats": 2, "fill": ["banker", "player"], "rounds": 9, "seed": 3},
    )
    async with connect("127.0.0.1", served.port, name="h") as c:
        lines = await export(c, final["table"], page=1000)
        listed = await c.call_named("history.tables", {"game": "baccarat"})
        assert [t["table"] for t in listed["tables"]] == [final["table"]]
        assert (await c.call_named("history.tables", {"game": "blackjack"}))["total"] == 0
    assert any(json.loads(line)["kind"] == "action" for line in lines[1:])
    core = replay_game(PluginManager(autoload=False), lines)
    assert [core.ledger.balances[seat_account(i)] for i in (1, 2)] == final["chips"]


async def test_bot_seats_keep_only_a_hash_of_their_token(served, journal):
    async def decide(table: int, observation: Any) -> Any:
        return "stand"

    auto = ["bet", "insurance", "surrender"]
    rec = Recorder()
    async with connect(
        "127.0.0.1", served.port, name="b", role="bot", handlers={"decide": decide},
        on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", {"seats": 1, "rounds": 1})
        joined = await bot.call("table.join", info["table"], None, False, auto)
        await rec.finished.wait()
        seats = (await bot.call("history.table", info["table"]))["seats"]
    assert seats == [{"seat": 1, "kind": "bot", "player": "b"}]
    dump = "\n".join(journal.writer.read_sync(lambda c: list(c.iterdump())))
    assert joined["token"] not in dump
    assert hashlib.sha256(joined["token"].encode()).hexdigest() in dump


async def test_listing_filters_and_pages(served):
    for seed in (1, 2, 3):
        await play_table(served.port, {"seats": 1, "fill": ["lim17"], "rounds": 2, "seed": seed})
    async with connect("127.0.0.1", served.port, name="h") as c:
        every = await c.call_named("history.tables", {})
        assert every["total"] == 3 and [t["seed"] for t in every["tables"]] == [3, 2, 1]
        page = await c.call_named("history.tables", {"limit": 2, "offset": 1})
        assert [t["seed"] for t in page["tables"]] == [2, 1] and page["total"] == 3
        assert (await c.call_named("history.tables", {"state": "running"}))["total"] == 0
        later = await c.call_named("history.tables", {"since": every["tables"][0]["created"]})
        assert [t["seed"] for t in later["tables"]] == [3]
        with pytest.raises(RpcError) as bad:
            await c.call_named("history.tables", {"state": "sleeping"})
        assert bad.value.code == Code.BAD_INPUT
        with pytest.raises(RpcError) as missing:
            await c.call("history.table", 999_999)
        assert missing.value.code == Code.UNKNOWN_NAME


async def test_a_tournament_is_recorded_with_its_result(served):
    done = trio.Event()

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status" and params[1]["state"] == "finished":
            done.set()

    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        info = await c.call_named(
            "tournament.start",
            {"bots": ["lim17", "never-bust"], "tourneys": 1, "rounds": 2, "hands": 3, "seed": 6},
        )
        await done.wait()
        listed = await c.call_named("history.tournaments", {"state": "finished"})
        found = await c.call("history.tournament", info["tournament"])
    assert listed["total"] == 1 and listed["tournaments"][0]["seed"] == 6
    assert found["bots"] == ["lim17", "never-bust"] and found["settings"]["hands"] == 3
    assert found["result"] is not None and found["progress"]["done"] == 2
    assert found["started"] is not None and found["finished"] >= found["started"]


async def test_a_restarted_server_numbers_above_the_journal(nursery, tmp_path):
    path = str(tmp_path / "j.db")
    first = Journal(path)
    server = await serve(nursery, first)
    final = await play_table(server.port, {"seats": 1, "fill": ["lim17"], "rounds": 1})
    server.stop()
    await first.aclose()
    again = Journal(path)
    assert again.last_id() == final["table"]
    assert Server(
        PluginManager(autoload=False), default_game="blackjack", seed=1, journal=again
    ).next_game_id() == (final["table"] + 1)
    again.close()


async def test_a_server_without_a_journal_says_it_has_no_history(nursery):
    server = await serve(nursery, None)
    async with connect("127.0.0.1", server.port, name="h") as c:
        with pytest.raises(RpcError) as none:
            await c.call_named("history.tables", {})
    assert none.value.code == Code.BAD_INPUT and "no journal" in none.value.message
    server.stop()


def test_the_journal_uses_wal(tmp_path):
    journal = Journal(str(tmp_path / "j.db"))
    journal.close()
    with sqlite3.connect(tmp_path / "j.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_settled_rounds_are_blocks_of_consecutive_rounds_with_their_events_and_chips(
    served, journal
):
    final = await play_table(served.port, {"seats": 2, "fill": ["lim17"] * 2, "rounds": 6})
    rows = journal.writer.read_sync(
        lambda c: c.execute(
            "SELECT round, first, last, chips, data FROM events WHERE table_id = ? ORDER BY first",
            (final["table"],),
        ).fetchall()
    )
    unpacker = Unpacker(journal.writer.conn)
    assert all(isinstance(r[4], bytes) and r[3] is None for r in rows)  # packed (schema 7)
    assert unpacker.row(rows[-1][4], None)[1] == final["chips"]
    assert all(b[1] == a[2] + 1 for a, b in itertools.pairwise(rows))
    numbers = []
    for round_, first, last, _chips, data in rows:
        events = unpacker.events(data)
        assert len(events) == last - first + 1 and events[-1]["kind"] == "end"
        rounds = unpacker.rounds(data, None, round_)
        assert [e for _, found, _ in rounds for e in found] == events
        assert all(found[-1]["kind"] == "end" and chips for _, found, chips in rounds)
        assert rounds[-1][0] == round_  # the row's round is its last
        numbers += [number for number, _, _ in rounds]
    assert numbers == [1, 2, 3, 4, 5, 6]


BEYOND_SQLITE = (2**63, 2**64 - 1)  # msgpack carries them; SQLite's integers stop at 2**63-1


@pytest.mark.parametrize("big", BEYOND_SQLITE)
async def test_numbers_beyond_sqlites_integers_are_answered_not_internal_errors(served, big):
    await play_table(served.port, {"seats": 1, "fill": ["lim17"], "rounds": 1, "seed": 1})
    async with connect("127.0.0.1", served.port, name="h") as c:
        table = (await c.call_named("history.tables", {}))["tables"][0]["table"]
        for method, param in (
            ("history.table", "table"),
            ("history.events", "table"),
            ("history.export", "table"),
            ("history.tournament", "tournament"),
        ):
            with pytest.raises(RpcError) as missing:
                await c.call_named(method, {param: big})
            assert missing.value.code == Code.UNKNOWN_NAME, method
        for method, params in (
            ("history.tables", {"offset": big}),
            ("history.tournaments", {"offset": big}),
            ("history.events", {"table": table, "offset": big}),
            ("history.export", {"table": table, "offset": big}),
        ):
            with pytest.raises(RpcError) as bad:
                await c.call_named(method, params)
            assert bad.value.code == Code.BAD_INPUT and "offset" in bad.value.message, method
        later = await c.call_named("history.tables", {"since": big})
        assert later == {"total": 0, "tables": []}
        # the largest offset accepted still reads (an empty page), however large the limit
        last = await c.call_named("history.events", {"table": table, "offset": 2**62})
        assert last == []
