"""``keys.*``: registering, listing and revoking bots over the protocol, with the operator key.

What ``croupier keys add|list|revoke --connect`` calls; ``--data`` does the same offline on
the journal (:mod:`croupier.protocol.botkeys`). A key is answered once, by ``keys.add``:
the server keeps only its SHA-256, in memory and in the journal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from croupier.engine import CroupierError
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.ownership import is_operator
from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection


def _operator(conn: Connection, operator_key: str | None) -> None:
    if not is_operator(conn, operator_key):
        raise RpcError(Code.NOT_ALLOWED, "registering bots needs the operator key")


class KeyService(Service):
    """``keys.add``, ``keys.list`` and ``keys.revoke`` (operator only)."""

    def methods(self) -> Iterable[Method]:
        operator = Param("operator_key", (str, type(None)), None, doc="the operator key")
        name = Param("name", (str,), doc="the bot's registered name")
        return [
            Method(
                "keys.add",
                (name, Param("author", (str, type(None)), None, doc="who wrote it"), operator),
                self.add,
                "register a bot: its key, shown this once (the server keeps its SHA-256)",
                returns="{name, author, created, revoked, key}",
                quick=True,
                durable=True,
            ),
            Method(
                "keys.list",
                (operator,),
                self.list,
                "the registered bots (never their keys)",
                returns="[{name, author, created, revoked}]",
                quick=True,
            ),
            Method(
                "keys.revoke",
                (name, operator),
                self.revoke,
                "revoke a bot's key: it is refused from now on (its connections stay)",
                returns="{name, author, created, revoked}",
                quick=True,
                durable=True,
            ),
        ]

    async def add(
        self, conn: Connection, name: str, author: str | None, operator_key: str | None
    ) -> dict[str, Any]:
        _operator(conn, operator_key)
        conn.server.journal.check()
        try:
            entry, key = conn.server.bot_keys.add(name, author)
        except CroupierError as exc:
            raise RpcError(Code.BAD_INPUT, str(exc)) from None
        conn.server.journal.bot_key_added(entry)
        return {**entry.public(), "key": key}

    async def list(self, conn: Connection, operator_key: str | None) -> list[dict[str, Any]]:
        _operator(conn, operator_key)
        return [entry.public() for entry in conn.server.bot_keys.entries()]

    async def revoke(self, conn: Connection, name: str, operator_key: str | None) -> dict[str, Any]:
        _operator(conn, operator_key)
        conn.server.journal.check()
        try:
            entry = conn.server.bot_keys.revoke(name)
        except CroupierError as exc:
            code = Code.UNKNOWN_NAME if "no registered" in str(exc) else Code.BAD_INPUT
            raise RpcError(code, str(exc)) from None
        conn.server.journal.bot_key_revoked(entry)
        return entry.public()
