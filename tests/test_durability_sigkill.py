"""What the server answered survives a SIGKILL a moment later: a real ``croupier serve
--data`` is killed 0 to 50 ms (seeded) after it answered ``table.create``, gave a seat's
token (``table.join``) or answered ``tournament.start``, while a table of strategies plays
flat out beside it (the load that starved the journal's writer), then restarted on the same
journal: the table is there, the token takes its seat back, the tournament is there and its
key stops it.

The kill moments are seeded, not raced: whatever the moment, the answer came first, so the
journal must hold what it said (``Method.durable``). On the code before commit-before-
acknowledge a kill within 50 ms of the answer lost the table or the token nearly always.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio

from croupier.protocol import connect
from croupier.protocol.errors import RpcError
from tests.test_recovery_sigkill import Served

pytestmark = pytest.mark.slow

KILLS = 3
"""Kills per test, each at a seeded moment 0 to 50 ms after the answer."""
BUSY = {"seats": 4, "fill": ["lim17", "never-bust", "mimic-dealer", "lim17"], "rounds": 10**6}


def moments(seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(0.0, 0.05) for _ in range(KILLS)]


async def busy_table(port: int) -> dict[str, Any]:
    """A table of strategies playing flat out (the load under which nothing was committed
    for a second and more)."""
    async with connect("127.0.0.1", port, name="busy") as client:
        params = {**BUSY, "decision_time": 1.0}
        info: dict[str, Any] = await client.call_named("table.create", params)
    return info


async def stop(port: int, info: dict[str, Any]) -> None:
    """Stop a busy table (so that the next restart need not replay it for long)."""
    async with connect("127.0.0.1", port, name="stopper") as client:
        await client.call("table.stop", info["table"], info["key"])


async def restart(served: Served) -> None:
    """SIGKILL the server, start it again and wait until it has rebuilt what the journal
    held (it answers meanwhile, with ``recovering`` for a table not yet rebuilt)."""
    served.kill()
    served.start()
    await served.said("recovered from the journal")


async def test_a_created_table_survives_a_kill_right_after_the_answer(tmp_path):
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    await served.said("listening on")
    try:
        for delay in moments(27):
            async with connect("127.0.0.1", served.port, name="creator") as client:
                info = await client.call_named("table.create", {**BUSY, "decision_time": 1.0})
                await trio.sleep(delay)  # a seeded moment after the answer, not a race
                await restart(served)
            async with connect("127.0.0.1", served.port, name="checker") as client:
                try:
                    found = await client.call("table.info", info["table"])
                except RpcError as exc:
                    pytest.fail(f"killed {delay * 1000:.1f} ms after the create: {exc}")
            assert found["commit"] == info["commit"] and found["state"] == "playing", (delay, found)
            await stop(served.port, info)
    finally:
        served.stop()


async def test_a_seat_token_survives_a_kill_right_after_the_join(tmp_path):
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    await served.said("listening on")
    try:
        for delay in moments(28):
            busy = await busy_table(served.port)
            async with connect("127.0.0.1", served.port, name="creator") as client:
                info = await client.call_named(
                    "table.create",
                    # rounds enough to outlast the test: this client answers no `decide`, so
                    # its seat takes the default at once and a short table could end (and
                    # its tokens with it) before the rejoin, on a quiet machine
                    {"seats": 2, "fill": [None, "lim17"], "rounds": 10**6, "decision_time": 5.0},
                )
            async with connect("127.0.0.1", served.port, name="bot") as client:
                seated: dict[str, Any] = await client.call("table.join", info["table"])
                await trio.sleep(delay)
                await restart(served)
            async with connect("127.0.0.1", served.port, name="bot") as client:
                try:
                    back = await client.call("table.rejoin", seated["token"])
                except RpcError as exc:
                    pytest.fail(f"killed {delay * 1000:.1f} ms after the join: {exc}")
                assert (back["table"], back["seat"]) == (info["table"], seated["seat"])
                await client.call("table.leave", seated["token"])
            await stop(served.port, busy)
            await stop(served.port, info)
    finally:
        served.stop()


TOURNAMENT = {
    "bots": ["tcp", "lim17", "never-bust", "mimic-dealer"],
    "tourneys": 10,
    "rounds": 20,
    "hands": 5,
    "join_time": 600.0,  # it waits for its tcp entry for the whole test
}


async def test_a_started_tournament_survives_a_kill_right_after_the_answer(tmp_path):
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    await served.said("listening on")
    try:
        for delay in [0.0, *moments(29)]:  # at once, too: the answer came first
            busy = await busy_table(served.port)
            async with connect("127.0.0.1", served.port, name="creator") as client:
                info = await client.call_named("tournament.start", TOURNAMENT)
                await trio.sleep(delay)
                await restart(served)
            async with connect("127.0.0.1", served.port, name="checker") as client:
                try:
                    found = await client.call("tournament.info", info["tournament"])
                except RpcError as exc:
                    pytest.fail(f"killed {delay * 1000:.1f} ms after the start: {exc}")
                assert found["commit"] == info["commit"], (delay, found)
                assert found["state"] != "finished", (delay, found)
                # its key was kept too: it stops the tournament on the new run
                await client.call("tournament.stop", info["tournament"], info["key"])
            await stop(served.port, busy)
    finally:
        served.stop()
