"""Serving while recovering: a restarted server answers ``hello`` and ``ping`` at once while
it rebuilds a long table from its journal, answers requests for that table (and its seats'
tokens) with the retryable ``recovering`` error until it is back, and the bot SDK retries
through it and plays the table to its end. On the in-memory network and virtual time; the
rebuild is held mid-replay (after its first page of rounds) until the test has seen all
this, so nothing races."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.clients.bot import play, sdk
from croupier.clients.bot.reconnect import keep_seat, retry_delay
from croupier.clients.bot.samples import Lim17
from croupier.clients.play.remote import RemoteSeat, Where
from croupier.engine import CroupierError, PluginManager
from croupier.protocol import Code, RpcError, Server
from croupier.protocol.errors import CallTimeout
from croupier.protocol.journal import Journal
from croupier.protocol.journal.recovery import settled_rounds
from croupier.protocol.services import default_services
from croupier.protocol.tables import TableService
from croupier.protocol.tables import recovery as tablerecovery
from croupier.protocol.transport.limits import ServerLimits
from tests import memnet
from tests.memnet import MemoryNet

TABLE = {"seats": 2, "fill": [None, "lim17"], "rounds": 400, "seed": 3}


def server_on(journal: Journal) -> Server:
    """A server with no checkpoints: a restart replays a table's every round."""
    services = [*default_services()[:-1], TableService(vacant_timeout=30, unclaimed_timeout=30)]
    return Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=11,
        services=services,
        journal=journal,
        limits=ServerLimits(checkpoint_every=0),
    )


def held_mid_replay(journal: Journal, go: trio.Event, held: trio.Event) -> None:
    """Hold the journal's reads of settled rounds after the first page until ``go``."""
    read = journal.read

    async def gated(fn: Any) -> Any:
        if isinstance(fn, partial) and fn.func is settled_rounds and fn.keywords["after"] > 0:
            held.set()
            await go.wait()
        return await read(fn)

    journal.read = gated  # type: ignore[method-assign]


async def test_recovering_is_answered_while_a_long_table_is_rebuilt_and_the_sdk_retries(
    nursery, tmp_path: Path, monkeypatch, virtual_clock
):
    monkeypatch.setattr(tablerecovery, "PAGE", 50)
    up: list[MemoryNet] = []  # the running server's network; empty while it is down

    def dial(_host: str, _port: int, **options: Any) -> Any:
        if not up:
            raise CroupierError("cannot connect to 127.0.0.1:7171: Connection refused")
        return up[-1].connect(**options)

    monkeypatch.setattr(sdk, "connect", dial)
    path = tmp_path / "j.db"
    first = server_on(Journal(str(path)))
    up.append(await memnet.serve(nursery, first))
    retries: list[str] = []
    final: dict[str, Any] = {}

    async def bot() -> None:
        told = lambda reason, delay, resuming: retries.append(reason)  # noqa: E731
        final.update(await play(Lim17(), create=TABLE, reconnect=5, on_retry=told))

    nursery.start_soon(bot)
    service = first.services[-1]
    assert isinstance(service, TableService)
    while not service.tables or next(iter(service.tables.values())).played < 200:
        await trio.sleep(0)
    (table,) = service.tables
    first.stop()  # a reboot: the table stays unfinished in the journal, the bot reconnects
    up.clear()
    await service.tables[table].done.wait()
    await first.journal.aclose()

    journal = Journal(str(path))
    go, held = trio.Event(), trio.Event()
    held_mid_replay(journal, go, held)
    second = server_on(journal)
    with trio.fail_after(60):  # a server that rebuilt before it listened would never listen
        up.append(await memnet.serve(nursery, second))  # listening before the table is back
        await held.wait()
    assert not second.recovered.is_set()
    async with up[-1].connect(name="c") as client:  # hello answered at once
        assert await client.call("ping") == "pong"
        with pytest.raises(RpcError) as refused:
            await client.call("table.info", table)
        assert refused.value.code == Code.RECOVERING
        assert "try again" in refused.value.message
        (listed,) = await client.call("table.list")  # listed as being rebuilt
        assert listed["table"] == table and listed["state"] == "recovering"
        assert listed["seed"] is None and len(listed["commit"]) == 64
        assert [s["kind"] for s in listed["seats"]] == ["bot", "strategy"]
    while not any("recovered from the journal" in reason for reason in retries):
        await trio.sleep(0.1)  # the bot is told `recovering` for its token, and waits
    person: list[Any] = []  # croupier play --connect --table T, meanwhile

    async def find() -> None:
        async with up[-1].connect(name="p", role="bot") as client:
            seat = RemoteSeat(Where("127.0.0.1", 7171, table=table))
            try:
                person.append(await seat.find_table(client))
            except (CroupierError, RpcError) as exc:
                person.append(exc)

    nursery.start_soon(find)
    await trio.sleep(2)  # it is answered `recovering` and asks again
    assert person == []
    go.set()
    await second.recovered.wait()
    while not final:
        await trio.sleep(0.1)
    assert final["played"] == 400 and final["reason"] == "400 rounds played"
    # once back, the person's --table T gets the table's own answer when its backoff ends
    # (its one bot seat is the bot's, or the table had finished: a table that plays its 400
    # rounds before the next ask is over before the person hears)
    with trio.fail_after(60):
        while not person:
            await trio.sleep(0.1)
    assert len(person) == 1 and isinstance(person[0], CroupierError)
    assert str(person[0]) in (f"table {table} has no free seat", f"table {table} has finished")
    assert sum(final["chips"]) + final["house"] == 2 * final["rules"]["starting_chips"]
    second.stop()
    await journal.aclose()


class Seat:
    def __init__(self) -> None:
        self.token: str | None = "t"
        self.reseat = False
        self.failures = 0
        self.server_stopped = False
        self.resuming = False


async def test_recovering_is_retried_beyond_the_reconnect_bound(virtual_clock):
    answers = [RpcError(Code.RECOVERING, "table 1 is still being recovered")] * 12
    told: list[float] = []

    async def attempt() -> bool:
        if answers:
            raise answers.pop()
        return True

    await keep_seat(Seat(), attempt, 2, on_retry=lambda _r, delay, _b: told.append(delay))
    assert told == [retry_delay(n) for n in range(1, 13)]  # backing off to 5 s, not giving up


async def test_a_hello_not_answered_in_time_is_retried_as_a_lost_connection(virtual_clock):
    tries = []

    async def attempt() -> bool:
        tries.append(trio.current_time())
        if len(tries) < 3:
            raise CallTimeout("hello", 10.0)
        return True

    await keep_seat(Seat(), attempt, 5, on_retry=lambda *a: None)
    assert len(tries) == 3
    with pytest.raises(CroupierError, match="'hello' was not answered within 10 s"):
        tries.clear()
        await keep_seat(Seat(), attempt, 1, on_retry=lambda *a: None)  # within its bound
    other = RpcError(Code.BAD_INPUT, "no")

    async def refused() -> bool:
        raise other

    with pytest.raises(RpcError):  # any other refusal still passes through at once
        await keep_seat(Seat(), refused, 5, on_retry=lambda *a: None)
