"""``tournament.rejoin``: a bot takes its ``tcp`` seat back with its token, after a lost
connection or a restart that carried the tournament on from the journal (the token is then
compared by hash: :func:`croupier.protocol.slots.holds`). While no bot holds the seat, it
plays the default.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.slots import check_auto, holds, may_sit
from croupier.protocol.tournaments.run import ServerTournament
from croupier.protocol.transport.server import Connection

log = logging.getLogger("croupier.tournaments")


def rejoin_tournament(
    tournaments: Iterable[ServerTournament], conn: Connection, token: str, auto: list[Any]
) -> dict[str, Any]:
    """``tournament.rejoin``: give the ``tcp`` seat ``token`` holds back to ``conn``."""
    may_sit(conn)
    for found in tournaments:
        if found.state == "finished":
            continue
        for seat in found.tcp:
            if holds(seat, token):
                game = conn.server.manager.games.get(found.config.game)
                seat.auto = check_auto(auto, game)
                seat.token, seat.conn = token, conn
                seat.bot = seat.bot or conn.client
                found.subscribe(conn)
                found.seat_changed()
                log.info("tournament %d: %s takes entry %d back", found.id, conn, seat.index)
                return {
                    "tournament": found.id,
                    "entry": seat.index,
                    "token": token,
                    "info": found.info(),
                }
    raise RpcError(Code.BAD_TOKEN, "no tournament seat has this token")
