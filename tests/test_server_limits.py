"""A stranger cannot break the server: garbage, oversized input, floods, idling, shutdown.

The server runs on an in-memory network (tests/memnet.py) on virtual time: every time
limit is exact and nothing depends on how loaded the machine is."""

from __future__ import annotations

import contextlib
import socket

import msgpack
import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from croupier.engine import CroupierError, Stream
from croupier.protocol import Code, RpcError, connect
from tests import memnet
from tests.protocol_helpers import AT_GATE, GATE, make_server


async def start(nursery, **limits):
    server, _ = make_server(**limits)
    await memnet.serve(nursery, server)
    return server


async def assert_still_serving(server):
    async with server.net.connect(name="next") as client:
        assert await client.call("ping") == "pong"


async def test_garbage_framing_closes_that_connection_only(nursery, virtual_clock):
    server = await start(nursery)
    bystander = server.net.raw()
    await bystander.hello()
    raw = server.net.raw()
    await raw.hello()
    await raw.send_bytes(b"\xc1\xc1\xc1")
    notice = await raw.receive()
    assert notice[0] == 2 and notice[1] == "error"
    assert notice[2][0]["code"] == Code.INVALID_REQUEST
    assert "malformed msgpack" in notice[2][0]["message"]
    assert await raw.receive() is None  # closed
    assert await bystander.call(1, "ping") == [1, 1, None, "pong"]
    await assert_still_serving(server)


async def test_invalid_utf8_and_non_string_keys_are_garbage_too(nursery, virtual_clock):
    server = await start(nursery)
    for data in (b"\x94\x00\x01\xa2\xff\xfe\x90", b"\x94\x00\x01\xa4ping\x91\x81\x01\x02"):
        raw = server.net.raw()
        await raw.send_bytes(data)
        assert (await raw.receive())[1] == "error"
        assert await raw.receive() is None
    await assert_still_serving(server)


async def test_a_message_without_msgid_gets_an_error_notification(nursery, virtual_clock):
    server = await start(nursery)
    raw = server.net.raw()
    await raw.hello()
    for junk in (42, "hello", [9, 9, 9], {"method": "ping"}):
        await raw.send(junk)
        notice = await raw.receive()
        assert notice[:2] == [2, "error"] and notice[2][0]["name"] == "invalid-request"
    assert await raw.call(1, "ping") == [1, 1, None, "pong"]


async def test_an_oversized_message_closes_the_connection(nursery, virtual_clock):
    server = await start(nursery, max_message_size=4096)
    raw = server.net.raw()
    await raw.hello()
    big = msgpack.packb([0, 1, "solve", ["add", {"pad": "x" * 10_000}]])
    with contextlib.suppress(trio.BrokenResourceError):  # the server may close first
        await raw.send_bytes(big)
    notice = await raw.receive()
    assert notice[:2] == [2, "error"] and notice[2][0]["code"] == Code.MESSAGE_TOO_LARGE
    assert await raw.receive() is None
    await assert_still_serving(server)


async def test_a_reply_over_the_size_limit_is_an_error_not_a_crash(nursery, virtual_clock):
    server = await start(nursery, max_message_size=4096)
    async with server.net.connect(name="t") as client:
        opened = await client.call("randomizer.open", "tetromino", 1)
        try:
            await client.call("randomizer.draw", opened["stream"], 5000)
        except RpcError as exc:
            assert exc.code == Code.MESSAGE_TOO_LARGE
        else:
            raise AssertionError("a 10 kB reply passed a 4 kB limit")
        assert len(await client.call("randomizer.draw", opened["stream"], 100)) == 100


async def test_too_many_requests_in_flight(nursery, virtual_clock):
    server = await start(nursery, max_pending=4)
    raw = server.net.raw()
    await raw.hello()
    for msgid in range(1, 7):
        await raw.send([0, msgid, "test.sleep", [0.3]])
    replies = [await raw.receive() for _ in range(6)]
    refused = [r for r in replies if r[2] is not None]
    assert sorted(r[1] for r in refused) == [5, 6]
    assert {r[2]["code"] for r in refused} == {Code.TOO_MANY_REQUESTS}
    assert sorted(r[1] for r in replies if r[3] == "slept") == [1, 2, 3, 4]


