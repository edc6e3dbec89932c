"""Request-rate budgets: one connection, or one address, cannot take the server's time.

A connection past its budget (or its address's) is not read until the budget refills,
while other clients' requests are answered at once. The server runs on the in-memory
network on virtual time, so every wait is exact."""

from __future__ import annotations

import itertools

import msgpack
import pytest
import trio

from croupier.protocol.budgets import RequestBudgets, TokenBucket, address_key
from croupier.protocol.transport.codec import Request
from tests import memnet
from tests.protocol_helpers import Raw, make_server


async def start(nursery, **limits):
    server, _ = make_server(**limits)
    await memnet.serve(nursery, server)
    return server


def pings(first: int, n: int) -> bytes:
    return b"".join(msgpack.packb([0, first + i, "ping", []]) for i in range(n))


async def answer_times(raw: Raw, n: int) -> list[float]:
    """When each of the next ``n`` answers came (all must be ``pong``)."""
    times = []
    for _ in range(n):
        answer = await raw.receive(timeout=60)
        assert answer is not None and answer[3] == "pong", answer
        times.append(trio.current_time())
    return times


async def test_a_flooding_connection_waits_past_its_budget_while_others_are_answered(
    nursery, virtual_clock
):
    server = await start(nursery, request_rate=10.0, request_burst=20.0, address_rate=None)
    flood, other = server.net.raw("10.0.0.2"), server.net.raw("10.0.0.3")
    await flood.hello()
    await other.hello()
    t0 = trio.current_time()
    await flood.send_bytes(pings(1, 60))  # 60 pings, 19 tokens left after the hello
    first = await answer_times(flood, 19)
    assert first == [t0] * 19  # the burst is answered at once ...
    assert await other.call(1, "ping") == [1, 1, None, "pong"]
    assert trio.current_time() == t0  # ... and another connection is not held up
    rest = await answer_times(flood, 41)
    # ... the rest of the flood at the budget's rate: 10 a second
    assert rest[-1] == pytest.approx(t0 + 4.1)
    assert all(b - a == pytest.approx(0.1) for a, b in itertools.pairwise(rest))


async def test_the_budget_refills_with_time(nursery, virtual_clock):
    server = await start(nursery, request_rate=10.0, request_burst=20.0, address_rate=None)
    flood = server.net.raw("10.0.0.2")
    await flood.hello()
    await flood.send_bytes(pings(1, 40))
    await answer_times(flood, 40)  # spent, and in debt until it was paid off
    await trio.sleep(2.0)  # 20 tokens come back in 2 s
    t1 = trio.current_time()
    await flood.send_bytes(pings(100, 20))
    assert await answer_times(flood, 20) == [t1] * 20
    await flood.send_bytes(pings(200, 1))  # and now it is empty again
    assert await answer_times(flood, 1) == [pytest.approx(t1 + 0.1)]


async def test_the_connections_of_one_address_share_its_budget(nursery, virtual_clock):
    server = await start(nursery, request_rate=None, address_rate=10.0, address_burst=20.0)
    one, two = server.net.raw("10.0.0.5"), server.net.raw("10.0.0.5")
    stranger = server.net.raw("10.0.0.6")
    for raw in (one, two, stranger):
        await raw.hello()
    t0 = trio.current_time()
    await one.send_bytes(pings(1, 20))
    await two.send_bytes(pings(1, 20))
    assert await stranger.call(1, "ping") == [1, 1, None, "pong"]
    assert trio.current_time() == t0
    last = max((await answer_times(one, 20))[-1], (await answer_times(two, 20))[-1])
    # 42 tokens (2 hellos, 40 pings) from a budget of 20 refilling at 10 a second
    assert last == pytest.approx(t0 + 2.2)


async def test_waiting_for_the_budget_is_not_idling(nursery, virtual_clock):
    server = await start(
        nursery, request_rate=1.0, request_burst=1.0, address_rate=None, idle_timeout=1.0
    )
    raw = server.net.raw("10.0.0.2")
    await raw.send_bytes(msgpack.packb([0, 0, "hello", [1, "raw", "client"]]) + pings(1, 5))
    assert (await raw.receive())[3]["protocol"] == 1
    t0 = trio.current_time()
    assert await answer_times(raw, 5) == [pytest.approx(t0 + i + 1) for i in range(5)]


async def test_an_expensive_call_costs_more(nursery, virtual_clock):
    server = await start(nursery)
    cost = server.methods.cost
    assert cost(Request(1, "ping", [])) == 1
    assert cost(Request(1, "randomizer.draw", [1, 100_000])) == 101
    assert cost(Request(1, "randomizer.draw", [1, 10])) == pytest.approx(1.01)
    assert cost(Request(1, "randomizer.draw", {"stream": 1, "n": 5000})) == 6
    assert cost(Request(1, "randomizer.draw", ["junk"])) == 1  # refused anyway
    assert cost(Request(1, "solve", ["add", {}])) == 50
    assert cost(Request(1, "history.events", [3])) == 55  # a full page of 1000
    assert cost(Request(1, "history.tables", [])) == 7.5  # 50 tables
    assert cost(Request(1, "no.such.method", [])) == 1


def test_an_ipv6_client_is_budgeted_by_its_64():
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") == "2001:db8:0:1::/64"
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert address_key("10.0.0.1") == "10.0.0.1"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("?") == "?"


async def test_a_bucket_pays_what_it_holds_then_runs_a_debt(autojump_clock):
    bucket = TokenBucket(rate=10.0, burst=5.0)
    assert [bucket.take(1, 0.0) for _ in range(5)] == [0.0] * 5
    assert bucket.take(1, 0.0) == pytest.approx(0.1)
    assert bucket.take(100, 0.0) == pytest.approx(0.6)  # a call costs a full bucket at most
    assert bucket.take(1, 10.0) == 0.0


async def test_an_address_that_left_keeps_its_debt_until_it_has_refilled(autojump_clock):
    budgets = RequestBudgets(None, 0.0, 10.0, 10.0)
    budget = budgets.open("10.0.0.7")
    assert budget.charge(30) == pytest.approx(0.0)  # a full bucket at most: 10
    assert budget.charge(10) == pytest.approx(1.0)
    budgets.close("10.0.0.7")
    assert budgets.open("10.0.0.7").charge(1) == pytest.approx(1.1)  # reconnecting: still owed
    budgets.close("10.0.0.7")
    await trio.sleep(5)
    budgets.open("10.0.0.8")
    assert budgets.addresses == 1  # 10.0.0.7's bucket refilled and was dropped
