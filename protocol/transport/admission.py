"""Who gets a connection slot, and how the others are turned away.

- The cap on connections comes from the descriptor limit (``ulimit -n``) as well as from
  ``max_connections``: a server that runs out of descriptors cannot even refuse politely.
- One peer address holds at most ``max_connections_per_peer`` connections.
- At either cap, a newcomer takes the slot of an idle connection (nothing in flight either
  way, nothing keeping it open): of the peer that holds the most connections (of its own
  peer at the per-peer cap), one that never said ``hello`` first, then the longest idle.
  Silent connections or connections parked after ``hello`` cannot lock anyone out.
- A refused client reads the error: it is written, the write side is shut, what the client
  sent is drained for a moment, and only then is the socket closed (closing with unread
  data makes the kernel send a reset, which destroys the error before it is read).
- The accept loop survives running out of descriptors (EMFILE/ENFILE): it logs once, backs
  off and carries on (trio's own loop logs a traceback ten times a second).
"""

from __future__ import annotations

import contextlib
import errno
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs
import trio

from croupier.protocol.errors import Code, RpcError

if TYPE_CHECKING:
    from croupier.protocol.transport.limits import ServerLimits
    from croupier.protocol.transport.server import Connection

log = logging.getLogger("croupier.server")

DESCRIPTOR_RESERVE = 64
"""Descriptors kept back for stdio, log files, plugin files and trio's own wake-up pipes."""
DESCRIPTORS_PER_WORKER = 4
"""A worker process or thread's pipes and sockets, counted generously."""
LINGER = 1.0
"""Seconds a closing connection's unread input is drained so the error reaches the peer."""
LINGER_BYTES = 1 << 20
"""Bytes drained at most while lingering."""
CAPACITY_ERRNOS = frozenset(
    code
    for code in (errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS)
    if isinstance(code, int)
)


