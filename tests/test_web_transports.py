"""A browser's frames written straight to its socket: valid unmasked binary frames (and
permessage-deflate ones for a browser that agreed to it), the same bytes framed once for
every browser, and a frame the socket cannot take at once finished under hypercorn's send
gate before anything hypercorn writes, even when the rest is sent by another task than the
one that began it (a socket pair, no network)."""

from __future__ import annotations

import socket
import struct
from types import SimpleNamespace

import msgpack
import trio
import wsproto.frame_protocol as fp
from wsproto.extensions import PerMessageDeflate

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.web import transports
from croupier.protocol.web.transports import (
    FrameWriter,
    Transports,
    binary_frame,
    deflate_bits,
    deflated_frame,
)
from tests.test_web_hosts import Socket, handshake, partial_serve


def _deflate(agreed: str = "permessage-deflate") -> PerMessageDeflate:
    """A browser's permessage-deflate, as agreed in the handshake (its context kept)."""
    extension = PerMessageDeflate()
    extension.finalize(agreed)
    return extension


def _parse(data: bytes, deflate: PerMessageDeflate | None = None) -> list[bytes]:
    """The payloads of the server-to-client frames in ``data``, read by wsproto's parser
    (inflated with ``deflate``)."""
    proto = fp.FrameProtocol(client=True, extensions=[deflate] if deflate else [])
    proto.receive_bytes(data)
    payloads, part = [], bytearray()
    for frame in proto.received_frames():  # a large frame may come in pieces
        assert frame.opcode in (fp.Opcode.BINARY, fp.Opcode.CONTINUATION)
        part += frame.payload
        if frame.frame_finished:
            payloads.append(bytes(part))
            part.clear()
    return payloads


def test_frames_of_every_size_are_read_back():
    payloads = [b"a", b"x" * 125, b"y" * 126, b"z" * 65535, b"w" * 65536, b"v" * 100_000]
    frames = [binary_frame(p) for p in payloads]
    assert frames[1][:2] == b"\x82\x7d" and frames[2][:4] == b"\x82\x7e\x00\x7e"
    assert frames[4][:10] == b"\x82\x7f" + struct.pack("!Q", 65536)
    assert _parse(b"".join(frames)) == payloads


def test_the_same_bytes_are_framed_once():
    chunk = bytes(range(200))
    assert binary_frame(chunk) is binary_frame(chunk)


def test_deflated_frames_are_read_back_by_a_browser_that_keeps_its_context():
    """Each frame is compressed on its own, so a browser inflating every message with the
    window of the ones before (permessage-deflate's default) reads any sequence of them."""
    payloads = [bytes(range(256)) * 4, b"table.event " * 1000, b"x" * 100_000]
    frames = [deflated_frame(p, 15) for p in payloads]
    assert all(f[0] == 0xC2 for f in frames)  # final, RSV1 (compressed), binary
    assert sum(map(len, frames)) < sum(map(len, payloads)) // 10
    assert _parse(b"".join([*frames, binary_frame(b"plain")]), _deflate()) == [
        *payloads,
        b"plain",
    ]
    assert _parse(b"".join(frames[::-1]), _deflate()) == payloads[::-1]


async def test_the_same_bytes_are_compressed_once_and_small_ones_not_at_all():
    chunk = b"table.event " * 100
    assert deflated_frame(chunk, 15) is deflated_frame(chunk, 15)
    a, b = trio.socket.socketpair()
    writer = FrameWriter(trio.SocketStream(a), trio.Semaphore(1), deflate=15)
    assert writer.frame(chunk) is deflated_frame(chunk, 15)
    assert writer.frame(b"small") == binary_frame(b"small")  # a response: as it is
    assert FrameWriter(trio.SocketStream(b), trio.Semaphore(1)).frame(chunk)[0] == 0x82
    a.close()
    b.close()


def test_the_agreed_window_is_found_on_hypercorns_connection():
    def served(*extensions: object) -> SimpleNamespace:
        proto = SimpleNamespace(extensions=list(extensions))
        stream = SimpleNamespace(connection=SimpleNamespace(_proto=proto))
        return SimpleNamespace(protocol=SimpleNamespace(protocol=SimpleNamespace(stream=stream)))

    offered = PerMessageDeflate()
    assert deflate_bits(served(offered)) is None  # not agreed: the browser did not offer it
    offered.accept("permessage-deflate; server_max_window_bits=10")
    assert deflate_bits(served(offered)) == 10
    assert deflate_bits(object()) is None  # not hypercorn's: uncompressed


def test_an_unknown_peer_or_a_tls_stream_has_no_writer():
    transports = Transports()
    assert transports.writer(("127.0.0.1", 1)) is None
    transports.add(("127.0.0.1", 1), object())  # no plain socket stream in it
    assert transports.writer(("127.0.0.1", 1)) is None


async def test_a_frame_the_socket_cannot_take_finishes_before_hypercorn_writes():
    a, b = trio.socket.socketpair()
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server, browser = trio.SocketStream(a), trio.SocketStream(b)
    lock = trio.Semaphore(1)  # hypercorn's TCPServer.send_lock, as Transports makes it
    writer = FrameWriter(server, lock)
    big = bytes(range(256)) * 4096  # 1 MiB: far more than the socket holds
    received = bytearray()
    sent = trio.Event()

    async def hypercorn_pong() -> None:
        async with lock:  # as hypercorn's protocol_send
            await server.send_all(b"\x8a\x00")  # a pong frame

    async def read_all() -> None:
        while not (sent.is_set() and received.endswith(b"\x8a\x00")):
            received.extend(await browser.receive_some(65536))

    async with trio.open_nursery() as nursery:
        await writer.send(b"first")  # the socket takes it at once
        nursery.start_soon(writer.send, big)
        await trio.testing.wait_all_tasks_blocked()
        assert not lock.value  # the rest of the frame holds the gate
        nursery.start_soon(hypercorn_pong)
        await trio.testing.wait_all_tasks_blocked()
        sent.set()
        nursery.start_soon(read_all)
    frames = bytes(received)
    assert frames.endswith(b"\x8a\x00")
    assert _parse(frames[:-2]) == [b"first", big]


