"""One client connection on the server: :class:`Connection` (what services see) and its life.

Split from :mod:`~croupier.protocol.transport.server`: :class:`ConnectionHandling` is the mixin that
takes a stream from accepting to closing (admission, a :class:`Session`, the ``hello``
deadline, dispatching each request to its method); the server supplies the state it
declares.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs
import trio

from croupier.engine import CroupierError
from croupier.protocol.budgets import RequestBudgets, address_key
from croupier.protocol.errors import Code, RpcError, to_rpc_error
from croupier.protocol.journal import NullJournal
from croupier.protocol.transport.addresses import peer_of
from croupier.protocol.transport.admission import Admission, Refusal, peer_host
from croupier.protocol.transport.codec import BufferBudget, Notification, Request, encode
from croupier.protocol.transport.lanes import PlayLane
from croupier.protocol.transport.limits import ServerLimits
from croupier.protocol.transport.methods import MethodTable, Service
from croupier.protocol.transport.session import ERROR_NOTIFICATION, Session

if TYPE_CHECKING:
    from croupier.protocol.transport.server import RpcServer

log = logging.getLogger("croupier.server")


@attrs.define(eq=False)
class Connection:
    """One client as the services see it: who it said it is, and per-service state."""

    id: int
    peer: str
    server: RpcServer
    session: Session
    client: str | None = None
    role: str | None = None
    protocol: int | None = None
    state: dict[str, Any] = attrs.field(factory=dict)
    roles: tuple[str, ...] | None = None
    """The roles ``hello`` may name on this connection (None: any; a web page: watcher)."""
    identity: str | None = None
    """The registered bot this connection proved to be (its key in ``hello``), or None."""
    host: str = attrs.field(
        init=False, default=attrs.Factory(lambda self: peer_host(self.peer), takes_self=True)
    )
    """The peer's host (``peer`` less its port), as the per-peer caps count it."""

    @property
    def address(self) -> str:
        """The peer's address as budgets and worker shares count it (an IPv6 /64)."""
        return address_key(self.host)

    async def call(
        self, method: str, params: Sequence[Any] = (), timeout: float | None = None
    ) -> Any:
        """Call the client (e.g. ``decide``); ``timeout`` defaults to the decision timeout."""
        limit = self.server.limits.decision_timeout if timeout is None else timeout
        return await self.session.call(method, params, timeout=limit)

    def __str__(self) -> str:
        who = f" {self.client!r}" if self.client else ""
        return f"#{self.id}{who} ({self.peer})"


class ConnectionHandling:
    """Serving one connection, start to end (the state is the server's, set in its init)."""

    journal: NullJournal
    limits: ServerLimits
    services: list[Service]
    methods: MethodTable
    admission: Admission
    buffers: BufferBudget
    budgets: RequestBudgets
    lane: PlayLane
    _ids: itertools.count[int]
    _stopping: bool

    async def handle(
        self,
        stream: trio.abc.Stream,
        *,
        peer: str | None = None,
        roles: tuple[str, ...] | None = None,
    ) -> None:
        """Serve one connection arriving on any trio stream (a WebSocket adapted by the web
        application, say) exactly as a TCP one: admission, limits, ``hello``, methods.

        ``peer`` is ``host:port`` (read from a socket stream when omitted); ``roles``, when
        given, are the only roles its ``hello`` may name. Returns when the connection ends;
        never raises: the server outlives every client.
        """
        await self._handle(stream, peer=peer, roles=roles)

    async def _handle(
        self,
        stream: trio.abc.Stream,
        *,
        peer: str | None = None,
        roles: tuple[str, ...] | None = None,
    ) -> None:
        """One connection, start to end. Never raises: the server outlives every client."""
        try:
            await self._connection(stream, peer_of(stream) if peer is None else peer, roles)
        except Exception:
            log.exception("connection handler failed")

    async def _connection(
        self, stream: trio.abc.Stream, peer: str, roles: tuple[str, ...] | None
    ) -> None:
        conn_id = next(self._ids)
        session = Session(
            stream,
            limits=self.limits.session_limits(),
            name=f"#{conn_id}",
            is_quick=lambda request: self.methods.is_quick(request.method, self.journal.enabled),
            budget=self.buffers,
            lane=self.lane,
        )
        host = peer_host(peer)
        refusal = Refusal(Code.SHUTTING_DOWN, "shutting down") if self._stopping else None
        refusal = refusal or self.admission.admit(host)
        if refusal is not None:
            log.warning("connection #%d from %s refused: %s", conn_id, peer, refusal.reason)
            error = RpcError(refusal.code, f"connection refused: {refusal.reason}")
            data = encode(Notification(ERROR_NOTIFICATION, [error.to_wire()]))
            await self.admission.refuse(stream, data)
            return
        conn = Connection(conn_id, peer, cast("RpcServer", self), session, roles=roles)
        session.on_request = lambda _session, request: self._dispatch(conn, request)
        self.admission.opened(conn, host)
        budget = self.budgets.open(host)
        if budget.limited:
            cost = self.methods.cost
            session.pace = lambda request: budget.charge(cost(request))
        log.info("connection %s opened", conn)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._require_hello, conn)
                await session.run()
                nursery.cancel_scope.cancel()
        finally:
            self.admission.closed(conn, host)
            self.budgets.close(host)
            for service in self.services:
                try:
                    await service.connection_closed(conn)
                except Exception:
                    log.exception("service %s failed on close", type(service).__name__)
            log.info("connection %s closed: %s", conn, session.closed_reason)

    async def _require_hello(self, conn: Connection) -> None:
        """Close a connection that has not introduced itself in time (it holds a slot)."""
        await trio.sleep(self.limits.hello_timeout)
        if conn.protocol is None:
            reason = f"no hello within {self.limits.hello_timeout:g} s"
            conn.session.shed(RpcError(Code.HELLO_REQUIRED, f"{reason}; closing"), reason)

    async def _dispatch(self, conn: Connection, request: Request) -> Any:
        method = self.methods.get(request.method)
        if method.hello_required and conn.protocol is None:
            raise RpcError(Code.HELLO_REQUIRED, f"call 'hello' before {method.name!r}")
        if conn.role == "watcher" and not method.watcher:
            raise RpcError(
                Code.NOT_ALLOWED,
                f"a watcher only watches: {method.name!r} is for a client or a bot "
                "(say hello as one, over TCP)",
            )
        kwargs = method.bind(request.params)
        try:
            result = await method.handler(conn, **kwargs)
        except CroupierError as exc:
            raise to_rpc_error(exc) from None
        if method.durable:
            await self.journal.durable()  # answered once committed: it survives a crash
        return result
