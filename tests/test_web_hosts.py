"""The web page answers only to its own names (issue 34, item 14): after DNS rebinding a
page on another site sends ``Host: evil.example:PORT`` (and that ``Origin``) to a loopback
server; it gets 403, for pages and the WebSocket alike. And a watcher, which every web page
is, only watches: the methods that create, start, stop or sit answer ``not-allowed``."""

from __future__ import annotations

import base64
import os
import struct
from typing import Any

import msgpack
import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server
from croupier.protocol.web import serve_http
from croupier.protocol.web.hosts import HostAllowlist, host_name
from tests import memnet


def test_the_allowlist_has_localhost_addresses_and_the_operators_names():
    allowed = HostAllowlist.of("croupier.lan", ["Games.Example.ORG", ".club.example"])
    for host in (
        "localhost",
        "LOCALHOST:8080",
        "localhost.:8080",
        "127.0.0.1:8080",
        "[::1]:8080",
        "10.1.2.3",
        "croupier.lan:80",
        "games.example.org",
        "club.example",
        "tables.club.example:8080",
    ):
        assert allowed.allows_host(host), host
    for host in (
        "evil.example:8080",
        "localhost.evil.example",
        "127.0.0.1.evil.example",
        "evilclub.example",
        "",
        "[::1",
        "x y",
    ):
        assert not allowed.allows_host(host), host
    assert allowed.allows_host(None)  # no Host at all (HTTP/1.0): no browser sent it
    assert allowed.allows_origin(None) and allowed.allows_origin("http://localhost:8080")
    assert not allowed.allows_origin("http://evil.example:8080")
    assert not allowed.allows_origin("null")  # a sandboxed or file: page
    assert HostAllowlist.of(None, ["*"]).allows_host("anything.example")
    assert host_name("[::1]:80") == "::1" and host_name("Example.ORG.:1") == "example.org"


async def exchange(port: int, request: str) -> tuple[str, trio.SocketStream, bytes]:
    """Send ``request`` (an HTTP head); the answer's status line, the stream, what followed
    the answer's head."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await stream.receive_some(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode("latin-1").split("\r\n")[0], stream, rest


async def page(port: int, host: str) -> str:
    status, stream, _ = await exchange(port, f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n")
    await stream.aclose()
    return status


async def handshake(
    port: int, host: str, origin: str, deflate: bool = False
) -> tuple[str, trio.SocketStream, bytes]:
    """A WebSocket upgrade of ``/rpc`` (offering permessage-deflate with ``deflate``, as a
    browser does); as :func:`exchange`."""
    key = base64.b64encode(os.urandom(16)).decode()
    offer = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
    return await exchange(
        port,
        f"GET /rpc HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
        f"{offer if deflate else ''}\r\n",
    )


class Socket:
    """The least of a browser's WebSocket: masked binary frames out, whole frames in."""

    def __init__(self, stream: trio.SocketStream, pending: bytes) -> None:
        self.stream, self.buffer = stream, bytearray(pending)
        self.messages: list[Any] = []

    async def send(self, message: Any) -> None:
        payload = msgpack.packb(message)
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        await self.stream.send_all(struct.pack("!BB", 0x82, 0x80 | len(payload)) + mask + masked)

    async def receive(self) -> Any:
        while not self.messages:
            while True:
                if len(self.buffer) >= 2:
                    size, start = self.buffer[1] & 0x7F, 2
                    if size == 126 and len(self.buffer) >= 4:
                        (size,), start = struct.unpack_from("!H", self.buffer, 2), 4
                    elif size == 127 and len(self.buffer) >= 10:
                        (size,), start = struct.unpack_from("!Q", self.buffer, 2), 10
                    if (size < 126 or start > 2) and len(self.buffer) >= start + size:
                        break
                self.buffer += await self.stream.receive_some(65536)
            payload = bytes(self.buffer[start : start + size])
            del self.buffer[: start + size]
            unpacker = msgpack.Unpacker()
            unpacker.feed(payload)
            self.messages.extend(unpacker)  # a frame holds whole messages
        return self.messages.pop(0)

    async def call(self, msgid: int, method: str, *params: Any) -> Any:
        await self.send([0, msgid, method, list(params)])
        while True:
            message = await self.receive()
            if message[0] == 1 and message[1] == msgid:
                return message


async def test_a_rebound_name_gets_403_and_the_pages_own_names_get_the_page():
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve, "127.0.0.1", 0)
        served = partial_serve(server, ["croupier.lan"])
        [(_, port)] = await nursery.start(served)
        evil = f"evil.example:{port}"
        assert (await page(port, evil)).startswith("HTTP/1.1 403")
        for good in (f"localhost:{port}", f"127.0.0.1:{port}", f"croupier.lan:{port}"):
            assert (await page(port, good)).startswith("HTTP/1.1 200"), good
        status, stream, _ = await handshake(port, evil, f"http://{evil}")
        await stream.aclose()
        assert status.startswith("HTTP/1.1 403")  # DNS rebinding: no WebSocket
        local = f"127.0.0.1:{port}"
        status, stream, _ = await handshake(port, local, f"http://{evil}")
        await stream.aclose()
        assert status.startswith("HTTP/1.1 403")  # another site's page (its Origin)
        status, stream, rest = await handshake(port, local, f"http://{local}")
        assert status.startswith("HTTP/1.1 101")
        async with stream:
            ws = Socket(stream, rest)
            hello = await ws.call(0, "hello", 1, "page", "watcher")
            assert hello[2] is None
            for msgid, (method, params) in enumerate(
                [("table.create", {"fill": ["lim17"], "rounds": 5}), ("tournament.start", {})],
                start=1,
            ):
                answer = await ws.call(msgid, method, params)
                assert answer[2]["name"] == "not-allowed" and "watcher" in answer[2]["message"]
            assert (await ws.call(9, "table.list"))[2] is None  # watching is what it may do
        server.stop()
        nursery.cancel_scope.cancel()


def partial_serve(server: Server, allow: list[str]) -> Any:
    async def serve(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        await serve_http(server, "127.0.0.1", 0, allow_hosts=allow, task_status=task_status)

    return serve


CHANGES = {
    "table.create": [{"fill": ["lim17"], "rounds": 5}],
    "table.join": [1],
    "table.rejoin": ["token"],
    "table.leave": ["token"],
    "table.start": [1],
    "table.stop": [1],
    "tournament.start": [{"bots": ["lim17", "lim17"]}],
    "tournament.join": [1],
    "tournament.rejoin": ["token"],
    "tournament.stop": [1],
    "keys.add": ["a-bot"],
    "keys.list": [],
    "keys.revoke": ["a-bot"],
}


async def test_a_watcher_only_watches(nursery, virtual_clock):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=3)
    net = await memnet.serve(nursery, server)
    async with net.connect(name="owner") as owner, net.connect(name="w", role="watcher") as w:
        table = await owner.call_named(
            "table.create",
            {"fill": ["lim17"], "rounds": 10**6, "options": {"starting_chips": 10**9}},
        )
        for method, params in CHANGES.items():
            with pytest.raises(RpcError) as refused:
                await w.call(method, *params)
            assert refused.value.code == Code.NOT_ALLOWED, method
        declared = {m["name"]: m["watcher"] for m in await w.call("methods")}
        assert not any(declared[m] for m in CHANGES)
        assert set(declared) - set(CHANGES) == {m for m, ok in declared.items() if ok}
        assert (await w.call("table.watch", table["table"]))["state"] == "playing"
        assert await w.call("ping") == "pong"
        await owner.call("table.stop", table["table"])
    server.stop()