async def test_an_idle_connection_is_closed_but_a_busy_one_is_not(nursery, virtual_clock):
    server = await start(nursery, idle_timeout=0.2)
    busy = server.net.raw()
    await busy.hello()
    await busy.send([0, 1, "test.sleep", [0.5]])  # in flight longer than the idle timeout
    idle = server.net.raw()
    notice = await idle.receive()
    assert notice[:2] == [2, "error"] and "idle" in notice[2][0]["message"]
    assert await idle.receive() is None
    assert await busy.receive() == [1, 1, None, "slept"]


async def test_connections_over_the_limit_are_told_and_closed(nursery, virtual_clock):
    server = await start(nursery, max_connections=2)
    first = server.net.raw()
    await first.hello()
    second = server.net.raw()
    await second.hello()
    for raw, msgid in ((first, 1), (second, 2)):  # busy: neither can be shed
        await raw.send([0, msgid, "test.sleep", [1.0]])
    third = server.net.raw()
    await third.send([0, 0, "hello", [1, "late", "client"]])  # unread by the server
    notice = await third.receive()
    assert notice[2][0]["message"] == "connection refused: too many connections"
    assert await third.receive() is None  # a clean end, not a reset
    assert await first.receive() == [1, 1, None, "slept"]
    await first.aclose()
    with trio.fail_after(2):
        while len(server.connections) > 1:
            await trio.sleep(0.01)
    await assert_still_serving(server)


async def test_graceful_shutdown_finishes_work_in_flight(nursery, virtual_clock):
    server = await start(nursery, shutdown_grace=2.0)
    raw = server.net.raw()
    await raw.hello()
    await raw.send([0, 1, "test.sleep", [0.3]])
    await trio.sleep(0.05)
    server.stop()
    await trio.sleep(0.05)
    refused = await raw.call(2, "ping")
    assert refused[1] == 2 and refused[2]["code"] == Code.SHUTTING_DOWN
    assert await raw.receive() == [1, 1, None, "slept"]
    assert await raw.receive() == [2, "shutdown", [{"resume": False}]]  # no journal
    assert await raw.receive() is None
    with trio.fail_after(2):
        while server.connections:
            await trio.sleep(0.01)


async def test_a_client_that_never_reads_is_dropped(nursery, virtual_clock, caplog):
    caplog.set_level("INFO", "croupier.server")
    server = await start(nursery, send_timeout=0.3, max_pending=200)
    raw = server.net.raw()
    await raw.hello()
    await raw.send([0, 1, "randomizer.open", ["tetromino", 1]])
    with contextlib.suppress(trio.BrokenResourceError):  # dropped while we still write
        for msgid in range(2, 12):  # ~200 kB answers each, far more than the 64 kB buffers
            await raw.send([0, msgid, "randomizer.draw", [1, 100_000]])
    with trio.fail_after(10):
        while server.connections:
            await trio.sleep(0.05)
    assert any("peer did not read for 0.3 s" in r.getMessage() for r in caplog.records)
    await assert_still_serving(server)


async def test_a_connection_that_never_says_hello_is_closed(nursery, virtual_clock):
    server = await start(nursery, hello_timeout=0.2, idle_timeout=60)
    silent = server.net.raw()
    polite = server.net.raw()
    await polite.hello()
    notice = await silent.receive()
    assert notice[2][0]["code"] == Code.HELLO_REQUIRED and "no hello within 0.2 s" in str(notice)
    assert await silent.receive() is None
    await trio.sleep(0.1)
    assert await polite.call(1, "ping") == [1, 1, None, "pong"]


async def test_connecting_to_nothing_is_a_one_line_error():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound but not listening: refused
        with pytest.raises(CroupierError, match=f"cannot connect to 127.0.0.1:{port}"):
            async with connect("127.0.0.1", port, name="t"):
                pass


async def test_a_long_draw_holds_up_no_other_connection(nursery, virtual_clock):
    server = await start(nursery)
    GATE.clear()
    AT_GATE.clear()
    async with (
        server.net.connect(name="heavy") as heavy,
        server.net.connect(name="other") as other,
    ):
        stream = (await heavy.call("randomizer.open", "gated", 1))["stream"]
        drawn: list[list[str]] = []

        async def long_draw() -> None:
            drawn.append(await heavy.call("randomizer.draw", stream, 1000))

        async with trio.open_nursery() as inner:
            inner.start_soon(long_draw)
            assert await trio.to_thread.run_sync(AT_GATE.wait, 20)  # the draw waits at the gate
            # were it dealt in the event loop, nothing would answer (until the gate's 20 s)
            assert await other.call("ping") == "pong"
            mine = (await other.call("randomizer.open", "tetromino", 2))["stream"]
            assert len(await other.call("randomizer.draw", mine, 500)) == 500
            assert not drawn
            GATE.set()
        assert len(drawn[0]) == 1000 and set(drawn[0]) <= {"x", "y"}


