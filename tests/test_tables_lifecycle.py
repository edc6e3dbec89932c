"""A server table's life: slots and their expiry, tables the engine refuses, shutdown,
autostart, and what a connection that went away leaves behind. On the memory net
(tests/memnet.py) and virtual time, so each timeout is exact."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server, ServerLimits
from croupier.protocol.transport.client import connect_stream
from tests import memnet
from tests.servedtables import Recorder, replayed_chips, table_server


@pytest.fixture
async def served(nursery):
    server = table_server(vacant_timeout=0.5, unclaimed_timeout=30)
    await memnet.serve(nursery, server)
    yield server
    server.stop()


@pytest.fixture
async def served_briefly(nursery):
    """Tables expire when nobody sits at them for half a second."""
    server = table_server(unclaimed_timeout=0.5)
    await memnet.serve(nursery, server)
    yield server
    server.stop()


def from_host(server: Server, host: str, name: str) -> Any:
    """A client connection to ``server`` (on its memory net) from address ``host``."""
    return connect_stream(server.net.dial(host), name=name, role="bot", peer="memnet")


async def test_open_tables_are_limited_per_client_and_in_all(served, virtual_clock):
    limits = served.limits
    each = limits.tables_per_connection
    async with contextlib.AsyncExitStack() as stack:
        clients = [  # each from an address of its own: one address runs at most half
            await stack.enter_async_context(from_host(served, f"10.0.0.{i}", f"c{i}"))
            for i in range(limits.max_tables // each + 1)
        ]
        for c in clients[:-1]:
            for _ in range(each):
                table = await c.call_named("table.create", {"seats": 2})
                await c.call("table.join", table["table"])  # a seated bot: the table waits on
            with pytest.raises(RpcError, match=f"a client runs at most {each} open tables"):
                await c.call_named("table.create", {})  # its own quota
        with pytest.raises(RpcError, match=f"at most {limits.max_tables} open tables") as exc:
            await clients[-1].call_named("table.create", {})  # the server's
        assert exc.value.code == Code.LIMIT_EXCEEDED
        listed = await clients[0].call("table.list")
        assert len(listed) == limits.max_tables
        assert {t["state"] for t in listed} == {"waiting"}


async def test_one_address_runs_at_most_half_the_tables(served, virtual_clock):
    """Connection after connection from one address: the tables it opens stop at half the
    server's slots (``tables_per_peer``), and another address still gets one."""
    limits = served.limits
    each, half = limits.tables_per_connection, limits.max_tables // 2
    async with contextlib.AsyncExitStack() as stack:
        greedy = [
            await stack.enter_async_context(from_host(served, "10.0.0.66", f"g{i}"))
            for i in range(half // each + 1)
        ]
        for c in greedy[:-1]:
            for _ in range(each):
                await c.call_named("table.create", {"seats": 2})
        with pytest.raises(RpcError, match=f"one address runs at most {half} of the server's "):
            await greedy[-1].call_named("table.create", {})
        other = await stack.enter_async_context(from_host(served, "10.0.0.7", "other"))
        assert (await other.call_named("table.create", {"seats": 2}))["state"] == "waiting"
        await greedy[0].call("table.stop", (await greedy[0].call("table.list"))[0]["table"])
        await greedy[-1].call_named("table.create", {})  # a slot of its own freed


async def test_a_table_nobody_sits_at_expires_and_frees_its_slot(served_briefly, virtual_clock):
    served = served_briefly
    each = served.limits.tables_per_connection
    async with contextlib.AsyncExitStack() as stack:
        for i in range(served.limits.max_tables // each):
            hog = await stack.enter_async_context(from_host(served, f"10.0.1.{i}", f"h{i}"))
            for _ in range(each):
                await hog.call_named("table.create", {"seats": 2})
        with pytest.raises(RpcError) as full:
            await hog.call_named("table.create", {"seats": 2})
        assert full.value.code == Code.LIMIT_EXCEEDED
    # the creator is gone and nobody sat down: after vacant_timeout (0.5 s here) every
    # table finishes, and another client can create one again
    async with served.net.connect(name="c") as c:
        with trio.fail_after(10):
            while any(t["state"] == "waiting" for t in await c.call("table.list")):
                await trio.sleep(0.1)
        reasons = {t["reason"] for t in await c.call("table.list")}
        assert reasons == {"no bot in any seat for 0.5 s"}
        created = await c.call_named("table.create", {"seats": 1})
        assert created["state"] == "waiting"


async def test_a_waiting_table_with_a_seated_bot_does_not_expire(served_briefly, virtual_clock):
    served = served_briefly
    async with served.net.connect(name="b", role="bot") as b:
        table = (await b.call_named("table.create", {"seats": 2}))["table"]
        await b.call("table.join", table)
        await trio.sleep(1.0)  # twice vacant_timeout
        assert (await b.call("table.info", table))["state"] == "waiting"


async def test_a_table_the_engine_refuses_finishes_instead_of_holding_a_slot(
    served, virtual_clock, monkeypatch
):
    import croupier.protocol.tables.run as tablerun

    def refuse(*args, **kwargs):
        raise TypeError("a plugin that breaks on these rules")

    monkeypatch.setattr(tablerun, "GameTable", refuse)
    async with served.net.connect(name="c") as c:
        for _ in range(served.limits.max_tables + 1):
            with pytest.raises(RpcError) as exc:
                await c.call_named("table.create", {"fill": ["lim17"], "rounds": 1})
            assert exc.value.code == Code.INTERNAL_ERROR
        listed = await c.call("table.list")
        assert {t["state"] for t in listed} == {"finished"}
        reasons = {t["reason"] for t in listed}
        assert len(reasons) == 1 and reasons.pop().startswith(
            "internal error in plugin 'blackjack' (game 'blackjack'): TypeError"
        )


async def test_a_table_whose_bots_left_finishes(served, virtual_clock):
    rec = Recorder()
    async with served.net.connect(name="w", on_notification=rec) as w:
        info = await w.call_named("table.create", {"seats": 1, "decision_time": 0.1})
        await w.call("table.watch", info["table"])
        async with served.net.connect(name="b", role="bot") as b:
            joined = await b.call("table.join", info["table"])
            await b.call("table.leave", joined["token"])
        with trio.fail_after(5):
            await rec.finished.wait()
    assert rec.statuses[-1]["reason"] == "every bot left"


async def test_shutdown_finishes_the_hand_in_progress(nursery, virtual_clock):
    manager = PluginManager(autoload=False)
    server = Server(manager, default_game="blackjack", seed=3)
    net = await memnet.serve(nursery, server)
    rec = Recorder()
    in_hand = trio.Event()

    async def slow(table: int, observation: Any) -> Any:
        if observation["phase"] == "play":
            in_hand.set()
            await trio.sleep(0.05)
            return "hit" if observation["total"] < 17 else "stand"
        return {"kind": "bet", "amount": observation["min_bet"]}

    async with net.connect(
        name="slow", role="bot",
        handlers={"decide": slow}, on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", {"seats": 1, "decision_time": 1.0})
        await bot.call("table.join", info["table"])
        await in_hand.wait()
        server.stop()
        with trio.fail_after(10):
            await rec.finished.wait()
    final = rec.statuses[-1]
    assert final["reason"] == "the server is shutting down"
    assert rec.events[-1]["kind"] == "end"
    assert len(rec.kinds("end")) == len(rec.kinds("round")) == final["played"] >= 1
    assert not rec.kinds("default")
    assert final["chips"][0] + final["house"] == 1000
    assert replayed_chips(final, rec.events) == final["chips"]


async def test_shutdown_does_not_wait_for_ever_on_a_table_without_a_time_limit(
    nursery, virtual_clock
):
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=3,
        limits=ServerLimits(shutdown_grace=0.3),
    )
    net = await memnet.serve(nursery, server)
    rec = Recorder()
    asked = trio.Event()

    async def away(table: int, observation: Any) -> Any:
        if observation["phase"] == "bet":
            return {"kind": "bet", "amount": observation["min_bet"]}
        asked.set()
        await trio.sleep_forever()  # a person who walked away from the terminal

    async with net.connect(
        name="away", role="bot",
        handlers={"decide": away}, on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", {"seats": 1, "decision_time": None})
        await bot.call("table.join", info["table"])
        with trio.fail_after(10):
            await asked.wait()
            server.stop()
            await rec.finished.wait()  # the hand ends on defaults within the grace
    final = rec.statuses[-1]
    assert final["reason"] == "the server is shutting down"
    assert rec.events[-1]["kind"] == "end" and rec.kinds("default")
    assert final["chips"][0] + final["house"] == 1000


async def test_a_table_of_strategies_waits_for_table_start_when_asked(served, virtual_clock):
    rec = Recorder()
    async with served.net.connect(name="w", on_notification=rec) as w:
        info = await w.call_named(
            "table.create", {"fill": ["lim17"], "rounds": 3, "seed": 2, "autostart": False}
        )
        assert info["state"] == "waiting"
        await w.call("table.watch", info["table"])
        await w.call("table.start", info["table"])
        with trio.fail_after(10):
            await rec.finished.wait()
    assert rec.events[0]["kind"] == "round" and rec.events[0]["round"] == 1  # seen from the start
    assert rec.statuses[-1]["played"] == 3


async def test_a_held_table_of_strategies_expires_if_never_started(served_briefly, virtual_clock):
    async with served_briefly.net.connect(name="c") as c:
        info = await c.call_named(
            "table.create", {"fill": ["lim17"], "rounds": 3, "autostart": False}
        )
        with trio.fail_after(10):
            while info["state"] == "waiting":
                await trio.sleep(0.05)
                info = await c.call("table.info", info["table"])
    assert info["state"] == "finished" and info["reason"] == "not started within 0.5 s"
    assert info["played"] == 0


async def test_a_watcher_that_went_away_leaves_no_task_behind(served, virtual_clock):
    """A watcher has no task of its own (its table's feed writes to it) unless its
    connection is slow, and that one must end with its connection, or it waits for ever and
    the server (which waits for its tasks when it stops) never stops."""

    def pumps() -> list[str]:
        assert served._tasks is not None
        return [t.name for t in served._tasks.child_tasks if " -> " in t.name]

    async with served.net.connect(name="c") as c:
        table = (await c.call_named("table.create", {"seats": 2}))["table"]
        async with served.net.connect(name="w") as w:
            await w.call("table.watch", table)
            assert pumps() == []  # idle: a waiting table sends nothing, no task per watcher
        with trio.fail_after(5):
            while pumps():
                await trio.sleep(0.02)


@pytest.mark.parametrize("method", ["table.create", "tournament.start"])
@pytest.mark.parametrize("option", [{"dealer": "nope"}, {"betting": "h17x"}])
async def test_an_unknown_dealer_or_betting_is_refused_at_create(
    nursery, virtual_clock, method, option
):
    """It used to be accepted: the table then ended with 'internal error' and a tournament
    failed at its first table, telling clients the server was shutting down."""
    server = table_server()
    await memnet.serve(nursery, server)
    params = {"rules": "vegas-s17", "options": option}
    if method == "table.create":
        params.update(fill=["lim17"], rounds=1)
    else:
        params.update(bots=["lim17"], tourneys=1, rounds=1, hands=1)
    async with server.net.connect(name="c") as c:
        with pytest.raises(RpcError, match=r"unknown (dealer rules|betting scheme)") as exc:
            await c.call_named(method, params)
        assert exc.value.code == Code.UNKNOWN_NAME
        assert await c.call("ping") == "pong"


async def test_a_table_cancelled_with_the_server_says_so_not_internal_error(virtual_clock, caplog):
    """The server's tasks cancelled from outside (its nursery's scope, not ``stop``): the
    table's last log line says it stopped with the server, which is no internal error."""
    caplog.set_level(logging.INFO, logger="croupier.tables")
    server = table_server()
    asked = trio.Event()

    async def ponder(table: int, observation: Any) -> Any:
        asked.set()
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        async with net.connect(name="b", role="bot", handlers={"decide": ponder}) as bot:
            info = await bot.call_named("table.create", {"seats": 1})
            await bot.call("table.join", info["table"])
            await asked.wait()  # the table waits on its bot's first decision
            nursery.cancel_scope.cancel()
    said = [r.getMessage() for r in caplog.records if r.name == "croupier.tables"]
    assert any(line.endswith("rounds: stopped with the server") for line in said), said
    assert not any("internal error" in line for line in said)
