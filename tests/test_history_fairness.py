"""History reads take turns: one client sending many reads cannot queue them all ahead of
another client's in the journal's single thread (it gets one at a time, and ``busy`` past a
few waiting), so the other client's read is served next."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server
from croupier.protocol.journal.record import NullJournal
from tests import memnet


class GatedJournal(NullJournal):
    """A journal whose reads wait for the test to let each one through, in the order the
    journal received them; ``received`` names each read by its ``game`` filter."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.gates: list[trio.Event] = []

    async def read(self, fn: Callable[..., Any]) -> Any:
        self.received.append(fn.keywords["game"])  # type: ignore[attr-defined]
        gate = trio.Event()
        self.gates.append(gate)
        await gate.wait()
        return {"total": 0, "tables": []}


async def test_a_client_flooding_history_reads_does_not_queue_ahead_of_another(nursery):
    journal = GatedJournal()
    server = Server(PluginManager(autoload=False), seed=1, journal=journal)
    net = await memnet.serve(nursery, server)
    per_connection = server.limits.work_queue_per_connection
    busy: list[RpcError] = []
    async with net.connect(name="hog") as hog, net.connect(name="other") as other:

        async def read(client: Any, game: str) -> None:
            try:
                await client.call_named("history.tables", {"game": game})
            except RpcError as exc:
                busy.append(exc)

        async with trio.open_nursery() as calls:
            for _ in range(per_connection + 2):  # one reading, four waiting, one too many
                calls.start_soon(read, hog, "hog")
                await wait_all_tasks_blocked()
            calls.start_soon(read, other, "other")
            await wait_all_tasks_blocked()
            assert journal.received == ["hog"]  # one read at a time reaches the journal
            assert [exc.code for exc in busy] == [Code.BUSY]
            while len(journal.gates) < per_connection + 2:
                journal.gates[-1].set()
                await wait_all_tasks_blocked()
            journal.gates[-1].set()
    # the other client's read went in turn with the hog's waiting reads (the pool serves
    # the waiting owners in the order they began to wait), not behind all of them
    assert journal.received == ["hog", "hog", "other", *["hog"] * (per_connection - 1)]


@pytest.mark.parametrize("reads", [1, 3])
async def test_reads_of_one_client_are_all_answered_in_turn(nursery, reads):
    journal = GatedJournal()
    server = Server(PluginManager(autoload=False), seed=1, journal=journal)
    net = await memnet.serve(nursery, server)
    async with net.connect(name="c") as client, trio.open_nursery() as calls:
        for i in range(reads):
            calls.start_soon(client.call_named, "history.tables", {"game": f"g{i}"})
            await wait_all_tasks_blocked()
        while len(journal.gates) < reads:
            journal.gates[-1].set()
            await wait_all_tasks_blocked()
        journal.gates[-1].set()
    assert journal.received == [f"g{i}" for i in range(reads)]
