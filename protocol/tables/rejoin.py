"""A seat found by its token (``table.leave``) and taken back with it (``table.rejoin``),
after a lost connection or a restart that rebuilt the table from the journal (the token is
then compared by hash: :func:`croupier.protocol.slots.holds`). The seat's decision time
runs as before; while no bot holds it, the seat plays the default.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.slots import check_auto, holds, may_sit
from croupier.protocol.tables.run import ServerTable
from croupier.protocol.transport.server import Connection

log = logging.getLogger("croupier.tables")


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
