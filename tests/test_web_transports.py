"""A browser's frames written straight to its socket: valid unmasked binary frames, the same
bytes framed once for every browser, and a frame the socket cannot take at once finished
under hypercorn's send lock before anything hypercorn writes (a socket pair, no network)."""

from __future__ import annotations

import socket
import struct

import trio
import wsproto.frame_protocol as fp

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.web import transports
from croupier.protocol.web.transports import FrameWriter, Transports, binary_frame
from tests.test_web_hosts import Socket, handshake, partial_serve


def _parse(data: bytes) -> list[bytes]:
    """The payloads of the server-to-client frames in ``data``, read by wsproto's parser."""
    proto = fp.FrameProtocol(client=True, extensions=[])
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


def test_an_unknown_peer_or_a_tls_stream_has_no_writer():
    transports = Transports()
    assert transports.writer(("127.0.0.1", 1)) is None
    transports.add(("127.0.0.1", 1), object())  # no plain socket stream in it
    assert transports.writer(("127.0.0.1", 1)) is None


async def test_a_frame_the_socket_cannot_take_finishes_before_hypercorn_writes():
    a, b = trio.socket.socketpair()
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server, browser = trio.SocketStream(a), trio.SocketStream(b)
    lock = trio.Lock()  # hypercorn's TCPServer.send_lock
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
        assert lock.locked()  # the rest of the frame holds the lock
        nursery.start_soon(hypercorn_pong)
        await trio.testing.wait_all_tasks_blocked()
        sent.set()
        nursery.start_soon(read_all)
    frames = bytes(received)
    assert frames.endswith(b"\x8a\x00")
    assert _parse(frames[:-2]) == [b"first", big]


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
