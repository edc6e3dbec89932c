"""Browsers' frames written by the relay's own process (protocol/web/relay.py): each frame
handed over once for every socket it is for and written to each whole and in order, the
browser's gate held until it is; a browser that cannot take it keeps the gate until it has,
one that has gone fails its next write, a forgotten socket is closed by the relay too, and
when the relay ends its writers write their own frames again. Through hypercorn, a watching
browser gets the same messages with the relay as without."""

from __future__ import annotations

import base64
import logging
import os
import socket
from typing import Any

import msgpack
import pytest
import trio
import trio.testing

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.subscribers import Feed
from croupier.protocol.web import relay as relay_module
from croupier.protocol.web import serve_http, transports, wsstream
from croupier.protocol.web.relay import Relay, supported
from croupier.protocol.web.transports import FrameWriter, binary_frame
from tests.test_web_hosts import handshake
from tests.test_web_transports import _deflate, _parse

MASK = b"\0\0\0\0"
"""A client's frame is masked; a zero mask leaves the payload as it is."""

pytestmark = pytest.mark.skipif(not supported(), reason="no Unix sockets to hand sockets over")


def _pair(small: bool = False) -> tuple[trio.SocketStream, trio.SocketStream]:
    """A server's socket and its browser's (``small``: a send buffer of 4 kB)."""
    a, b = trio.socket.socketpair()
    if small:
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    return trio.SocketStream(a), trio.SocketStream(b)


async def _written(writer: FrameWriter) -> None:
    """Wait until the relay has opened ``writer``'s gate."""
    async with writer.gate:
        pass


async def _read(browser: trio.SocketStream, size: int) -> bytes:
    got = bytearray()
    while len(got) < size:
        got += await browser.receive_some(1 << 16)
    return bytes(got)


async def test_each_frame_goes_once_to_every_socket_it_is_for(nursery):
    relay = Relay(relay_from=0)
    await nursery.start(relay.run)
    pairs = [_pair() for _ in range(3)]
    writers = [FrameWriter(server, trio.Semaphore(1), relay=relay) for server, _ in pairs]
    sent: list[bytes] = []
    relay_write = relay.write

    def counted(writer: FrameWriter, frame: bytes) -> None:
        sent.append(frame)
        relay_write(writer, frame)

    relay.write = counted  # type: ignore[method-assign]
    first, second = binary_frame(b"first"), binary_frame(b"x" * 70_000)
    for writer in writers:
        assert writer.offer(first) == b"" and not writer.gate.value  # held until written
    for writer in writers[:2]:
        await writer.send(b"x" * 70_000)  # waits for its gate, hands over, returns
    for writer in writers:
        await _written(writer)
    assert [bytes(await _read(b, len(first))) for _, b in pairs[2:]] == [first]
    for _, browser in pairs[:2]:
        assert _parse(await _read(browser, len(first) + len(second))) == [
            b"first",
            b"x" * 70_000,
        ]
    assert len(sent) == 5 and all(w.relay_id for w in writers)


async def test_a_socket_that_cannot_take_its_frames_holds_its_gate_until_it_has(nursery):
    """What the socket does not take waits in the relay, and so does a later frame, in
    order; nothing else is written to the browser until both are (hypercorn waits, and no
    frame is handed over past it)."""
    relay = Relay(relay_from=0)
    await nursery.start(relay.run)
    server, browser = _pair(small=True)
    writer = FrameWriter(server, trio.Semaphore(1), relay=relay)
    big = bytes(range(256)) * 4096  # 1 MiB: far more than the socket holds
    assert writer.offer(binary_frame(big)) == b""
    assert writer.offer(binary_frame(b"later")) == b""  # queued behind it in the relay
    assert writer.relayed == 2 and not writer.gate.value
    for _ in range(transports.RELAYED_AT_MOST - 2):
        assert writer.offer(binary_frame(b"more")) == b""
    assert writer.offer(binary_frame(b"too many")) is None  # bounded: it waits in its stream
    more = [b"more"] * (transports.RELAYED_AT_MOST - 2)
    pong = trio.Event()

    async def hypercorn_pong() -> None:
        async with writer.gate:  # as hypercorn's protocol_send: only once the frame is out
            await server.send_all(b"\x8a\x00")
            pong.set()

    nursery.start_soon(hypercorn_pong)
    await trio.testing.wait_all_tasks_blocked()
    assert writer.offer(binary_frame(b"after")) is None  # hypercorn waits: its turn first
    received = bytearray()
    while not received.endswith(b"\x8a\x00"):
        received += await browser.receive_some(1 << 16)
    await pong.wait()
    assert _parse(bytes(received[:-2])) == [big, b"later", *more] and writer.gate.value == 1
    assert not writer.relayed


