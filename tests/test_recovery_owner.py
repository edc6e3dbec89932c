"""A restart does not change what happens to a table whose creator is gone: the server's
stop (a crash, SIGTERM) is not its creator leaving. A table whose creator was connected when
the server stopped plays on to its end after the restart, as it would have; one whose
creator had closed its connection is abandoned ``abandoned_timeout`` after the restart
unless a bot of its own is back, as the unbroken server abandons it (the journal keeps
``creator_left``). On the memory net and virtual time: a table of strategies never waits,
so time passes only as the test moves it (``pass_time``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, ServerLimits
from croupier.protocol.journal import Journal
from croupier.protocol.tournaments import TournamentService
from tests import memnet
from tests.workclock import pass_time

TIMEOUT = 0.5
ENDLESS = {"fill": ["lim17"], "rounds": 10**6, "options": {"starting_chips": 10**9}}
SHORT = {"seats": 2, "fill": ["lim17", "never-bust"], "rounds": 300, "seed": 4}


def new_server(path: Path) -> Server:
    return Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=9,
        journal=Journal(str(path)),
        limits=ServerLimits(abandoned_timeout=TIMEOUT),
    )


def creator_left(path: Path, table: int) -> float | None:
    """When the journal says the table's creator left (None: it never did)."""
    with sqlite3.connect(path) as conn:
        (when,) = conn.execute("SELECT creator_left FROM tables WHERE id = ?", (table,)).fetchone()
    return None if when is None else float(when)


async def info_of(net: memnet.MemoryNet, table: int) -> dict[str, Any]:
    async with net.connect(name="look") as look:
        found: dict[str, Any] = await look.call("table.info", table)
        return found


async def finished(net: memnet.MemoryNet, clock: Any, seconds: float) -> dict[str, Any]:
    """Table 1 once it has finished, ``seconds`` of virtual time passed at least (its rounds
    wait for the journal's thread in real time, so how many fit in a second varies)."""
    await pass_time(clock, seconds)
    for _ in range(2000):
        found = await info_of(net, 1)
        if found["state"] == "finished":
            return found
        await pass_time(clock, TIMEOUT / 5)
    raise AssertionError(f"table 1 still {found['state']} after {found['played']} rounds")


async def restarted(path: Path, clock: Any, seconds: float) -> dict[str, Any]:
    """Restart on ``path``, nobody connecting; the recovered table 1 as ``table.info``
    gives it once finished, ``seconds`` of virtual time passed at least."""
    server = new_server(path)
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        await server.recovered.wait()
        found = await finished(net, clock, seconds)
        server.stop()
    await server.journal.aclose()
    return found


async def test_a_table_whose_creator_had_left_is_abandoned_after_the_restart_too(
    virtual_clock, tmp_path
):
    """Before: a recovered table's creator counted as present for ever, so a table its
    creator had left played on to its end after a restart (here a million rounds) where the
    unbroken server abandons it."""
    path = tmp_path / "j.db"
    server = new_server(path)
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        async with net.connect(name="leaves") as creator:
            table = (await creator.call_named("table.create", ENDLESS))["table"]
        await pass_time(virtual_clock, TIMEOUT / 5)  # the creator is gone, the timer runs
        assert (await info_of(net, table))["state"] == "playing"
        server.stop()  # before the timer ends (a crash leaves the journal the same)
    await server.journal.aclose()
    found = await restarted(path, virtual_clock, 2 * TIMEOUT)
    assert found["state"] == "finished"
    assert found["reason"] == "abandoned: its creator left and no bot plays at it"
    assert found["chips"][0] + found["house"] == 10**9
    assert creator_left(path, table) is not None


