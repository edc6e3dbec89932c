"""Serving the web page: in the server's own trio loop, every static file shipped in the
package, a port in use as a one-line error."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from croupier.engine import CroupierError, PluginManager
from croupier.protocol import Server
from croupier.protocol.web import serve_http

ROOT = Path(__file__).resolve().parent.parent


async def get(port: int, path: str) -> tuple[str, dict[str, str], bytes]:
    """A bare HTTP/1.1 GET: the status line, the headers (lower-cased names), the body."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += await stream.receive_some(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        status, *lines = head.decode().split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
        while len(body) < int(headers["content-length"]):
            body += await stream.receive_some(65536)
    return status, headers, body


async def test_the_pages_are_served_from_the_servers_own_loop():
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve, "127.0.0.1", 0)
        [(_, port)] = await nursery.start(serve_http, server, "127.0.0.1", 0)
        status, headers, body = await get(port, "/")
        assert status.startswith("HTTP/1.1 200") and b"<title>croupier: lobby</title>" in body
        assert "default-src 'self'" in headers["content-security-policy"]
        status, headers, _ = await get(port, "/js/msgpack.js")
        assert "javascript" in headers["content-type"]  # module scripts need a JS type
        status, _, _ = await get(port, "/nothing.html")
        assert status.startswith("HTTP/1.1 404")
        server.stop()
        nursery.cancel_scope.cancel()


async def test_a_web_port_in_use_is_a_one_line_error():
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with trio.open_nursery() as nursery:
            with pytest.raises(
                CroupierError, match=f"cannot serve the web page on 127.0.0.1:{port}"
            ):
                await nursery.start(serve_http, server, "127.0.0.1", port)


def test_croupier_serve_refuses_a_web_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["serve", "--port", "0", "--http", str(port), "--seed", "1"]
        done = subprocess.run(
            [sys.executable, "-m", "croupier.clients.cli", *argv],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert f"cannot serve the web page on 127.0.0.1:{port}" in done.stderr.splitlines()[-1]


async def test_each_game_serves_its_own_view_and_pages():
    import croupier_coin  # the example game (installed by .ci/run): no web files of its own

    manager = PluginManager(autoload=False, plugins=[("croupier-coin", croupier_coin)])
    server = Server(manager, default_game="blackjack", seed=1)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve, "127.0.0.1", 0)
        [(_, port)] = await nursery.start(serve_http, server, "127.0.0.1", 0)
        status, headers, body = await get(port, "/games/index.json")
        index = json.loads(body)
        assert index["views"] == {
            name: f"/games/{name}/view.js" for name in ("baccarat", "blackjack", "three-card-poker")
        }  # coin-toss has none: its tables show as event lists
        assert index["pages"] == [
            {"game": "blackjack", "title": "Strategy chart", "href": "/games/blackjack/chart.html"}
        ]
        for href in [*index["views"].values(), index["pages"][0]["href"]]:
            status, headers, body = await get(port, href)
            assert status.startswith("HTTP/1.1 200") and body
            assert "default-src 'self'" in headers["content-security-policy"]
        status, _, _ = await get(port, "/games/blackjack/nothing.js")
        assert status.startswith("HTTP/1.1 404")
        server.stop()
        nursery.cancel_scope.cancel()