async def test_a_browser_that_has_gone_fails_its_next_write(nursery):
    relay = Relay(relay_from=0)
    await nursery.start(relay.run)
    server, browser = _pair()
    writer = FrameWriter(server, trio.Semaphore(1), relay=relay)
    await browser.aclose()
    assert writer.offer(binary_frame(b"x")) == b""
    await _written(writer)  # the relay found it gone: the gate is open again
    assert writer.gone
    with pytest.raises(OSError):
        writer.offer(binary_frame(b"y"))
    with pytest.raises(OSError):
        await writer.send(b"y")


async def test_a_forgotten_socket_is_closed_by_the_relay_too(nursery):
    """The relay holds a copy of the socket: the browser sees the connection end only once
    the server has closed its own and the relay has been told to forget it."""
    relay = Relay(relay_from=0)
    await nursery.start(relay.run)
    server, browser = _pair()
    writer = FrameWriter(server, trio.Semaphore(1), relay=relay)
    frame = binary_frame(b"bye")
    writer.offer(frame)
    await _written(writer)
    await server.aclose()
    relay.forget(writer)
    assert await _read(browser, len(frame)) == frame
    assert await browser.receive_some(1 << 16) == b""  # the end


async def test_when_the_relay_ends_its_writers_write_their_own_frames():
    relay = Relay(relay_from=0)
    (out_server, _), (idle_server, idle_browser) = _pair(), _pair()
    out = FrameWriter(out_server, trio.Semaphore(1), relay=relay)
    idle = FrameWriter(idle_server, trio.Semaphore(1), relay=relay)
    async with trio.open_nursery() as nursery:
        await nursery.start(relay.run)
        idle.offer(binary_frame(b"one"))
        await _written(idle)  # all it was handed is written
        out.offer(binary_frame(b"lost"))  # still out with the relay when it ends
        nursery.cancel_scope.cancel()
    assert not relay.running
    assert out.gone and out.gate.value == 1  # its stream cannot be trusted: it fails
    with pytest.raises(OSError):
        out.offer(binary_frame(b"x"))
    assert idle.offer(binary_frame(b"two")) == b"" and idle.gate.value == 1  # written here
    assert _parse(await _read(idle_browser, 10)) == [b"one", b"two"]


async def test_with_fewer_browsers_than_it_takes_the_server_writes_their_frames(nursery):
    """The relay's hop pays only from ``relay_from`` browsers on; below, the server writes
    itself, and a browser's frames switch ways only once its gate is open."""
    relay = Relay(relay_from=2)
    await nursery.start(relay.run)
    server, browser = _pair()
    writer = FrameWriter(server, trio.Semaphore(1), relay=relay)
    relay.browsers = 1
    assert writer.offer(binary_frame(b"here")) == b"" and writer.gate.value == 1
    assert writer.relay_id is None  # never handed over
    relay.browsers = 2
    assert writer.offer(binary_frame(b"relayed")) == b"" and not writer.gate.value
    relay.browsers = 1
    assert writer.offer(binary_frame(b"here again")) is None  # not before the relay's
    await writer.send(b"here again")  # waits for the gate, then writes itself
    assert _parse(await _read(browser, 6 + 9 + 12)) == [b"here", b"relayed", b"here again"]


