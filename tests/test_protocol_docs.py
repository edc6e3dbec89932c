"""docs/protocol.md documents every method and every error code the server has."""

from __future__ import annotations

from pathlib import Path

from croupier.protocol import Code, Server
from croupier.protocol.server import PROTOCOL_VERSION
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
