"""``table.rejoin`` and ``tournament.rejoin``: a bot takes its seat back with its token.

After a lost connection, or after the server itself was restarted and recovered its tables
and tournaments from the journal (:mod:`croupier.protocol.tablerecovery`,
:mod:`croupier.protocol.tournamentrecovery`), a bot presents the token it got from
``table.join`` / ``tournament.join``. A seat the server has held since it was taken knows
its token; a recovered one knows only the token's SHA-256 (the journal never keeps a
token in clear), so the token is compared by its hash, and then kept again. The seat's
decision time runs as before; while no bot holds it, the seat plays the default.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.keys import same_digest, same_secret
from croupier.protocol.server import Connection
from croupier.protocol.slots import BotSlot, check_auto

if TYPE_CHECKING:
    from croupier.protocol.tablerun import ServerTable
    from croupier.protocol.tournamentrun import ServerTournament

log = logging.getLogger("croupier.tables")


def holds(slot: BotSlot, token: str) -> bool:
    """True when ``token`` is the slot's (compared in constant time, by hash once the
    server has only the hash)."""
    if slot.token is not None:
        return same_secret(token, slot.token)
    if slot.token_sha256 is None:
        return False
    return same_digest(token, slot.token_sha256)


def may_sit(conn: Connection) -> None:
    if conn.role == "watcher":
        raise RpcError(Code.BAD_INPUT, "a watcher cannot take a seat; say hello as a bot")


def table_seat(tables: Iterable[ServerTable], token: str) -> tuple[ServerTable, int]:
    """The open table and seat number ``token`` holds (``bad-token`` if none)."""
    for table in tables:
        if table.state == "finished":
            continue
        for seat in table.seats:
            if holds(seat, token):
                seat.token = token
                return table, seat.index
    raise RpcError(Code.BAD_TOKEN, "no seat has this token")


def rejoin_table(
    tables: Iterable[ServerTable], conn: Connection, token: str, events: bool, auto: list[Any]
) -> tuple[ServerTable, int]:
    """``table.rejoin``: give the seat ``token`` holds back to ``conn``."""
    may_sit(conn)
    table, index = table_seat(tables, token)
    phases = check_auto(auto, table.game)
    seat = table.seats[index - 1]
    if seat.conn is not None and seat.conn is not conn:
        log.info("table %d: seat %d moves from %s to %s", table.id, index, seat.conn, conn)
    seat.conn, seat.bot, seat.auto = conn, conn.client, phases
    table.subscribe(conn, events)
    table.seat_changed()
    log.info("table %d: %s takes seat %d back", table.id, conn, index)
    return table, index


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
