"""The codec and the session, without a server: shapes, framing, limits, both directions.

Sessions talk over memory streams; a test that waits runs on an autojump clock, so a
wait is over only when every task is blocked, however loaded the machine."""

from __future__ import annotations

import msgpack
import pytest
import trio
import trio.testing
from hypothesis import given
from hypothesis import strategies as st

from croupier.protocol import (
    CallTimeout,
    Code,
    ConnectionClosed,
    Decoder,
    Notification,
    Request,
    Response,
    RpcError,
    Session,
    SessionLimits,
    encode,
    parse,
)
from croupier.protocol.errors import ProtocolViolation
from croupier.protocol.transport.codec import InvalidMessage


def test_messages_are_the_msgpack_rpc_arrays():
    assert msgpack.unpackb(encode(Request(7, "ping", []))) == [0, 7, "ping", []]
    assert msgpack.unpackb(encode(Response(7, None, "pong"))) == [1, 7, None, "pong"]
    assert msgpack.unpackb(encode(Notification("shutdown", []))) == [2, "shutdown", []]
    assert encode(Request(1, "ping", [])).hex() == "940001a470696e6790"


@pytest.mark.parametrize(
    ("obj", "msgid"),
    [
        (5, None),
        ([], None),
        ([0, 1, "m"], None),
        ([3, 1, "m", []], None),
        ([True, 1, "m", []], None),
        ([0.0, 1, "m", []], None),
        ([2.0, "m", []], None),
        ([0, -1, "m", []], None),
        ([0, 2**32, "m", []], None),
        ([0, 9, 5, []], 9),
        ([0, 9, "m", "params"], 9),
        ([2, "m"], None),
    ],
)
def test_parse_rejects_what_is_not_msgpack_rpc(obj, msgid):
    with pytest.raises(InvalidMessage) as info:
        parse(obj)
    assert info.value.msgid == msgid
    assert info.value.code == Code.INVALID_REQUEST


leaves = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=5)
objects = st.recursive(leaves, lambda c: st.lists(c, max_size=5), max_leaves=12)


@given(objects)
def test_parse_never_fails_other_than_cleanly(obj):
    try:
        message = parse(obj)
    except InvalidMessage:
        return
    assert message.to_wire() == obj


def test_decoder_reassembles_messages_split_anywhere():
    data = b"".join(encode(Request(i, "m", [i, "x" * i])) for i in range(20))
    decoder = Decoder()
    out = []
    for i in range(len(data)):
        out.extend(decoder.feed(data[i : i + 1]))
    assert out == [[0, i, "m", [i, "x" * i]] for i in range(20)]


@given(
    sizes=st.lists(st.integers(0, 300), min_size=1, max_size=12),
    cuts=st.lists(st.integers(1, 700), min_size=1, max_size=40),
)
def test_the_limit_is_per_message_however_the_bytes_arrive(sizes, cuts):
    """Messages each within the limit come out whole and in order, from any chunking and
    however many share a read; the limit is one message's size, not the buffer's."""
    limit = 330
    messages = [[0, i, "m", ["x" * n]] for i, n in enumerate(sizes)]
    packed = [msgpack.packb(m) for m in messages]
    data = b"".join(packed)
    decoder = Decoder(max_message_size=limit)
    out: list[object] = []
    start, k = 0, 0
    try:
        while start < len(data):
            end = start + cuts[k % len(cuts)]
            out.extend(decoder.feed(data[start:end]))
            start, k = end, k + 1
    except ProtocolViolation:
        # refused exactly when some message is over the limit, and only after those before it
        first_big = next(i for i, p in enumerate(packed) if len(p) > limit)
        assert out == messages[:first_big]
        return
    assert all(len(p) <= limit for p in packed)
    assert out == messages


@pytest.mark.parametrize(
    "garbage", [b"\xc1", b"\x81\x01\x02", b"\xa2\xff\xfe", b"\x91" * 5000 + b"\xc0"]
)
def test_decoder_refuses_garbage(garbage):
    with pytest.raises(ProtocolViolation, match="malformed"):
        list(Decoder().feed(garbage))


def test_decoder_refuses_a_message_over_the_limit():
    decoder = Decoder(max_message_size=1000)
    big = msgpack.packb([0, 1, "m", ["x" * 2000]])
    with pytest.raises(ProtocolViolation, match="larger than the limit of 1000"):
        for i in range(0, len(big), 100):
            list(decoder.feed(big[i : i + 100]))


