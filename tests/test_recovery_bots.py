"""Crash recovery of tables with bot seats: a bot takes its seat back with its token
(compared by hash) and the table ends as an uninterrupted one; a bot that never comes back
leaves its seat vacant; a table still waiting for its bots waits again. The crash is made as
in ``tests/test_recovery.py``: an uninterrupted run's journal cut back to round ``k``."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
import trio

from croupier.protocol import Code, RpcError, connect
from croupier.protocol.journal import Journal
from tests.test_recovery import crash_after, finish, recover, rows, serve, tables_of


def stubborn(table: int, observation: Any) -> Any:
    """A bot whose answers depend on what it sees only (so a replay asks it the same)."""
    if observation["phase"] == "bet":
        return {"kind": "bet", "amount": observation["min_bet"]}
    total = observation.get("total") or 0
    return {"kind": "hit" if total < 15 else "stand"}


async def play_with_bot(port: int, params: dict[str, Any]) -> dict[str, Any]:
    """Create a table with one bot seat, sit ``stubborn`` in it and play it to its end."""
    gone = trio.Event()
    final: dict[str, Any] = {}

    async def decide(table: int, observation: Any) -> Any:
        return stubborn(table, observation)

    async def notified(method: str, params: Any) -> None:
        if method == "table.status" and params[1]["state"] == "finished":
            final.update(params[1])
            gone.set()

    async with connect(
        "127.0.0.1", port, name="b", role="bot", handlers={"decide": decide},
        on_notification=notified,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", params)
        joined = await bot.call("table.join", info["table"], 1, True, [])
        await gone.wait()
    return {**final, "token": joined["token"], "key": info["key"], "table": info["table"]}


BOT_TABLE = {"seats": 3, "fill": [None, "lim17", "never-bust"], "rounds": 20, "seed": 21}


async def test_a_bot_takes_its_seat_back_with_its_token_and_the_table_ends_the_same(
    nursery, tmp_path
):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    journal = Journal(str(whole))
    server = await serve(nursery, journal)
    played = await play_with_bot(server.port, BOT_TABLE)
    server.stop()
    await journal.aclose()
    table = played["table"]
    crash_after(whole, cut, {table: 7})
    server = await recover(cut, nursery)
    found = tables_of(server).tables[table]
    assert found.played == 7 and found.seats[0].token is None and found.seats[0].held

    async def decide(table: int, observation: Any) -> Any:
        return stubborn(table, observation)

    async with connect(
        "127.0.0.1", server.port, name="b", role="bot", handlers={"decide": decide}
    ) as bot:  # fmt: skip
        with pytest.raises(RpcError) as wrong:
            await bot.call("table.rejoin", played["token"][::-1], True, [])
        assert wrong.value.code == Code.BAD_TOKEN
        back = await bot.call("table.rejoin", played["token"], True, [])
        assert back["table"] == table and back["seat"] == 1
        await found.done.wait()
    async with connect("127.0.0.1", server.port, name="o") as other:
        # the table's key works after the restart: only its hash was kept
        assert (await other.call("table.stop", table, played["key"]))["state"] == "finished"
    await finish(server, [table])
    (state, reason, n, result), events = rows(cut, table)
    want_head, want_events = rows(whole, table)
    assert (state, reason, n, result) == want_head and events == want_events
    ledger = json.loads(result)  # chips conserved: the seats and the house hold what they had
    assert sum(ledger["chips"]) + ledger["house"] == 3 * found.options["starting_chips"]


async def test_a_recovered_table_whose_bot_never_comes_back_ends_as_vacant(
    nursery, tmp_path, virtual_clock
):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    journal = Journal(str(whole))
    server = await serve(nursery, journal)
    played = await play_with_bot(server.port, {**BOT_TABLE, "rounds": 4})
    server.stop()
    await journal.aclose()
    crash_after(whole, cut, {played["table"]: 2})
    server = await recover(cut, nursery)
    found = tables_of(server).tables[played["table"]]
    await found.done.wait()  # nobody came back: it waits vacant_timeout twice, then ends
    assert found.reason == "every bot left" and found.played == 2
    await finish(server, [])


async def test_a_table_still_waiting_for_its_bots_waits_again_and_starts_when_seated(
    nursery, tmp_path
):
    path = tmp_path / "j.db"
    journal = Journal(str(path))
    server = await serve(nursery, journal)
    params = {"seats": 2, "fill": [None, "lim17"], "rounds": 3, "seed": 4, "decision_time": 5.0}
    async with connect("127.0.0.1", server.port, name="c") as c:
        info = await c.call_named("table.create", {**params, "autostart": False})
        joined = await c.call("table.join", info["table"], 1, False, [])  # not started yet
    server.stop()
    await journal.aclose()
    with sqlite3.connect(path) as conn:  # what a crash before table.start leaves
        conn.execute("UPDATE tables SET state = 'waiting', reason = NULL, finished = NULL")
    server = await recover(path, nursery)
    found = tables_of(server).tables[info["table"]]
    assert found.state == "waiting" and found.ready()  # seat 1 is held, by its hash
    asked = []

    async def decide(table: int, observation: Any) -> Any:
        asked.append(observation["phase"])
        return stubborn(table, observation)

    async with connect(
        "127.0.0.1", server.port, name="b", role="bot", handlers={"decide": decide}
    ) as bot:  # fmt: skip
        await bot.call("table.rejoin", joined["token"], False, [])
        with pytest.raises(RpcError) as refused:  # a waiting table starts on its key only
            await bot.call("table.start", info["table"], "not-its-key")
        assert refused.value.code == Code.NOT_ALLOWED
        started = await bot.call("table.start", info["table"], info["key"])
        assert started["state"] == "playing"
        await found.done.wait()
    assert found.played == 3 and "bet" in asked
    assert found.engine is not None and found.engine.tally.faults == [0, 0]
    await finish(server, [])
