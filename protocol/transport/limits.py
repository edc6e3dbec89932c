"""Everything a croupier server bounds, in one frozen value (``croupier serve`` sets some).

Every limit a client can run into is listed in docs/protocol.md ("Limits") with its default.
"""

from __future__ import annotations

import attrs

from croupier.protocol.transport.codec import DEFAULT_MAX_MESSAGE_SIZE
from croupier.protocol.transport.session import SessionLimits


@attrs.frozen
class ServerLimits:
    """Everything the server bounds, per connection unless said otherwise."""

    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE
    max_pending: int = 64
    idle_timeout: float | None = 300.0
    send_timeout: float = 30.0
    checkpoint_every: int = 1000
    journal_quota: int = 0
    """Bytes of settled rounds the tables of one address may write to the journal while the
    server runs (0: no bound): past it, its tables finish and it may create no more
    (docs/journal.md). A bound on how fast one client can fill the disk."""
    """Settled rounds between a table's checkpoints in the journal (0: none): a restarted
    server replays at most this many of a table's rounds (docs/journal.md)."""
    hello_timeout: float = 10.0
    """A connection that has not said ``hello`` within this many seconds is closed."""
    max_connections: int = 1024
    """Open connections, server-wide, lowered to what ``ulimit -n`` allows (see
    :func:`~croupier.protocol.transport.admission.connection_cap`). At the cap a newcomer takes the
    slot of the longest-idle connection of the peer holding the most, or is told why and
    closed when no connection is idle."""
    max_connections_per_peer: int = 256
    """Open connections from one peer address; the next one is told why and closed."""
    http_connections: int = 256
    """Open HTTP connections to the web page (``serve --http``), server-wide; at the cap the
    next waits in the listen backlog until one closes. A WebSocket on ``/rpc`` is one of
    these as well as a connection above. Their descriptors are kept back from
    ``max_connections`` when ``ulimit -n`` is the limit."""
    http_connections_per_peer: int = 32
    """Open HTTP connections from one peer address; the next is answered ``503`` and closed."""
    request_rate: float | None = 200.0
    """Tokens a second a connection's request budget refills by (None: no budget). A
    request costs 1 token, or its method's :attr:`~croupier.protocol.transport.methods.Method.cost`;
    a connection out of tokens is not read until it has them again (see
    :mod:`~croupier.protocol.budgets`)."""
    request_burst: float = 400.0
    """Tokens a connection's budget holds at most (what it may spend at once)."""
    address_rate: float | None = 1000.0
    """Tokens a second the budget shared by the connections of one peer address (an IPv6
    /64) refills by (None: no budget). Behind a proxy every client shares its address."""
    address_burst: float = 2000.0
    """Tokens an address's budget holds at most."""
    max_refusing: int = 32
    """Refused or shed connections draining at once so they read why (each holds a
    descriptor: beyond this a refused connection is closed at once, and no connection is
    shed: the newcomer is refused)."""
    max_elements: int = 100_000
    """Arrays, maps and items in one received message (what decoding it costs)."""
    max_buffered: int = 64 << 20
    """Bytes of unfinished messages buffered, server-wide; over it the connection holding
    the most is closed."""
    max_streams: int = 64
    """Open randomizer streams per connection."""
    max_draw: int = 100_000
    """Symbols in one ``randomizer.draw``."""
    max_spec: int = 10_000
    """Characters of the spec text of ``randomizer.open``."""
    randomizer_threads: int = 2
    """Randomizer opens and large draws running at once, server-wide (worker threads)."""
    solver_timeout: float = 60.0
    """Seconds a solve (or a strategy's chart) may run; it is then stopped."""
    solver_threads: int = 2
    """Solves and strategy charts running at once, server-wide (worker processes), at most
    one of them per connection."""
    scoring_workers: int = 1
    """Worker processes valuing scored tables' decisions against their game's oracle,
    server-wide (0: a thread of the server's process, sharing its CPU and GIL with every
    table). A scored blackjack decision costs milliseconds of solving, more than the table
    spends on it, so with a spare core one worker lets a scored table play as fast as an
    unscored one; on a machine without one, the workers' lower priority keeps the tables
    first and the scores come in after."""
    workers_per_peer: int | None = None
    """Solver workers (solves, strategy charts) the connections of one peer address may use
    at once (None: half of them, at least 1), so one client cannot hold every worker."""
    work_queue: int = 1024
    """Jobs waiting for a solver worker (or for a randomizer one), server-wide."""
    work_queue_per_connection: int = 4
    """Jobs of one connection waiting for a solver worker (or a randomizer one)."""
    decision_timeout: float = 10.0
    """Default time limit of a call the server makes to a client (``decide``)."""
    shutdown_grace: float = 5.0
    """Seconds a shutdown gives, in all, to the hands in progress and the requests in
    flight (then every client is told ``shutdown`` and closed)."""
    max_tables: int = 16
    """Open tables, server-wide (``croupier serve --tables``; used by the tables service)."""
    tables_per_connection: int = 4
    """Open tables one connection may have created."""
    tables_per_peer: int | None = None
    """Open tables the connections of one peer address may have created together (None:
    half of ``max_tables``, at least ``tables_per_connection``): one client opening
    connection after connection cannot take every table slot."""
    tournaments_per_connection: int = 1
    """Open tournaments one connection may have started."""
    watchers_per_peer: int = 8
    """Connections from one peer address watching one table (``table.watch``; a seated bot's
    events do not count). Every watcher costs the table's server time each event, so one
    client with many connections could otherwise slow a table for everyone at it."""
    max_rounds: int = 1_000_000
    """Rounds a table may be created for."""
    abandoned_timeout: float = 30.0
    """Seconds a table or tournament whose creator has left, with no bot of its own still
    connected, goes on before it finishes."""

    def peer_tables(self) -> int:
        """The open tables one peer address may have created (see ``tables_per_peer``)."""
        if self.tables_per_peer is not None:
            return self.tables_per_peer
        return max(self.tables_per_connection, self.max_tables // 2)

    def peer_workers(self, workers: int) -> int:
        """Of ``workers``, how many one peer address may use at once (``workers_per_peer``)."""
        if self.workers_per_peer is not None:
            return self.workers_per_peer
        return max(1, workers // 2)

    def session_limits(self) -> SessionLimits:
        return SessionLimits(
            max_message_size=self.max_message_size,
            max_pending=self.max_pending,
            idle_timeout=self.idle_timeout,
            send_timeout=self.send_timeout,
            max_elements=self.max_elements,
        )
