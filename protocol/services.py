"""croupier's :class:`Server`: the transport with the services every server offers, put
together here (the composition root: ``croupier serve`` builds this, through
:func:`~croupier.protocol.running.run_server`). The transport imports no service and no
service imports another, so each service plugs in here and nowhere else.

Methods take plain data and return plain data (msgpack maps, arrays, strings, numbers), so
any msgpack-rpc client can use them; ``docs/protocol.md`` documents each one.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine import PluginManager
from croupier.protocol.discovery import DiscoveryService
from croupier.protocol.handshake import CoreService
from croupier.protocol.history import HistoryService
from croupier.protocol.journal import NullJournal
from croupier.protocol.keyservice import KeyService
from croupier.protocol.leaderboard import LeaderboardService
from croupier.protocol.randomizers import RandomizerService
from croupier.protocol.solving import SolverService
from croupier.protocol.tables import TableService
from croupier.protocol.tournaments import TournamentService
from croupier.protocol.transport.limits import ServerLimits
from croupier.protocol.transport.methods import Service
from croupier.protocol.transport.server import RpcServer


def default_services() -> list[Service]:
    """The services every server offers (the tables service last: tests replace it)."""
    return [
        CoreService(),
        DiscoveryService(),
        RandomizerService(),
        SolverService(),
        HistoryService(),
        KeyService(),
        LeaderboardService(),
        TournamentService(),
        TableService(),
    ]


class Server(RpcServer):
    """croupier's server: the transport
    (:class:`~croupier.protocol.transport.server.RpcServer`) with the default services, or those
    given. This module is where the two meet: the transport
    imports no service, and ``croupier serve`` (:func:`~croupier.protocol.running.run_server`)
    builds this."""

    def __init__(
        self,
        manager: PluginManager,
        *,
        seed: int,
        limits: ServerLimits = ServerLimits(),
        services: Iterable[Service] | None = None,
        first_game_id: int = 1,
        journal: NullJournal | None = None,
        default_game: str | None = None,
        auth: str = "open",
    ) -> None:
        super().__init__(
            manager,
            seed=seed,
            limits=limits,
            services=default_services() if services is None else services,
            first_game_id=first_game_id,
            journal=journal,
            default_game=default_game,
            auth=auth,
        )