async def test_the_rest_of_an_offered_frame_is_finished_by_another_task_first():
    """The fan-out offers a frame without waiting; what the socket does not take holds the
    gate until the browser's own task sends it, and hypercorn writes only after."""
    a, b = trio.socket.socketpair()
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server, browser = trio.SocketStream(a), trio.SocketStream(b)
    gate = trio.Semaphore(1)
    writer = FrameWriter(server, gate)
    assert writer.offer(binary_frame(b"first")) == b""  # all of it, at once
    big = bytes(range(256)) * 4096
    rest = writer.offer(binary_frame(big))
    assert rest and not gate.value  # the rest holds the gate
    assert writer.offer(binary_frame(b"later")) is None  # nothing written meanwhile
    received = bytearray()

    async def hypercorn_pong() -> None:
        async with gate:
            await server.send_all(b"\x8a\x00")

    async def read_all() -> None:
        while not received.endswith(b"\x8a\x00"):
            received.extend(await browser.receive_some(65536))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hypercorn_pong)
        nursery.start_soon(read_all)
        await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(writer.finish, rest)  # another task than the one that offered
    frames = bytes(received)
    assert gate.value == 1
    assert _parse(frames[:-2]) == [b"first", big] and frames.endswith(b"\x8a\x00")


async def test_a_browser_offering_deflate_gets_compressed_frames_of_every_event():
    """Through hypercorn on a loopback port, as a browser does: the handshake offers
    permessage-deflate, and the table's events come compressed and read back whole."""
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        [(_, tcp)] = await nursery.start(server.serve, "127.0.0.1", 0)
        [(_, port)] = await nursery.start(partial_serve(server, []))
        local = f"127.0.0.1:{port}"
        status, stream, rest = await handshake(port, local, f"http://{local}", deflate=True)
        assert status.startswith("HTTP/1.1 101")
        received = bytearray(rest)
        with trio.fail_after(60):  # a guard against a hang, not a timing
            async with stream, connect("127.0.0.1", tcp, name="owner") as owner:
                ws = Socket(stream, b"")
                await ws.send([0, 0, "hello", [1, "page", "watcher"]])
                options = {"fill": ["lim17"], "rounds": 20, "autostart": False}
                table = (await owner.call_named("table.create", options))["table"]
                await ws.send([0, 1, "table.watch", [table]])
                await owner.call("table.start", table)
                while b"finished" not in b"".join(_parse(bytes(received), _deflate())):
                    received.extend(await stream.receive_some(65536))
        server.stop()
        nursery.cancel_scope.cancel()
    assert any(byte & 0x40 for byte in _first_bytes(bytes(received)))  # some compressed
    unpacker = msgpack.Unpacker()
    for payload in _parse(bytes(received), _deflate()):
        unpacker.feed(payload)
    messages = list(unpacker)
    events = [m for m in messages if m[0] == 2 and m[1] == "table.event"]
    assert [m[:2] for m in messages[:2]] == [[1, 0], [1, 1]]  # hello's and watch's answers
    assert len(events) > 20 and messages[-1][2][1]["state"] == "finished"


def _first_bytes(data: bytes) -> list[int]:
    """The first byte of each frame in ``data`` (server frames: unmasked)."""
    firsts, at = [], 0
    while at + 2 <= len(data):
        size, start = data[at + 1] & 0x7F, at + 2
        if size == 126:
            (size,), start = struct.unpack_from("!H", data, at + 2), at + 4
        elif size == 127:
            (size,), start = struct.unpack_from("!Q", data, at + 2), at + 10
        firsts.append(data[at])
        at = start + size
    return firsts


async def test_a_watching_browser_gets_its_frames_straight_from_the_socket(monkeypatch):
    """Through hypercorn on a loopback port: the browser's frames are written by
    :mod:`.transports` (counted), and it reads every event and the table's end."""
    framed: list[int] = []

    def counting(payload: bytes) -> bytes:
        framed.append(len(payload))
        return real(payload)

    real = transports.binary_frame
    monkeypatch.setattr(transports, "binary_frame", counting)
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        [(_, tcp)] = await nursery.start(server.serve, "127.0.0.1", 0)
        [(_, port)] = await nursery.start(partial_serve(server, []))
        local = f"127.0.0.1:{port}"
        status, stream, rest = await handshake(port, local, f"http://{local}")
        assert status.startswith("HTTP/1.1 101")
        events = 0
        with trio.fail_after(60):  # a guard against a hang, not a timing
            async with stream, connect("127.0.0.1", tcp, name="owner") as owner:
                ws = Socket(stream, rest)
                assert (await ws.call(0, "hello", 1, "page", "watcher"))[2] is None
                options = {"fill": ["lim17"], "rounds": 20, "autostart": False}
                table = (await owner.call_named("table.create", options))["table"]
                assert (await ws.call(1, "table.watch", table))[2] is None
                await owner.call("table.start", table)
                while True:
                    message = await ws.receive()
                    if message[1] == "table.event":
                        events += 1
                    elif message[1] == "table.status" and message[2][1]["state"] == "finished":
                        break
        server.stop()
        nursery.cancel_scope.cancel()
    assert events > 20 and framed  # every round's events, in frames of our own
