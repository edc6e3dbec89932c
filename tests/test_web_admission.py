"""The web page's HTTP connections are capped like the protocol's: server-wide, and per
address (a flood of connections from one address cannot use up the process's descriptors
or shut other people out of the page)."""

from __future__ import annotations

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, ServerLimits
from croupier.protocol.transport.admission import connection_cap
from croupier.protocol.web import bind_http, serve_web


async def open_get(port: int, host: str = "127.0.0.1") -> tuple[trio.SocketStream, str]:
    """A connection from ``host`` (any 127.x.y.z is this machine) that asks for the lobby
    and stays open (keep-alive); the status line of the answer."""
    stream = await connect_from(host, port)
    await stream.send_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    return stream, await read_answer(stream)


async def connect_from(host: str, port: int) -> trio.SocketStream:
    sock = trio.socket.socket()
    try:
        await sock.bind((host, 0))
    except OSError:  # pragma: no cover - Linux routes all of 127/8 to this machine
        sock.close()
        pytest.skip(f"{host} is not an address of this machine")
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


async def read_answer(stream: trio.SocketStream) -> str:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await stream.receive_some(65536)
        if not chunk:
            return data.decode(errors="replace")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    length = next(
        int(v) for k, _, v in (h.partition(":") for h in lines) if k.lower() == "content-length"
    )
    while len(body) < length:
        body += await stream.receive_some(65536)
    return f"{lines[0]}\n{body.decode(errors='replace')}"


@pytest.fixture
async def web(nursery):
    limits = ServerLimits(http_connections=3, http_connections_per_peer=2)
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1, limits=limits)
    await nursery.start(server.serve, "127.0.0.1", 0)
    listener = bind_http(limits, "127.0.0.1", 0)
    listener.config.keep_alive_timeout = 3600  # kept open for the test, however busy the machine
    [(_, port)] = await nursery.start(serve_web, server, listener)
    yield port
    server.stop()


async def test_one_address_holds_at_most_its_share(web):
    first, answer = await open_get(web)
    assert answer.startswith("HTTP/1.1 200")
    second, answer = await open_get(web)
    assert answer.startswith("HTTP/1.1 200")
    third, answer = await open_get(web)
    assert answer.startswith("HTTP/1.1 503")
    assert "too many connections from your address (at most 2)" in answer
    other, answer = await open_get(web, "127.0.0.2")  # another address is served
    assert answer.startswith("HTTP/1.1 200")
    await first.aclose()
    with trio.fail_after(30):  # a hang guard: the server sees the close, the slot frees
        while True:
            again, answer = await open_get(web)
            if answer.startswith("HTTP/1.1 200"):
                break
            await again.aclose()
            await trio.sleep(0.01)
    for stream in (second, third, other, again):
        await stream.aclose()


async def test_at_the_cap_a_newcomer_waits_for_a_slot(web):
    held = [(await open_get(web, host))[0] for host in ("127.0.0.1", "127.0.0.1", "127.0.0.2")]
    waiting = await connect_from("127.0.0.3", web)  # the kernel's backlog takes it
    await waiting.send_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    with trio.move_on_after(0.5) as scope:  # not served while the page is full
        await waiting.receive_some(1)
    assert scope.cancelled_caught
    await held[0].aclose()
    with trio.fail_after(30):  # a hang guard
        assert (await read_answer(waiting)).startswith("HTTP/1.1 200")
    for stream in (*held[1:], waiting):
        await stream.aclose()


def test_the_web_pages_descriptors_are_kept_back_from_the_protocols():
    limits = ServerLimits(max_connections=4000, http_connections=300)
    alone = connection_cap(limits, 1, 2048)
    assert connection_cap(limits, 1, 2048, 301) == alone - 301
