"""A stranger cannot break the server: garbage, oversized input, floods, idling, shutdown."""

from __future__ import annotations

import contextlib
import socket

import msgpack
import pytest
import trio

from croupier.engine import CroupierError
from croupier.protocol import Code, RpcError, connect
from tests.protocol_helpers import Raw, make_server


async def start(nursery, **limits):
    server, _ = make_server(**limits)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    server.port = port
    return server


async def assert_still_serving(port):
    async with connect("127.0.0.1", port, name="next") as client:
        assert await client.call("ping") == "pong"


async def test_garbage_framing_closes_that_connection_only(nursery):
    server = await start(nursery)
    bystander = await Raw.connect(server.port)
    await bystander.hello()
    raw = await Raw.connect(server.port)
    await raw.hello()
    await raw.send_bytes(b"\xc1\xc1\xc1")
    notice = await raw.receive()
    assert notice[0] == 2 and notice[1] == "error"
    assert notice[2][0]["code"] == Code.INVALID_REQUEST
    assert "malformed msgpack" in notice[2][0]["message"]
    assert await raw.receive() is None  # closed
    assert await bystander.call(1, "ping") == [1, 1, None, "pong"]
    await assert_still_serving(server.port)


async def test_invalid_utf8_and_non_string_keys_are_garbage_too(nursery):
    server = await start(nursery)
    for data in (b"\x94\x00\x01\xa2\xff\xfe\x90", b"\x94\x00\x01\xa4ping\x91\x81\x01\x02"):
        raw = await Raw.connect(server.port)
        await raw.send_bytes(data)
        assert (await raw.receive())[1] == "error"
        assert await raw.receive() is None
    await assert_still_serving(server.port)


async def test_a_message_without_msgid_gets_an_error_notification(nursery):
    server = await start(nursery)
    raw = await Raw.connect(server.port)
    await raw.hello()
    for junk in (42, "hello", [9, 9, 9], {"method": "ping"}):
        await raw.send(junk)
        notice = await raw.receive()
        assert notice[:2] == [2, "error"] and notice[2][0]["name"] == "invalid-request"
    assert await raw.call(1, "ping") == [1, 1, None, "pong"]


async def test_an_oversized_message_closes_the_connection(nursery):
    server = await start(nursery, max_message_size=4096)
    raw = await Raw.connect(server.port)
    await raw.hello()
    big = msgpack.packb([0, 1, "solve", ["add", {"pad": "x" * 10_000}]])
    with contextlib.suppress(trio.BrokenResourceError):  # the server may close first
        await raw.send_bytes(big)
    notice = await raw.receive()
    assert notice[:2] == [2, "error"] and notice[2][0]["code"] == Code.MESSAGE_TOO_LARGE
    assert await raw.receive() is None
    await assert_still_serving(server.port)


async def test_a_reply_over_the_size_limit_is_an_error_not_a_crash(nursery):
    server = await start(nursery, max_message_size=4096)
    async with connect("127.0.0.1", server.port, name="t") as client:
        opened = await client.call("randomizer.open", "tetromino", 1)
        try:
            await client.call("randomizer.draw", opened["stream"], 5000)
        except RpcError as exc:
            assert exc.code == Code.MESSAGE_TOO_LARGE
        else:
            raise AssertionError("a 10 kB reply passed a 4 kB limit")
        assert len(await client.call("randomizer.draw", opened["stream"], 100)) == 100


async def test_too_many_requests_in_flight(nursery):
    server = await start(nursery, max_pending=4)
    raw = await Raw.connect(server.port)
    await raw.hello()
    for msgid in range(1, 7):
        await raw.send([0, msgid, "test.sleep", [0.3]])
    replies = [await raw.receive() for _ in range(6)]
    refused = [r for r in replies if r[2] is not None]
    assert sorted(r[1] for r in refused) == [5, 6]
    assert {r[2]["code"] for r in refused} == {Code.TOO_MANY_REQUESTS}
    assert sorted(r[1] for r in replies if r[3] == "slept") == [1, 2, 3, 4]


async def test_an_idle_connection_is_closed_but_a_busy_one_is_not(nursery):
    server = await start(nursery, idle_timeout=0.2)
    busy = await Raw.connect(server.port)
    await busy.hello()
    await busy.send([0, 1, "test.sleep", [0.5]])  # in flight longer than the idle timeout
    idle = await Raw.connect(server.port)
    notice = await idle.receive()
    assert notice[:2] == [2, "error"] and "idle" in notice[2][0]["message"]
    assert await idle.receive() is None
    assert await busy.receive() == [1, 1, None, "slept"]


async def test_connections_over_the_limit_are_told_and_closed(nursery):
    server = await start(nursery, max_connections=2)
    first = await Raw.connect(server.port)
    await first.hello()
    second = await Raw.connect(server.port)
    await second.hello()
    third = await Raw.connect(server.port)
    notice = await third.receive()
    assert notice[2][0]["message"] == "connection refused: too many connections"
    assert await third.receive() is None
    await first.aclose()
    with trio.fail_after(2):
        while len(server.connections) > 1:
            await trio.sleep(0.01)
    await assert_still_serving(server.port)


async def test_graceful_shutdown_finishes_work_in_flight(nursery):
    server = await start(nursery, shutdown_grace=2.0)
    raw = await Raw.connect(server.port)
    await raw.hello()
    await raw.send([0, 1, "test.sleep", [0.3]])
    await trio.sleep(0.05)
    server.stop()
    await trio.sleep(0.05)
    refused = await raw.call(2, "ping")
    assert refused[1] == 2 and refused[2]["code"] == Code.SHUTTING_DOWN
    assert await raw.receive() == [1, 1, None, "slept"]
    assert await raw.receive() == [2, "shutdown", []]
    assert await raw.receive() is None
    with trio.fail_after(2):
        while server.connections:
            await trio.sleep(0.01)


async def test_a_client_that_never_reads_is_dropped(nursery):
    server = await start(nursery, send_timeout=0.3, max_pending=200)
    raw = await Raw.connect(server.port)
    await raw.hello()
    await raw.send([0, 1, "randomizer.open", ["tetromino", 1]])
    with contextlib.suppress(trio.BrokenResourceError):  # dropped while we still write
        for msgid in range(2, 80):  # ~200 kB answers each, far more than socket buffers hold
            await raw.send([0, msgid, "randomizer.draw", [1, 100_000]])
    with trio.fail_after(10):
        while server.connections:
            await trio.sleep(0.05)
    await assert_still_serving(server.port)


async def test_a_connection_that_never_says_hello_is_closed(nursery):
    server = await start(nursery, hello_timeout=0.2, idle_timeout=60)
    silent = await Raw.connect(server.port)
    polite = await Raw.connect(server.port)
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
