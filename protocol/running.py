"""Running a server as a program (``croupier serve``): bind, number, serve until a signal.

:class:`~croupier.protocol.services.Server` is the server itself, embeddable in any trio
program; :func:`run_server` is what the command runs around it: binding the address first
(so a port in use is the only error), drawing and reporting the seed, ids that never repeat
an earlier run's, the operator key, and SIGINT/SIGTERM for a graceful shutdown.
"""

from __future__ import annotations

import ipaddress
import logging
import signal
import time
from collections.abc import Callable, Sequence
from functools import partial

import trio

from croupier.engine import CroupierError, PluginManager, draw_seed
from croupier.protocol.journal import SCHEMA_VERSION, NullJournal
from croupier.protocol.journal.record import DAY
from croupier.protocol.memory import return_large_buffers
from croupier.protocol.services import Server
from croupier.protocol.transport.addresses import DEFAULT_HOST, DEFAULT_PORT, exposed, listen
from croupier.protocol.transport.limits import ServerLimits

log = logging.getLogger("croupier.server")


ID_EPOCH = 1_767_225_600
"""2026-01-01 00:00 UTC: ``croupier serve`` numbers its tables and tournaments from the
milliseconds since then at its start."""


def time_based_first_id(now: float | None = None) -> int:
    """The first table or tournament id of a server started at ``now`` (default: now).

    A restarted server must not hand out an id an earlier run gave to someone else's table
    (an old client would then act on a stranger's table). A server with a journal goes on
    above the last id it recorded; ids also start from the start time in milliseconds, so
    a run without a journal (``--data :memory:``) starts above every id of a previous run
    unless that run created more tables than milliseconds passed between the two starts."""
    return max(1, int(((time.time() if now is None else now) - ID_EPOCH) * 1000))


async def run_server(
    manager: PluginManager,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    seed: int | None,
    limits: ServerLimits = ServerLimits(),
    on_seed: Callable[[int], None] | None = None,
    http: tuple[str, int] | None = None,
    http_allow_hosts: Sequence[str] = (),
    journal: NullJournal | None = None,
    keep_days: float | None = None,
    default_game: str | None = None,
    auth: str = "open",
) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully (``croupier serve``).

    With ``seed`` None a seed is drawn once the address is bound and handed to ``on_seed``
    (the CLI reports it): an address that cannot be bound is then the only error. A second
    signal during the shutdown stops at once. With ``http`` (host, port) the web page is
    served too, in this event loop (:func:`croupier.protocol.web.serve_http`), to requests
    naming localhost, an address, its host or one of ``http_allow_hosts``. ``journal``
    records everything (the caller opens and closes it); ``keep_days``: delete what
    finished longer ago, now and daily. ``auth``: ``keys`` (bots present registered keys),
    ``open`` (refused once bound beyond loopback) or ``open-public`` (open, anywhere).
    """
    refusal = CroupierError(
        f"{host}:{port} is reachable from other machines: run --auth keys (bots present "
        "keys from 'croupier keys add'), or --auth open-public to let anyone play under "
        "any name"
    )
    if auth == "open" and _literal(host) and exposed([(host, port)]):
        raise refusal  # an address: refused before it is bound
    listeners = await listen(host, port)
    bound = [listener.socket.getsockname()[:2] for listener in listeners]
    if auth == "open" and exposed(bound):  # a name that resolved beyond loopback
        for listener in listeners:
            await listener.aclose()
        raise refusal
    auth = "open" if auth == "open-public" else auth
    web = None
    if http is not None:
        from croupier.protocol.web import bind_http  # only with --http

        try:
            web = bind_http(limits, *http, http_allow_hosts)
        except CroupierError:
            for listener in listeners:
                await listener.aclose()
            raise
    return_large_buffers()
    if seed is None:
        seed = draw_seed()
        if on_seed is not None:
            on_seed(seed)
    journal = NullJournal() if journal is None else journal
    for listener in listeners[:1]:  # a second server on this journal names this address
        host_port = listener.socket.getsockname()[:2]
        journal.announce(f"{host_port[0]}:{host_port[1]}")
    if journal.enabled:
        log.info("journal: %s (schema %d)", journal.path, SCHEMA_VERSION)
    else:
        log.info("journal: none (--data :memory:): nothing is kept")
    server = Server(
        manager,
        seed=seed,
        limits=limits,
        first_game_id=time_based_first_id(),
        journal=journal,
        default_game=default_game,
        auth=auth,
    )
    if auth == "keys":
        log.info("bots present keys (--auth keys): %d registered", len(server.bot_keys.entries()))
    log.info(
        "operator key: %s (table.stop and tournament.stop take it; table.seed and "
        "tournament.seed show a live seed with it)",
        server.operator_key,
    )
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                async for signum in signals:
                    if server.stopping:
                        log.warning("received %s again: stopping now", signal.Signals(signum).name)
                        nursery.cancel_scope.cancel()
                        return
                    log.info("received %s", signal.Signals(signum).name)
                    server.stop()

            nursery.start_soon(watch)
            if keep_days is not None and journal.enabled:
                nursery.start_soon(retain, journal, keep_days)

            async def serve_tcp(
                task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
            ) -> None:
                elsewhere = 0 if web is None else web.descriptors(limits)
                await server.serve_listeners(
                    listeners, descriptors_elsewhere=elsewhere, task_status=task_status
                )
                nursery.cancel_scope.cancel()  # the web page stops with the server

            await nursery.start(serve_tcp)
            if web is not None:
                from croupier.protocol.web import serve_web

                # the browsers' frames written by a process of their own (web/relay.py)
                bound = await nursery.start(partial(serve_web, server, web, relay=True))
                for where in exposed(bound):
                    log.warning(
                        "WARNING: the web page on %s:%d is reachable from other machines: "
                        "anyone can watch the tables and use the solvers (README: 'Exposing a "
                        "server')",
                        *where,
                    )


def _literal(host: str) -> bool:
    """Whether ``host`` is an IP address (not a name to resolve)."""
    try:
        ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return host == ""  # every interface
    return True


async def retain(journal: NullJournal, keep_days: float) -> None:
    """Delete what finished more than ``keep_days`` days ago, now and then once a day."""
    while True:
        tables, tournaments = await journal.prune(keep_days)
        if tables or tournaments:
            log.info(
                "journal: deleted %d table(s) and %d tournament(s) finished over %g days ago",
                tables,
                tournaments,
                keep_days,
            )
        await trio.sleep(DAY)