def test_error_objects_round_trip():
    error = RpcError(Code.BAD_INPUT, "bad", {"position": 3})
    wire = error.to_wire()
    assert wire == {"code": 6, "name": "bad-input", "message": "bad", "data": {"position": 3}}
    back = RpcError.from_wire(wire)
    assert (back.code, back.message, back.data) == (6, "bad", {"position": 3})
    assert RpcError.from_wire("a string").code == Code.INTERNAL_ERROR


async def _pair(nursery, on_a=None, on_b=None, limits=None):
    limits = limits or SessionLimits()
    left, right = trio.testing.memory_stream_pair()
    a = Session(left, limits=limits, name="a")
    b = Session(right, limits=limits, name="b")
    if on_a:
        a.on_request = on_a
    if on_b:
        b.on_request = on_b
    nursery.start_soon(a.run)
    nursery.start_soon(b.run)
    return a, b


async def test_both_sides_call_each_other_and_answers_match_msgids(nursery, autojump_clock):
    async def double(session, request):
        await trio.sleep(0.01 * max(0, 5 - request.params[0]))  # answer out of order
        return request.params[0] * 2

    async def ask_back(session, request):
        return await session.call("double", [request.params[0] + 100])

    a, b = await _pair(nursery, on_a=double, on_b=ask_back)
    results = {}

    async def one(i):
        results[i] = await a.call("double-or-ask", [i]) if i % 2 else await b.call("x", [i])

    async with trio.open_nursery() as inner:
        for i in range(5):
            inner.start_soon(one, i)
    assert results == {0: 0, 1: 202, 2: 4, 3: 206, 4: 8}


async def test_call_times_out_and_a_late_answer_is_dropped(nursery, autojump_clock):
    release = trio.Event()

    async def late(session, request):
        await release.wait()
        return "late"

    a, b = await _pair(nursery, on_b=late)
    with pytest.raises(CallTimeout) as info:
        await a.call("decide", [], timeout=0.05)
    assert info.value.code == Code.TIMEOUT
    release.set()
    await trio.sleep(0.05)
    assert a.waiting == 0
    with pytest.raises(RpcError, match="unknown method"):  # the connection still works
        await b.call("unknown", [])


async def test_unknown_method_by_default(nursery):
    a, _ = await _pair(nursery)
    with pytest.raises(RpcError) as info:
        await a.call("decide", [])
    assert info.value.code == Code.METHOD_NOT_FOUND


async def test_pending_calls_fail_when_the_peer_goes_away(nursery, autojump_clock):
    async def never(session, request):
        await trio.sleep_forever()

    a, b = await _pair(nursery, on_b=never)

    async def drop():
        await trio.sleep(0.05)
        await b.close()

    nursery.start_soon(drop)
    with pytest.raises(ConnectionClosed):
        await a.call("decide", [], timeout=5)
    with pytest.raises(ConnectionClosed):
        await a.call("decide", [])


async def test_the_pending_limit_refuses_the_excess(nursery, autojump_clock):
    gate = trio.Event()

    async def wait(session, request):
        await gate.wait()
        return "ok"

    a, _ = await _pair(nursery, on_b=wait, limits=SessionLimits(max_pending=3))
    outcomes = []

    async def one():
        try:
            outcomes.append(await a.call("wait", []))
        except RpcError as exc:
            outcomes.append(exc.name)

    async with trio.open_nursery() as inner:
        for _ in range(5):
            inner.start_soon(one)
        await trio.sleep(0.05)
        gate.set()
    assert sorted(outcomes) == ["ok"] * 3 + ["too-many-requests"] * 2


async def test_hello_can_ask_for_string_errors(nursery):
    from tests.protocol_helpers import Raw, make_server

    server, _ = make_server()
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    plain = await Raw.connect(port)
    assert (await plain.call(0, "hello", 1, "go-bot", "client", "string"))[2] is None
    reply = await plain.call(1, "no.such.method")
    assert reply[2] == "method-not-found (-32601): unknown method 'no.such.method'"
    await plain.send(42)  # no msgid: the error notification is a string too
    assert (await plain.receive())[2] == [
        "invalid-request (-32600): a message must be a msgpack-rpc array"
    ]
    structured = await Raw.connect(port)
    await structured.hello()
    assert (await structured.call(1, "no.such.method"))[2]["name"] == "method-not-found"
    wrong = await Raw.connect(port)
    assert (await wrong.call(0, "hello", 1, "x", "client", "json"))[2]["name"] == "bad-input"