async def test_pipelined_draws_on_one_stream_keep_their_order(nursery, virtual_clock):
    server = await start(nursery)
    raw = server.net.raw()
    await raw.hello()
    opened = await raw.call(1, "randomizer.open", "tetromino", 9)
    stream = opened[3]["stream"]
    sizes = [500, 3, 700, 64, 65, 1000]  # through the worker thread and inline, mixed
    await raw.send_bytes(
        b"".join(
            msgpack.packb([0, 10 + i, "randomizer.draw", [stream, n]]) for i, n in enumerate(sizes)
        )
    )
    answers = [await raw.receive() for _ in sizes]
    assert [a[1] for a in answers] == [10 + i for i in range(len(sizes))]
    dealt = [symbol for a in answers for symbol in a[3]]
    local = server.manager.randomizer("tetromino", Stream(9)).deal(sum(sizes))
    assert dealt == list(local)


async def test_a_spec_too_long_is_refused(nursery, virtual_clock):
    server = await start(nursery, max_spec=100)
    async with server.net.connect(name="c") as c:
        with pytest.raises(RpcError) as exc:
            await c.call("randomizer.open", "pick " + ",".join("abcdefghij" * 20), 1)
    assert exc.value.code == Code.LIMIT_EXCEEDED and "at most 100 characters" in exc.value.message


async def test_one_clients_solves_take_turns_and_leave_threads_to_others(nursery, virtual_clock):
    server, _ = make_server(solver_threads=2)
    pool = server.solver_pool
    net = await memnet.serve(nursery, server)
    async with (
        net.connect(name="hog") as hog,
        net.connect(name="other", host="10.0.0.2") as other,  # another client's address
        trio.open_nursery() as inner,
    ):
        for _ in range(3):  # solves that never end by themselves
            inner.start_soon(hog.call, "solve", "slow", {"seconds": 600})
        await wait_all_tasks_blocked()
        # the hog runs one solve at a time, the others wait their turn...
        assert (pool.running, pool.waiting) == (1, 2)
        # ...so a worker is free for another client
        assert await other.call("solve", "add", {"a": 1, "b": 2}) == {"sum": 3}
        inner.cancel_scope.cancel()
    # the hog has gone: its solves are stopped (the clock stands still until they are)
    while pool.running or pool.waiting:
        await trio.sleep(0.01)


async def test_the_size_limit_is_per_message_not_per_read(nursery, virtual_clock):
    server = await start(nursery, max_message_size=10_000)
    raw = server.net.raw()
    await raw.hello()
    # two messages just under the limit, back to back in one write: both are answered
    each = [msgpack.packb([0, 10 + i, "randomizer.close", ["x" * 9_900]]) for i in range(2)]
    assert all(len(m) < 10_000 for m in each)
    await raw.send_bytes(each[0] + each[1])
    answers = [await raw.receive(), await raw.receive()]
    assert [a[1] for a in answers] == [10, 11]
    assert all(a[2]["code"] == Code.INVALID_PARAMS for a in answers)  # a stream is an integer
    # one message over the limit, sent in small pieces: refused before it is all in
    big = msgpack.packb([0, 12, "randomizer.close", ["x" * 20_000]])
    for start_at in range(0, 10_001, 1_000):  # 10,001 bytes: one past the limit
        await raw.send_bytes(big[start_at : min(start_at + 1_000, 10_001)])
    notice = await raw.receive()
    assert notice[:2] == [2, "error"] and notice[2][0]["code"] == Code.MESSAGE_TOO_LARGE
    assert await raw.receive() is None
    await assert_still_serving(server)


async def test_a_connection_told_of_an_error_still_shuts_down_cleanly(nursery, virtual_clock):
    server = await start(nursery)
    raw = server.net.raw()
    await raw.hello()
    await raw.send(42)  # an error notification; the connection stays open
    assert (await raw.receive())[:2] == [2, "error"]
    server.stop()
    assert await raw.receive() == [2, "shutdown", [{"resume": False}]]  # no journal
    assert await raw.receive() is None
    with trio.fail_after(2):
        while server.connections:
            await trio.sleep(0.01)