async def test_a_table_whose_creator_was_connected_plays_on_to_its_end_as_unbroken(
    virtual_clock, tmp_path
):
    """The server's stop closes the creator's connection: that is not the creator leaving
    (nothing recorded), and the recovered table ends where the unbroken one does, though
    nobody connects for many times ``abandoned_timeout``."""
    unbroken = new_server(tmp_path / "whole.db")
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, unbroken)
        async with net.connect(name="stays") as creator:
            table = (await creator.call_named("table.create", SHORT))["table"]
            assert table == 1
            whole = await finished(net, virtual_clock, 20 * TIMEOUT)
        unbroken.stop()
    await unbroken.journal.aclose()
    assert whole["state"] == "finished" and whole["played"] == SHORT["rounds"]

    path = tmp_path / "j.db"
    server = new_server(path)
    first_round, keep_up = trio.Event(), server.journal.keep_up

    async def held_after_one() -> None:  # the table stays in play after its first round:
        await keep_up()  # polled for, a quiet machine's table played all 300 before the stop
        first_round.set()
        await trio.sleep_forever()  # until the server's stop

    server.journal.keep_up = held_after_one  # type: ignore[method-assign]
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        async with net.connect(name="stays") as creator:
            assert (await creator.call_named("table.create", SHORT))["table"] == table
            await first_round.wait()  # under way
            server.stop()  # with the creator connected
    await server.journal.aclose()
    with sqlite3.connect(path) as conn:  # stopped in play, left to resume
        (state,) = conn.execute("SELECT state FROM tables WHERE id = ?", (table,)).fetchone()
    assert state == "playing"
    found = await restarted(path, virtual_clock, 20 * TIMEOUT)
    assert (found["state"], found["reason"], found["played"]) == (
        "finished",
        whole["reason"],
        SHORT["rounds"],
    )
    assert (found["chips"], found["house"]) == (whole["chips"], whole["house"])
    assert creator_left(path, table) is None


LONG_TOURNAMENT = {"bots": ["lim17"] * 4, "tourneys": 400, "rounds": 50, "hands": 5, "seed": 3}
ABANDONED = "abandoned: its creator left and none of its tcp bots is connected"


def tournament_creator_left(path: Path, tournament: int) -> float | None:
    with sqlite3.connect(path) as conn:
        (when,) = conn.execute(
            "SELECT creator_left FROM tournaments WHERE id = ?", (tournament,)
        ).fetchone()
    return None if when is None else float(when)


async def tournament_after_restart(path: Path, clock: Any, tournament: int) -> dict[str, Any]:
    """Restart on ``path``, nobody connecting; the recovered tournament's info once
    ``3 * TIMEOUT`` of virtual time has passed (and it has finished, if it is stopping)."""
    server = new_server(path)
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        await server.recovered.wait()
        await pass_time(clock, 3 * TIMEOUT)
        (service,) = [s for s in server.services if isinstance(s, TournamentService)]
        recovered = service.tournaments[tournament]
        if recovered.stop_reason is not None:  # stopping: its tables in play finish first,
            with trio.fail_after(60):  # in real time (info says so only once finished)
                await recovered.done.wait()
        async with net.connect(name="look") as look:
            found: dict[str, Any] = await look.call("tournament.info", tournament)
        server.stop()
    await server.journal.aclose()
    return found


async def test_a_tournament_whose_creator_had_left_is_abandoned_after_the_restart_too(
    virtual_clock, tmp_path
):
    """Before: a recovered tournament counted its creator present for ever, so one its
    creator had left (no tcp bot in it) played on to its end after a restart where the
    unbroken server abandons it ``abandoned_timeout`` after the creator left."""
    path = tmp_path / "j.db"
    server = new_server(path)
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        async with net.connect(name="leaves") as creator:
            tid = (await creator.call_named("tournament.start", LONG_TOURNAMENT))["tournament"]
        await pass_time(virtual_clock, TIMEOUT / 5)  # the creator is gone, the timer runs
        async with net.connect(name="look") as look:
            assert (await look.call("tournament.info", tid))["state"] == "playing"
        server.stop()  # before the timer ends (a crash leaves the journal the same)
    await server.journal.aclose()
    assert tournament_creator_left(path, tid) is not None
    found = await tournament_after_restart(path, virtual_clock, tid)
    assert (found["state"], found["reason"]) == ("finished", ABANDONED)
    assert found["result"]["conserved"]
    assert found["progress"]["done"] < found["progress"]["total"]


async def test_a_tournament_whose_creator_was_connected_plays_on_after_the_restart(
    virtual_clock, tmp_path
):
    """The server's stop closing the creator's connection is not the creator leaving: the
    recovered tournament is not abandoned though nobody connects for ``3 * TIMEOUT``."""
    path = tmp_path / "j.db"
    server = new_server(path)
    async with trio.open_nursery() as nursery:
        net = await memnet.serve(nursery, server)
        async with net.connect(name="stays") as creator:
            tid = (await creator.call_named("tournament.start", LONG_TOURNAMENT))["tournament"]
            await pass_time(virtual_clock, TIMEOUT / 5)
            server.stop()  # with the creator connected
    await server.journal.aclose()
    assert tournament_creator_left(path, tid) is None
    found = await tournament_after_restart(path, virtual_clock, tid)
    assert (found["state"], found["reason"]) == ("playing", None)