def descriptor_limit() -> int | None:
    """The soft ``RLIMIT_NOFILE`` (``ulimit -n``), or None where there is none."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def connection_cap(
    limits: ServerLimits, listeners: int, nofile: int | None, elsewhere: int = 0
) -> int:
    """Connections the server can hold: ``max_connections``, lowered to what ``nofile``
    descriptors leave after the reserve, the workers, the listening sockets, the
    connections being refused (each holds a descriptor while it lingers) and ``elsewhere``
    (the web page's sockets, say)."""
    cap = limits.max_connections
    if nofile is not None:
        workers = limits.solver_threads + limits.randomizer_threads
        reserved = (
            DESCRIPTOR_RESERVE
            + DESCRIPTORS_PER_WORKER * workers
            + listeners
            + limits.max_refusing
            + elsewhere
        )
        cap = min(cap, nofile - reserved)
    return max(1, cap)


def peer_host(peer: str) -> str:
    """The address part of ``host:port`` (the per-peer cap counts addresses, not ports)."""
    host, sep, _port = peer.rpartition(":")
    return host if sep else peer


def pick_victim(connections: Iterable[Connection], host: str | None = None) -> Connection | None:
    """The connection to shed for a newcomer at a cap: an idle one (nothing in flight
    either way, nothing keeping it open) of the peer holding the most connections (of
    ``host`` if given), one that never said ``hello`` first, then the longest idle; None
    when no such connection is idle."""
    conns = [c for c in connections if host is None or peer_host(c.peer) == host]
    per_peer = Counter(peer_host(c.peer) for c in conns)
    idle = [c for c in conns if c.session.idle]
    if not idle:
        return None
    return min(
        idle,
        key=lambda c: (
            -per_peer[peer_host(c.peer)],
            c.protocol is not None,
            c.session.last_receive,
        ),
    )


@attrs.frozen
class Refusal:
    """Why a connection is not let in: the error code and the reason said."""

    code: Code
    reason: str


class Admission:
    """The open connections (:attr:`open`, by connection number), counted per peer
    address, and who gets a slot among them (the rules in this module's docstring)."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.cap = limits.max_connections
        """Open connections at most: ``max_connections``, lowered by :func:`connection_cap`."""
        self.open: dict[int, Connection] = {}
        self._per_peer: Counter[str] = Counter()
        self._refusing = 0

    def admit(self, host: str) -> Refusal | None:
        """Why a new connection from ``host`` is refused, or None to let it in (after
        shedding an idle connection when the server is full)."""
        most = self.limits.max_connections_per_peer
        if self._per_peer[host] >= most:
            held = sum(
                1 for c in self.open.values() if c.session.shedding and peer_host(c.peer) == host
            )
            if self._per_peer[host] - held >= most:
                why = f"too many connections from {host}"
                if not self._shed(pick_victim(self.open.values(), host), why):
                    return Refusal(Code.LIMIT_EXCEEDED, f"{why} (at most {most})")
        held = len(self.open)
        if held >= self.cap:
            held -= sum(1 for c in self.open.values() if c.session.shedding)
        full = held >= self.cap
        if full and not self._shed(pick_victim(self.open.values()), "the server is full"):
            return Refusal(Code.LIMIT_EXCEEDED, "too many connections")
        return None

    def opened(self, conn: Connection, host: str) -> None:
        self.open[conn.id] = conn
        self._per_peer[host] += 1

    def closed(self, conn: Connection, host: str) -> None:
        del self.open[conn.id]
        self._per_peer[host] -= 1
        if not self._per_peer[host]:
            del self._per_peer[host]

    async def refuse(self, stream: trio.abc.Stream, data: bytes) -> None:
        """Send a refused connection ``data`` (its error) and close it: politely while
        fewer than ``max_refusing`` are draining, else at once."""
        linger = self._lingering() < self.limits.max_refusing
        self._refusing += 1
        try:
            await refuse(stream, data, linger=linger)
        finally:
            self._refusing -= 1

    def _lingering(self) -> int:
        """Connections refused or shed that are still draining (each holds a descriptor)."""
        return self._refusing + sum(1 for c in self.open.values() if c.session.shedding)

    def _shed(self, victim: Connection | None, why: str) -> bool:
        """Close ``victim`` (idle) to make room for a newcomer; False if there is none, or
        if ``max_refusing`` connections are draining already (their descriptors count)."""
        if victim is None or self._lingering() >= self.limits.max_refusing:
            return False
        reason = f"{why}; this connection was idle and made room for a new one"
        log.warning("connection %s shed: %s", victim, reason)
        victim.session.shed(RpcError(Code.LIMIT_EXCEEDED, f"{reason}; closing"), reason)
        return True


async def linger_close(stream: trio.abc.Stream, timeout: float = LINGER) -> None:
    """Close ``stream`` so that what was written reaches the peer: shut the write side,
    drain the peer's input (at most ``LINGER_BYTES``) until it closes or ``timeout``
    passes, then close. Shielded: it runs while the connection's task is being cancelled."""
    with trio.CancelScope(shield=True):
        with trio.move_on_after(timeout):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                send_eof = getattr(stream, "send_eof", None)
                if send_eof is not None:
                    await send_eof()
                drained = 0
                while drained < LINGER_BYTES:
                    data = await stream.receive_some(65536)
                    if not data:
                        break
                    drained += len(data)
        await stream.aclose()


async def refuse(stream: trio.abc.Stream, data: bytes, *, linger: bool) -> None:
    """Send ``data`` (an error notification) and close; with ``linger`` politely (see
    :func:`linger_close`), else at once (when too many refusals are lingering already)."""
    with trio.move_on_after(LINGER):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await stream.send_all(data)
    if linger:
        await linger_close(stream)
    else:
        await stream.aclose()


class Handlers:
    """Connection handlers running, counted from the moment of ``accept`` (a handler task
    starts a little later; without this count a burst of connections is accepted far past
    the cap before the first handler has looked at it, and the server runs out of
    descriptors)."""

    def __init__(
        self,
        handler: Callable[[Any], Awaitable[None]],
        nursery: trio.Nursery,
        max_open: Callable[[], int] | None = None,
    ) -> None:
        self.handler = handler
        self.nursery = nursery
        self.max_open = max_open
        self.open = 0

    def full(self) -> bool:
        return self.max_open is not None and self.open >= self.max_open()

    def start(self, stream: Any) -> None:
        self.open += 1
        self.nursery.start_soon(self._run, stream)

    async def _run(self, stream: Any) -> None:
        try:
            await self.handler(stream)
        finally:
            self.open -= 1


async def accept_forever(
    listener: trio.abc.Listener[Any],
    handlers: Handlers,
    *,
    max_backoff: float = 1.0,
    pause: float = 0.01,
) -> None:
    """Accept connections and start a handler for each, forever.

    While ``handlers`` is full, nothing is accepted (newcomers wait in the listen backlog
    for a moment). Running out of descriptors (or memory) is logged once per episode,
    without a traceback, and accepting is retried after a back-off that doubles up to
    ``max_backoff`` seconds.
    """
    failures = 0
    while True:
        while handlers.full():
            await trio.sleep(pause)
        try:
            stream = await listener.accept()
        except OSError as exc:
            if exc.errno not in CAPACITY_ERRNOS:
                raise
            if failures == 0:
                log.error(
                    "cannot accept connections: %s (%s); retrying until some close "
                    "(raise 'ulimit -n' or lower --connections)",
                    errno.errorcode.get(exc.errno or 0, "?"),
                    exc.strerror,
                )
            failures += 1
            await trio.sleep(min(max_backoff, 0.05 * 2 ** min(failures, 10)))
            continue
        if failures:
            log.warning("accepting connections again after %d failed attempt(s)", failures)
            failures = 0
        handlers.start(stream)


async def serve_listeners(
    listeners: Iterable[trio.abc.Listener[Any]],
    handler: Callable[[Any], Awaitable[None]],
    nursery: trio.Nursery,
    max_open: Callable[[], int] | None = None,
) -> None:
    """:func:`accept_forever` on every listener; handlers run in ``nursery``, at most
    ``max_open()`` at once (counted across the listeners)."""
    handlers = Handlers(handler, nursery, max_open)
    async with trio.open_nursery() as accepting:
        for listener in listeners:
            accepting.start_soon(accept_forever, listener, handlers)
