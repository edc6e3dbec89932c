"""The trio TCP server: one task per connection, limits on everything, graceful shutdown.

Each connection runs a :class:`~croupier.protocol.transport.session.Session` in its own task under a
nursery that survives any failing handler (trio's echo-server pattern): a bug in one
method or a hostile client costs that request or that connection, never the server.
Requests are dispatched through a
:class:`~croupier.protocol.transport.methods.MethodTable` built from services, so new method
groups (tables, tournaments) plug in without touching this module.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any

import trio

from croupier.engine import (
    CroupierError,
    Game,
    PluginManager,
    Stream,
)
from croupier.protocol.botkeys import AUTH_MODES, BotKeys, KeyFailures
from croupier.protocol.budgets import RequestBudgets
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal import JournalError, NullJournal
from croupier.protocol.keys import new_secret
from croupier.protocol.transport.addresses import DEFAULT_HOST, DEFAULT_PORT, exposed, listen
from croupier.protocol.transport.admission import (
    Admission,
    connection_cap,
    descriptor_limit,
    serve_listeners,
)
from croupier.protocol.transport.codec import PROTOCOL_VERSION, BufferBudget
from croupier.protocol.transport.connections import Connection, ConnectionHandling
from croupier.protocol.transport.fairpool import FairPool
from croupier.protocol.transport.lanes import PlayLane
from croupier.protocol.transport.limits import ServerLimits
from croupier.protocol.transport.loopwatch import LoopWatch
from croupier.protocol.transport.methods import MethodTable, Service

__all__ = ["Connection", "RpcServer"]

log = logging.getLogger("croupier.server")

SHUTDOWN_NOTIFICATION = "shutdown"


class RpcServer(ConnectionHandling):
    """The msgpack-rpc server of the services it is given: connections, the handshake's
    admission, budgets, dispatch to the method table, the journal and shutdown. It names no
    service (croupier's own server, with its default services, is
    :class:`croupier.protocol.Server`). ``seed`` is the root of every seed it draws."""

    def __init__(
        self,
        manager: PluginManager,
        *,
        seed: int,
        limits: ServerLimits = ServerLimits(),
        services: Iterable[Service],
        first_game_id: int = 1,
        journal: NullJournal | None = None,
        default_game: str | None = None,
        auth: str = "open",
    ) -> None:
        if auth not in AUTH_MODES:
            raise CroupierError(f"auth is {' or '.join(AUTH_MODES)}, not {auth!r}")
        self.auth = auth
        """``open``: any bot plays under the name it says; ``keys``: bots present a
        registered key (:mod:`croupier.protocol.botkeys`)."""

        self.manager = manager
        self.seed = seed
        self.default_game = default_game
        """The game a table or tournament plays when its client names none (``croupier serve``:
        blackjack, so bots written before games keep working)."""
        self.journal = NullJournal() if journal is None else journal
        """Where tables and tournaments are recorded (``croupier serve --data``)."""
        self.limits = limits
        self.services = list(services)
        self.methods = MethodTable(self.services)
        self.admission = Admission(limits)
        self.connections = self.admission.open
        """Connections held at most: ``max_connections`` lowered to fit ``ulimit -n``."""
        self.buffers = BufferBudget(limits.max_buffered)
        self.budgets = RequestBudgets(
            limits.request_rate,
            limits.request_burst,
            limits.address_rate,
            limits.address_burst,
        )
        """Every connection's and every address's request-rate budget."""
        self.lane = PlayLane()
        """Calls to bots waiting for their answer: bulk requests yield to them."""
        self.addresses: list[tuple[str, int]] = []
        self.solver_pool = FairPool(
            "solver",
            limits.solver_threads,
            max_waiting=limits.work_queue,
            per_owner=limits.work_queue_per_connection,
            max_wait=limits.solver_timeout,
            per_owner_running=1,
            per_group_running=limits.peer_workers(limits.solver_threads),
        )
        self.randomizer_pool = FairPool(
            "randomizer",
            limits.randomizer_threads,
            max_waiting=limits.work_queue,
            per_owner=limits.work_queue_per_connection,
            max_wait=limits.solver_timeout,
            per_owner_running=1,
        )
        self.scoring_limiter = trio.CapacityLimiter(max(1, limits.scoring_workers))
        """Scoring worker processes busy at once (:mod:`croupier.protocol.tables.scoring`)."""
        self._seed_streams: dict[str, Stream] = {}
        self.state: dict[str, Any] = {}
        self.loop_watch = LoopWatch()
        """The event loop's stalls: a bot's decision time does not count them."""
        self.operator_key = new_secret()
        """Stops any table or tournament (``table.stop``, ``tournament.stop``)."""
        """What services keep server-wide, by key (as ``Connection.state`` per connection)."""
        self.bot_keys = BotKeys(self.journal.bot_keys())
        """The registered bots (loaded from the journal, kept there as they change)."""
        self.key_failures = KeyFailures()
        self._ids = itertools.count(1)
        self._game_ids = itertools.count(max(first_game_id, self.journal.last_id() + 1))
        self.journal_run = self.journal.new_run()
        """This start's number on the journal (1 on a fresh one; 0: no journal): drawn seeds
        depend on it, so that a restart never repeats them."""
        self.recovered = trio.Event()
        """Set once everything the journal held unfinished is rebuilt (at once without one)."""
        self._accept_scope: trio.CancelScope | None = None
        self._tasks: trio.Nursery | None = None
        self._stopping = False
        self._shutdown_deadline: float | None = None

    def next_game_id(self) -> int:
        """The id of a new table or tournament. One counter serves both, so the first
        parameter of a ``decide`` call names one game even on a connection that sits at a
        table and in a tournament at once."""
        return next(self._game_ids)

    # -- seeds -----------------------------------------------------------------------------
    def derive_seed(self, purpose: str) -> int:
        """The next seed for ``purpose`` ("table", "tournament", "randomizer"), drawn from
        the root seed and the server's run on its journal.

        Seeds per purpose are a reproducible sequence: a server started with the same seed
        on a fresh journal (or none) hands out the same seeds in the same order. Each later
        start on a journal is a new run (:meth:`NullJournal.new_run`), whose sequence is
        another stream, so a restart on the same journal never hands out a seed again.
        """
        stream = self._seed_streams.get(purpose)
        if stream is None:
            root = Stream(self.seed).child("seeds", purpose)
            # a first run (or none) draws what a server without a journal draws
            stream = root if self.journal_run <= 1 else root.child(f"run-{self.journal_run}")
            self._seed_streams[purpose] = stream
        return stream.getrandbits(63)

    # -- serving ---------------------------------------------------------------------------
    @property
    def resumes(self) -> bool:
        """Whether what a stop interrupts resumes when the server restarts: with a journal,
        a table or tournament stopped by the server's shutdown is left unfinished in it, and
        the restarted server recovers it (bots rejoin with their tokens)."""
        return self.journal.enabled

    def shutdown_notice(self) -> dict[str, Any]:
        """The ``shutdown`` notification's parameter: ``resume`` tells a bot to reconnect and
        take its seat back once the server is up again, rather than stop."""
        return {"resume": self.resumes}

    def game(self, name: str | None) -> Game:
        """The game ``name`` (None: the server's default game); unknown: ``unknown-name``."""
        if name is None:
            name = self.default_game
        if name is None:
            known = ", ".join(game.name for game in self.manager.games)
            raise RpcError(Code.BAD_INPUT, f"name a game (the games method lists them: {known})")
        return self.manager.games.get(name)

    async def serve(
        self,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        *,
        task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Listen on ``host:port`` (port 0: any free port) until :meth:`stop` is called.

        ``nursery.start(server.serve, ...)`` returns the bound addresses. On stop the server
        stops accepting, lets services finish (tables settle their hands), gives in-flight
        requests ``shutdown_grace`` seconds, tells every client ``shutdown`` and closes.
        """
        listeners = await self.listen(host, port)
        await self.serve_listeners(listeners, task_status=task_status)

    async def listen(self, host: str, port: int) -> list[trio.SocketListener]:
        """Bind ``host:port``; a port in use or a bad host is a one-line error."""
        return await listen(host, port)

    async def serve_listeners(
        self,
        listeners: Sequence[trio.abc.Listener[Any]],
        *,
        descriptors_elsewhere: int = 0,
        task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve on bound listeners until :meth:`stop` (see :meth:`serve`). Any trio
        listener will do (the tests serve on in-memory ones); the addresses reported are
        those of the socket listeners. ``descriptors_elsewhere``: what the process may hold
        besides (the web page's), kept back from the cap ``ulimit -n`` sets."""
        self.addresses = [
            listener.socket.getsockname()[:2]
            for listener in listeners
            if isinstance(listener, trio.SocketListener)
        ]
        nofile = descriptor_limit()
        self.admission.cap = connection_cap(
            self.limits, len(listeners), nofile, descriptors_elsewhere
        )
        if self.admission.cap < self.limits.max_connections:
            log.warning(
                "at most %d connections (not %d): 'ulimit -n' is %s",
                self.admission.cap,
                self.limits.max_connections,
                nofile,
            )
        async with trio.open_nursery() as connections:
            self._tasks = connections
            connections.start_soon(self.loop_watch.run, name="loop watch")
            if self.journal.enabled:  # what it will rebuild answers `recovering` meanwhile
                for service in self.services:
                    with self._journal_reads():
                        await service.prepare_recovery(self)
                connections.start_soon(self.recover, name="recovery")
            else:
                self.recovered.set()
            with trio.CancelScope() as scope:
                self._accept_scope = scope
                if self._stopping:
                    scope.cancel()
                where = ", ".join(f"{h}:{p}" for h, p in self.addresses)
                log.info(
                    "listening on %s (protocol %d, seed %d)", where, PROTOCOL_VERSION, self.seed
                )
                for host, port in exposed(self.addresses):
                    log.warning(
                        "WARNING: %s:%d is reachable from other machines and croupier has no "
                        "authentication: anyone who can connect can create tables, take free "
                        "seats and use the solvers. Put it behind a firewall, an SSH tunnel or "
                        "a TLS proxy that checks client certificates (README: 'Exposing a "
                        "server'), or serve on 127.0.0.1",
                        host,
                        port,
                    )
                task_status.started(self.addresses)
                await serve_listeners(
                    listeners,
                    self._handle,
                    connections,
                    max_open=lambda: self.admission.cap + self.limits.max_refusing,
                )
            for listener in listeners:
                await listener.aclose()
            await self._shutdown()
            # what is left is background work with nobody to serve (the loop watch, a timer
            # for an abandoned table): the shutdown's bound holds, so stop it now
            connections.cancel_scope.cancel()
        log.info("stopped")

    async def recover(self) -> dict[str, int]:
        """Let every service carry on what the journal holds unfinished (at start, while the
        server already answers: see :meth:`Service.prepare_recovery`), log how much it
        recovered and set :attr:`recovered`."""
        found: dict[str, int] = {}
        for service in self.services:
            with self._journal_reads():
                found.update(await service.recover(self))
        said = ", ".join(f"{n} {what}" for what, n in found.items())
        log.info("recovered from the journal: %s", said or "nothing")
        self.recovered.set()
        return found

    @contextlib.contextmanager
    def _journal_reads(self) -> Iterator[None]:
        """Recovery's reads of the journal: one that fails (a damaged page, say) stops the
        server with one line (:class:`JournalError`), never a traceback."""
        try:
            yield
        except RpcError as exc:  # only its reads raise that
            why = exc.message.removeprefix("the journal cannot be read: ")
            raise JournalError(
                f"the journal {self.journal.path} cannot be read ({why}): restore it from "
                "a backup, or move it aside to start a new one"
            ) from None

    def spawn(self, fn: Callable[[], Awaitable[None]], name: str) -> None:
        """Run ``fn()`` as a server task (a table, say): it lives until it returns or the
        server stops at once; services wait for theirs in :meth:`Service.shutdown`."""
        if self._tasks is None:
            raise CroupierError("the server is not serving")
        self._tasks.start_soon(fn, name=name)

    @property
    def stopping(self) -> bool:
        return self._stopping

    def shutdown_left(self) -> float:
        """Seconds left of the shutdown's grace (all of it before :meth:`stop`): one bound
        for the whole shutdown, hands in progress and in-flight requests alike."""
        if self._shutdown_deadline is None:
            return self.limits.shutdown_grace
        return max(0.0, self._shutdown_deadline - trio.current_time())

    def stop(self) -> None:
        """Begin a graceful shutdown (safe to call from any task, more than once)."""
        if not self._stopping:
            self._shutdown_deadline = trio.current_time() + self.limits.shutdown_grace
            self._stopping = True
            log.info("shutting down: %d connection(s) open", len(self.connections))
        if self._accept_scope is not None:
            self._accept_scope.cancel()

    async def _shutdown(self) -> None:
        for service in self.services:
            try:
                await service.shutdown()
            except Exception:
                log.exception("service %s failed to shut down", type(service).__name__)

        async def close(conn: Connection) -> None:
            await conn.session.drain(self.shutdown_left())
            with trio.move_on_after(1.0):
                with contextlib.suppress(RpcError):
                    await conn.session.notify(SHUTDOWN_NOTIFICATION, [self.shutdown_notice()])
            await conn.session.close()

        async with trio.open_nursery() as nursery:
            for conn in list(self.connections.values()):
                nursery.start_soon(close, conn)
