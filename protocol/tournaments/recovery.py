"""Crash recovery of tournaments: carry on every unfinished tournament of the journal.

A tournament's tables depend only on its seed and the chips its bots bring to each table,
and the journal keeps every table it finished (``tournament_tables``: the table's job and
result). A restarted server rebuilds the tournament from its settings, entrants and ``tcp``
seats (their tokens by hash) and plays it again with
:func:`~croupier.engine.tournament_run.play_tournament`, told the results it already has
(``known``): those tables are booked as they were, not played, and the tables that had not
finished (a table is booked whole, so the one in progress counts for nothing yet) are dealt
again from their seeds. With bots that answer the same observation the same way (and
strategies do), the standings are exactly those of an uninterrupted run.

A server's stop is not the creator leaving: a tournament whose creator had closed its
connection before the stop (``creator_left`` in the journal) is abandoned
``abandoned_timeout`` after the restart unless one of its ``tcp`` bots is back by then, as
the unbroken server abandons it; one whose creator was connected plays on.

A tournament that was playing waits up to ``join_time`` for its ``tcp`` bots to take their
seats back (``tournament.rejoin``), then plays on; one still waiting for its bots waits
again. Recovered tournaments count against the server's open tournaments; those beyond it,
and any that cannot be rebuilt, are marked finished with the reason.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import trio

from croupier.engine import CroupierError
from croupier.engine.tournament import TournamentConfig
from croupier.protocol.journal.recovery import TournamentRecord, unfinished_tournaments
from croupier.protocol.ownership import Ownership
from croupier.protocol.prepare import prepare_strategies
from croupier.protocol.tournaments.results import result_from_dict
from croupier.protocol.tournaments.run import TCP, ServerTournament
from croupier.protocol.transport.server import RpcServer

if TYPE_CHECKING:
    from croupier.protocol.tournaments.service import TournamentService

log = logging.getLogger("croupier.tournaments")


async def recover_tournaments(service: TournamentService, server: RpcServer, most: int) -> int:
    """Rebuild the journal's unfinished tournaments into ``service`` (at most ``most`` open)
    and set them going; how many."""
    records: list[TournamentRecord] = await server.journal.read(unfinished_tournaments)
    recovered = 0
    for record in records:
        if sum(t.state != "finished" for t in service.tournaments.values()) >= most:
            reason = f"not recovered: the server runs at most {most} open tournaments"
            server.journal.tournament_given_up(record.id, reason)
            log.warning("tournament %d %s", record.id, reason)
            continue
        try:
            found = await rebuild_tournament(server, record)
        except Exception as exc:  # a game no longer installed, settings it refuses
            reason = f"not recovered: {exc}"
            server.journal.tournament_given_up(record.id, reason)
            log.error("tournament %d %s", record.id, reason)
            continue
        service.tournaments[found.id] = found
        recovered += 1
        log.info("tournament %d resumes with %d tables booked", found.id, len(found.known))
        server.spawn(partial(found.run, server.manager), f"tournament {found.id}")
        service.abandon_if_orphaned(found, server)  # as when its creator's connection closed
        await trio.sleep(0)
    return recovered


async def rebuild_tournament(server: RpcServer, record: TournamentRecord) -> ServerTournament:
    """The tournament ``record`` describes, with its finished tables known (not running)."""
    if record.unreadable is not None:
        raise CroupierError(record.unreadable)
    game = server.manager.games.get(record.game)
    settings = dict(record.settings)
    join_time = float(settings.pop("join_time"))
    settings.setdefault("seed", record.seed)  # kept beside its settings, not in them
    config = TournamentConfig.from_dict(settings)
    if config.seed != record.seed or config.game != game.name:
        raise CroupierError("its settings do not match its seed and game")
    names = [bot for bot in record.bots if bot != TCP]
    strategies = await prepare_strategies(server, game, names, config.options)
    found = ServerTournament(
        server,
        record.id,
        config,
        record.rule_set,
        list(record.bots),
        strategies,
        join_time,
        Ownership.recovered(record.key_sha256, present=not record.creator_left),
        None,
        record.salt,
    )
    found.join_key_sha256 = record.join_key_sha256
    for seat in found.tcp:
        if seat.index in record.seats:
            seat.bot, seat.token_sha256 = record.seats[seat.index]
    for data in record.tables:
        result = result_from_dict(data)
        job = result.job
        found.known[(job.tourney, job.round, job.table)] = result
    found.recorded = len(record.tables)
    found.recovered = record.state == "playing"
    found.seat_changed()
    return found
