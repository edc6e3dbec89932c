"""Who a table or tournament belongs to, and what one client may run at once.

A table or tournament belongs to the connection that created it. That connection may start
and stop it; so may any connection that shows its **key** (returned to the creator, for
use after a reconnection) or the server's **operator key** (``croupier serve`` logs it at
start). A client runs a bounded number of tables and tournaments at once, so one client
cannot take every slot; and what its creator left behind with nobody playing in it
finishes on its own (see :meth:`Ownership.abandoned`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import attrs

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.keys import new_secret, same_digest, same_secret
from croupier.protocol.transport.server import Connection


@attrs.define(eq=False)
class Ownership:
    """The creator of a table or tournament: its connection id and its key."""

    conn_id: int
    key: str = attrs.field(factory=new_secret, repr=False)
    present: bool = True
    """False once the creator's connection has closed."""
    key_sha256: str | None = None
    """A recovered table's or tournament's key, as the journal keeps it (its hash: the key
    itself is known only to its creator)."""
    host: str | None = None
    """The creator's peer address (None: recovered), for the tables one address may run."""

    @classmethod
    def recovered(cls, key_sha256: str | None, present: bool = True) -> Ownership:
        """The owner of what a restarted server recovered: no connection (0 is none),
        present unless its creator had left before the server stopped (the server's stop is
        not its creator leaving), its key known by hash."""
        return cls(0, key_sha256=key_sha256, present=present)

    def allows(self, conn: Connection, key: str | None) -> bool:
        """The creator itself, or anyone with the key or the operator key."""
        if conn.id == self.conn_id:
            return True
        if not key:
            return False
        if self.key_sha256 is not None and same_digest(key, self.key_sha256):
            return True
        return same_secret(key, self.key) or same_secret(key, conn.server.operator_key)

    def check(self, conn: Connection, key: str | None, what: str, verb: str) -> None:
        """Raise ``not-allowed`` unless :meth:`allows`."""
        if not self.allows(conn, key):
            raise RpcError(
                Code.NOT_ALLOWED,
                f"{what} belongs to another client: only its creator, or whoever has its "
                f"key or the operator key, may {verb} it",
            )


def is_operator(conn: Connection, key: str | None) -> bool:
    """Whether ``key`` is the server's operator key (:func:`same_secret`: any text a client
    sends is a wrong key, never an error)."""
    return key is not None and same_secret(key, conn.server.operator_key)


class Running(Protocol):
    """A table or tournament of a service: its state and who created it."""

    state: str
    owner: Ownership


def check_peer_quota(
    running: Iterable[Running], host: str, limit: int, total: int, what: str
) -> None:
    """Refuse one more open ``what`` to the connections from ``host`` together when they
    have created ``limit`` of the server's ``total`` (one client opening connection after
    connection must not take every slot)."""
    if sum(r.state != "finished" and r.owner.host == host for r in running) >= limit:
        raise RpcError(
            Code.LIMIT_EXCEEDED,
            f"one address runs at most {limit} of the server's {total} open {what} at once: "
            "stop or finish one first",
        )


def check_quota(owned_open: int, limit: int, what: str) -> None:
    """Refuse a client one more open ``what`` than it may run at once."""
    if owned_open >= limit:
        raise RpcError(
            Code.LIMIT_EXCEEDED,
            f"a client runs at most {limit} open {what} at once: stop or finish one first",
        )
