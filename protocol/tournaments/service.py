"""The tournaments service: a King-of-the-Hill tournament played on the server, its ``tcp``
seats filled by bots connected to it.

``tournament.start`` takes the entrants (built-in strategy names and ``"tcp"`` seats) and
the settings of ``croupier tournament``; TCP bots take the ``tcp`` seats with
``tournament.join`` and play through the ordinary ``decide`` calls; the tournament starts
when every ``tcp`` seat is taken (or is cancelled after ``join_time`` seconds), plays with
the engine's :func:`~croupier.engine.tournament_run.play_tournament` in the server's loop,
and reports its progress and its result (the local tournament's result, as data) in
``tournament.status`` notifications. ``docs/tournament.md`` has the full story.

``tournament.start``'s checks are :mod:`.start`; a tournament as it plays is :mod:`.run`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial
from typing import Any

import trio

from croupier.engine.tournament import HANDS, MAX_FAULTS, ROUNDS, TOURNEYS
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.ownership import is_operator
from croupier.protocol.slots import check_auto
from croupier.protocol.tournaments.recovery import recover_tournaments
from croupier.protocol.tournaments.rejoin import rejoin_tournament
from croupier.protocol.tournaments.run import ServerTournament
from croupier.protocol.tournaments.start import MAX_OPEN, start_tournament
from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection, RpcServer

log = logging.getLogger("croupier.tournaments")


class TournamentService(Service):
    """Tournaments on the server (see the module docstring)."""

    def __init__(self) -> None:
        self.tournaments: dict[int, ServerTournament] = {}
        self._recovered = 0

    def methods(self) -> Iterable[Method]:
        tournament = Param("tournament", (int,), doc="a tournament id")
        auto = Param("auto", (list,), [], doc="phases the server answers with the default")
        key = Param(
            "key", (str, type(None)), None, doc="its key (tournament.start) or the operator's"
        )
        return [
            Method(
                "tournament.start",
                (
                    Param("bots", (list,), doc="per entry: a strategy name or 'tcp'"),
                    Param("seed", (int, type(None)), None, doc="nil: the server draws"),
                    Param("tourneys", (int,), TOURNEYS, doc="independent runs"),
                    Param("rounds", (int,), ROUNDS, doc="rounds per run"),
                    Param("hands", (int,), HANDS, doc="hands per round"),
                    Param("decision_time", (float,), 2.0, doc="seconds per answer"),
                    Param("max_faults", (int,), MAX_FAULTS, doc="faults per run; 0: never DQ"),
                    Param("join_time", (float,), 60.0, doc="seconds the tcp seats may take"),
                    Param(
                        "rules",
                        (str, type(None)),
                        None,
                        doc="a rule set name; nil: koth, or another game's defaults",
                    ),
                    Param("options", (dict,), {}, doc="rule options to override"),
                    Param(
                        "game",
                        (str, type(None)),
                        None,
                        doc="the game (see the games method); nil: the server's default game",
                    ),
                    Param("open", (bool,), False, doc="true: any bot may take a tcp seat"),
                    Param(
                        "format",
                        (str,),
                        "koth",
                        doc="koth, or duplicate: every bot the same cards, seats rotated",
                    ),
                    Param(
                        "operator_key",
                        (str, type(None)),
                        None,
                        doc="the operator key: lets a tournament with tcp seats take a seed",
                    ),
                    Param(
                        "scored",
                        (bool,),
                        False,
                        doc="score every decision against the game's oracle (each bot's "
                        "scorecard in the result and the standings)",
                    ),
                    Param(
                        "score_bets",
                        (bool,),
                        False,
                        doc="scored, value bets too by the exact edge of their round where "
                        "that is dear (blackjack: a whole solve per round)",
                    ),
                ),
                partial(start_tournament, self),
                "start a tournament (it waits for its tcp bots; it belongs to this "
                "connection); the caller gets its status",
                returns="tournament info, its key and its join_key",
                durable=True,
            ),
            Method(
                "tournament.stop",
                (tournament, key),
                self.stop,
                "finish a tournament once the tables in play are done, with the standings so "
                "far (its creator, or with its key or the operator key)",
                returns="tournament info",
                quick=True,
                durable=True,
            ),
            Method(
                "tournament.join",
                (
                    tournament,
                    auto,
                    Param("key", (str, type(None)), None, doc="the join key (nil: an open one)"),
                ),
                self.join,
                "take a free tcp seat; this connection then answers its decide calls",
                returns="{tournament, entry, token, info}",
                quick=True,
                durable=True,
            ),
            Method(
                "tournament.rejoin",
                (Param("token", (str,), doc="a token from tournament.join"), auto),
                self.rejoin,
                "take a tcp seat back with its token (after a reconnection)",
                returns="{tournament, entry, token, info}",
                quick=True,
                durable=True,
            ),
            Method(
                "tournament.watch",
                (tournament,),
                self.watch,
                "receive a tournament's status (start, every round, the result)",
                returns="tournament info",
                quick=True,
                watcher=True,
            ),
            Method(
                "tournament.info",
                (tournament,),
                self.info,
                "one tournament",
                "info",
                quick=True,
                watcher=True,
            ),
            Method(
                "tournament.list",
                (),
                self.list_all,
                "every tournament",
                "[info]",
                quick=True,
                watcher=True,
            ),
            Method(
                "tournament.seed",
                (tournament, Param("key", (str, type(None)), None, doc="the operator key")),
                self.reveal_seed,
                "a tournament's seed and salt: anyone's once it finished, the operator key's "
                "before",
                returns="{tournament, seed, salt, commit}",
                quick=True,
                watcher=True,
            ),
        ]

    def _get(self, tournament_id: int) -> ServerTournament:
        found = self.tournaments.get(tournament_id)
        if found is None:
            raise RpcError(Code.UNKNOWN_NAME, f"no tournament {tournament_id}")
        return found

    async def join(
        self, conn: Connection, tournament: int, auto: list[Any], key: str | None
    ) -> dict[str, Any]:
        if conn.role == "watcher":
            raise RpcError(Code.BAD_INPUT, "a watcher cannot take a seat; say hello as a bot")
        found = self._get(tournament)
        phases = check_auto(auto, conn.server.manager.games.get(found.config.game))
        if not found.may_join(key):
            raise RpcError(
                Code.NOT_ALLOWED,
                f"tournament {tournament} is not open: a tcp seat needs the join key its "
                "creator got from tournament.start",
            )
        if found.state != "waiting":
            raise RpcError(Code.BAD_INPUT, f"tournament {tournament} is {found.state}")
        free = [seat for seat in found.tcp if not seat.held]
        if not free:
            raise RpcError(Code.SEAT_TAKEN, f"tournament {tournament} has no free tcp seat")
        token = found.take(free[0], conn, phases)
        log.info("tournament %d: %s takes entry %d", tournament, conn, free[0].index)
        return {
            "tournament": found.id,
            "entry": free[0].index,
            "token": token,
            "info": found.info(),
        }

    async def rejoin(self, conn: Connection, token: str, auto: list[Any]) -> dict[str, Any]:
        return rejoin_tournament(self.tournaments.values(), conn, token, auto)

    async def watch(self, conn: Connection, tournament: int) -> dict[str, Any]:
        found = self._get(tournament)
        if found.state != "finished":
            found.subscribe(conn)
        return found.info()

    async def info(self, conn: Connection, tournament: int) -> dict[str, Any]:
        return self._get(tournament).info()

    async def list_all(self, conn: Connection) -> list[dict[str, Any]]:
        return [t.info() for t in self.tournaments.values()]

    async def reveal_seed(
        self, conn: Connection, tournament: int, key: str | None
    ) -> dict[str, Any]:
        found = self._get(tournament)
        if not found.revealed and not is_operator(conn, key):
            raise RpcError(
                Code.NOT_ALLOWED,
                f"tournament {tournament} is {found.state}: its seed is shown once it "
                "finishes (before, only to the operator key)",
            )
        return {"tournament": found.id, **found.commitment.public(True)}

    async def stop(self, conn: Connection, tournament: int, key: str | None) -> dict[str, Any]:
        found = self._get(tournament)
        found.owner.check(conn, key, f"tournament {tournament}", "stop")
        if found.state != "finished":
            who = "its creator" if conn.id == found.owner.conn_id else str(conn)
            log.info("tournament %d stopped by %s", tournament, who)
            found.stop(f"stopped by {who}")
            await found.done.wait()
        return found.info()

    async def prepare_recovery(self, server: RpcServer) -> None:
        """Carry on the journal's unfinished tournaments
        (:mod:`croupier.protocol.tournaments.recovery`) before the server accepts anyone:
        quick, as their finished tables are booked, not replayed (no ``recovering``)."""
        self._recovered = await recover_tournaments(self, server, MAX_OPEN)

    async def recover(self, server: RpcServer) -> dict[str, int]:
        return {"tournaments": self._recovered}

    async def connection_closed(self, connection: Connection) -> None:
        server = connection.server
        for found in self.tournaments.values():
            found.unsubscribe(connection)  # ends its pump task, which would wait for ever
            if found.owner.conn_id == connection.id and found.owner.present:
                found.owner.present = False
                if not server.stopping and found.state != "finished":  # the creator left
                    server.journal.tournament_creator_left(found.id)
            for seat in found.tcp:
                if seat.conn is connection:
                    seat.conn = None
            self.abandon_if_orphaned(found, server)

    @staticmethod
    def abandon_if_orphaned(found: ServerTournament, server: RpcServer) -> None:
        """Stop ``found`` ``abandoned_timeout`` seconds from now if its creator has left and
        none of its ``tcp`` bots is connected then (the same for a tournament recovered
        after a restart: the journal keeps whether its creator had left)."""
        if found.orphaned() and not found.abandon_pending:
            found.abandon_pending = True
            wait = partial(found.end_if_abandoned, server.limits.abandoned_timeout)
            server.spawn(wait, f"tournament {found.id} abandoned?")

    async def shutdown(self) -> None:
        """Stop every open tournament (it finishes without a result) and tell its watchers."""
        open_ = [t for t in self.tournaments.values() if t.state != "finished"]
        for found in open_:
            found.resume_later = found.server.resumes  # left unfinished in the journal
            found.scope.cancel()
        for found in open_:
            await found.done.wait()
        with trio.move_on_after(2.0):
            for found in open_:
                for sub in list(found.subscribers.values()):
                    await sub.flushed()