async def _watched(relay: bool) -> list[Any]:
    """Every message a browser watching a 20-round table gets, through hypercorn on a
    loopback port, offering permessage-deflate (the frames written with or without the
    relay)."""
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        [(_, tcp)] = await nursery.start(server.serve, "127.0.0.1", 0)

        async def web(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            await serve_http(server, "127.0.0.1", 0, relay=relay, task_status=task_status)

        [(_, port)] = await nursery.start(web)
        local = f"127.0.0.1:{port}"
        status, stream, rest = await handshake(port, local, f"http://{local}", deflate=True)
        assert status.startswith("HTTP/1.1 101")
        received = bytearray(rest)

        async def send(message: list[Any]) -> None:
            payload = msgpack.packb(message)
            await stream.send_all(bytes([0x82, 0x80 | len(payload)]) + MASK + payload)

        with trio.fail_after(60):  # a guard against a hang, not a timing
            async with stream, connect("127.0.0.1", tcp, name="owner") as owner:
                await send([0, 0, "hello", [1, "page", "watcher"]])
                options = {"fill": ["lim17"], "rounds": 20, "autostart": False, "seed": 5}
                table = (await owner.call_named("table.create", options))["table"]
                await send([0, 1, "table.watch", [table]])
                while len(_messages(received)) < 2:  # hello's and watch's answers
                    received.extend(await stream.receive_some(65536))
                await owner.call("table.start", table)
                while b"finished" not in b"".join(_parse(bytes(received), _deflate())):
                    received.extend(await stream.receive_some(65536))
        server.stop()
        nursery.cancel_scope.cancel()
    return _messages(received)


def _messages(received: bytearray) -> list[Any]:
    unpacker = msgpack.Unpacker()
    for payload in _parse(bytes(received), _deflate()):
        unpacker.feed(payload)
    return list(unpacker)


async def test_a_watching_browser_gets_the_same_messages_with_the_relay(monkeypatch):
    monkeypatch.setattr(relay_module, "RELAY_FROM", 1)
    relayed: list[int] = []
    relay_write = Relay.write

    def counted(self: Relay, writer: FrameWriter, frame: bytes) -> None:
        relayed.append(len(frame))
        relay_write(self, writer, frame)

    monkeypatch.setattr(Relay, "write", counted)
    without = await _watched(relay=False)
    assert not relayed
    with_relay = await _watched(relay=True)
    assert relayed  # the frames went through the relay
    events = [m for m in with_relay if m[:2] == [2, "table.event"]]
    assert len(events) > 20 and with_relay[-1][2][1]["state"] == "finished"
    # the same messages in the same order (a table's commitment is salted by each server)
    assert _unsalted(with_relay) == _unsalted(without)


def _unsalted(value: Any) -> Any:
    """``value`` without the salt and the commitment it hides a seed with."""
    if isinstance(value, dict):
        return {k: _unsalted(v) for k, v in value.items() if k not in ("salt", "commit")}
    if isinstance(value, list):
        return [_unsalted(v) for v in value]
    return value


async def test_a_browser_that_reads_nothing_is_dropped_and_the_table_plays_on(monkeypatch, caplog):
    """Through hypercorn with the relay, a browser that watches and then never reads (a
    small receive buffer): the relay holds its gate, its frames wait in its stream (here at
    most 4 kB), then in the feed, which drops it as too slow; the table finishes."""
    caplog.set_level(logging.WARNING, logger="croupier.tables")
    monkeypatch.setattr(relay_module, "RELAY_FROM", 1)
    monkeypatch.setattr(Feed.__init__, "__defaults__", (100,))  # notifications behind
    monkeypatch.setattr(wsstream, "WAITING_BYTES", 4096)
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        [(_, tcp)] = await nursery.start(server.serve, "127.0.0.1", 0)

        async def web(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            await serve_http(server, "127.0.0.1", 0, relay=True, task_status=task_status)

        [(_, port)] = await nursery.start(web)
        sock = trio.socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        await sock.connect(("127.0.0.1", port))
        stream = trio.SocketStream(sock)
        local = f"127.0.0.1:{port}"
        key = base64.b64encode(os.urandom(16)).decode()
        await stream.send_all(
            f"GET /rpc HTTP/1.1\r\nHost: {local}\r\nUpgrade: websocket\r\nConnection: "
            f"Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://{local}\r\n\r\n".encode()
        )
        ended = trio.Event()

        def heard(method: str, params: Any) -> None:
            if method == "table.status" and params[1]["state"] == "finished":
                ended.set()

        with trio.fail_after(60):  # a guard against a hang, not a timing
            async with connect("127.0.0.1", tcp, name="owner", on_notification=heard) as c:
                options = {"fill": ["lim17"], "rounds": 2000, "autostart": False}
                table = (await c.call_named("table.create", options))["table"]
                for message in [
                    [0, 0, "hello", [1, "page", "watcher"]],
                    [0, 1, "table.watch", [table]],
                ]:
                    payload = msgpack.packb(message)
                    await stream.send_all(bytes([0x82, 0x80 | len(payload)]) + MASK + payload)
                received = bytearray()
                while b"\r\n\r\n" not in received:
                    received += await stream.receive_some(1024)
                received = bytearray(received.partition(b"\r\n\r\n")[2])
                while len(_messages(received)) < 2:  # hello's and watch's answers, the last read
                    received += await stream.receive_some(1024)
                await c.call("table.watch", table)
                await c.call("table.start", table)
                await ended.wait()  # it reads nothing: the table did not wait for it
        await stream.aclose()
        server.stop()
        nursery.cancel_scope.cancel()
    assert "dropped as a watcher (too slow: " in caplog.text
