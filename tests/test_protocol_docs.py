"""docs/protocol.md documents every method and every error code the server has."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgpack
import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import PROTOCOL_VERSION, Code, Server
from tests.memnet import serve
from tests.protocol_helpers import make_manager

DOC = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()


def test_every_method_is_documented():
    server = Server(make_manager(), default_game="blackjack", seed=1)
    for method in server.methods:
        assert f"| `{method.name}` |" in DOC or f"## Handshake: `{method.name}`" in DOC, method.name
        for param in method.params:
            assert f"`{param.name}`" in DOC, (method.name, param.name)


def test_every_error_code_is_documented():
    for code in Code:
        assert f"| `{int(code)}` | `{code.slug}` |" in DOC


def test_the_example_session_starts_with_the_documented_bytes():
    # [0, 0, "hello", [1, "doc-bot", "client"]] as packed by msgpack
    assert "94 00 00 a5 68 65 6c 6c 6f 93 01 a7 64 6f 63 2d" in DOC
    assert f"this server speaks `{PROTOCOL_VERSION}`" in DOC


def example_session() -> list[tuple[str, bytes]]:
    """The messages of the doc's "Example session, byte for byte", in order: direction
    (``->`` client to server, ``<-`` server to client) and the bytes its hex lines give."""
    block = DOC.split("## Example session, byte for byte", 1)[1].split("```text", 1)[1]
    block = block.split("```", 1)[0]
    messages: list[tuple[str, bytes]] = []
    for line in block.splitlines():
        if found := re.fullmatch(r"(->|<-) (\d+) bytes", line.strip()):
            messages.append((found.group(1), b""))
            declared = int(found.group(2))
        elif re.fullmatch(r"(?:[0-9a-f]{2} ?)+", line.strip()):
            direction, data = messages[-1]
            messages[-1] = (direction, data + bytes.fromhex(line))
        elif line.strip().startswith("= "):
            direction, data = messages[-1]
            assert len(data) == declared, (line, len(data), declared)
            assert msgpack.unpackb(data) == json.loads(line.strip()[2:]), line
    return messages


async def test_the_example_session_is_what_a_server_sends_byte_for_byte(virtual_clock):
    """Play the doc's client bytes against a real server (the example plugin's ``coin``
    loaded, on an in-memory network) and compare every byte it sends, the closing
    ``shutdown`` included, with the doc's."""
    coin = pytest.importorskip("croupier_coin", reason="pip install ./examples/croupier-coin")
    messages = example_session()
    assert [d for d, _ in messages[:2]] == ["->", "<-"] and messages[-1][0] == "<-"

    server = Server(
        PluginManager(autoload=False, plugins=[("coin", coin)]), default_game="blackjack", seed=1
    )
    async with trio.open_nursery() as nursery:
        net = await serve(nursery, server)
        stream = net.dial()
        received = bytearray()

        async def expect(data: bytes) -> None:
            while len(received) < len(data):
                chunk = await stream.receive_some()
                assert chunk, "the server closed the connection early"
                received.extend(chunk)
            assert bytes(received[: len(data)]).hex(" ") == data.hex(" ")
            del received[: len(data)]

        for direction, data in messages[:-1]:
            if direction == "->":
                await stream.send_all(data)
            else:
                await expect(data)
        server.stop()  # the session ends with the server's shutdown
        await expect(messages[-1][1])
        assert await stream.receive_some() == b"" and not received
