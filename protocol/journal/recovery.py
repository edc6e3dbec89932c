"""Reading what a restarted server must carry on: the unfinished tables and tournaments.

Plain functions of a SQLite connection (run in the journal's writer thread), returning plain
data: a table's settings, seed and seats (with their tokens' hashes), then its settled
rounds in order a page at a time (each round's events and the chips after it); a
tournament's settings, entries, seats and the tables it finished (job and result, in the
order they finished). Every relation but the rounds is read in one query, so a journal of
ten thousand tables is read in a few statements; the rounds are read by pages down the
events' primary key, so a table of a million rounds is replayed in the memory of a page;
a table's latest checkpoint and the row of the round it follows are one lookup each.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

import attrs

from croupier.protocol.journal.packing import Unpacker

UNFINISHED = "state != 'finished'"
"""The where of the partial indexes of unfinished tables and tournaments (schema 13): a query
must say it exactly for SQLite to use them, not scan every finished row the journal keeps."""


@attrs.frozen
class SettledRound:
    """One settled round as the journal holds it: its number, events and every seat's chips
    (``first``: the number of its first event, where the next page starts after)."""

    round: int
    events: list[dict[str, Any]]
    chips: list[int]
    first: int = 0


@attrs.frozen
class SeatRow:
    seat: int
    kind: str
    player: str | None
    token_sha256: str | None


@attrs.frozen
class TableRecord:
    """An unfinished table: what it was made with and the rounds it settled."""

    id: int
    game: str
    rule_set: str | None
    rules: dict[str, Any]
    seed: int
    salt: str
    """The salt of its seed's commitment (the commitment never changes on a restart)."""
    chips: list[int]
    settings: dict[str, Any]
    creator: str | None
    state: str
    key_sha256: str | None
    creator_left: bool
    """Its creator had closed its connection before the server stopped (a crash or a stop
    of the server is not its creator leaving)."""
    seats: list[SeatRow]
    last_event: int
    """The number of the last event written (its next event is numbered after it)."""
    last_round: int
    """The number of its last settled round (0: none; :func:`settled_rounds` reads them)."""
    unreadable: str | None = None
    """Why its row cannot be read (bad JSON, a seed that is no number), or None: such a
    table is given up with that reason, never the server's start."""


def settled_rounds(
    conn: sqlite3.Connection, table: int, after: int, limit: int
) -> list[SettledRound]:
    """Up to ``limit`` of ``table``'s settled rounds in order, from the first whose first
    event comes after event ``after`` (0: from the start). A row may hold a block of rounds
    (schema 7): the read starts at the row holding event ``after``, one step down the
    primary key."""
    unpacker = Unpacker(conn)
    found: list[SettledRound] = []
    start = conn.execute(
        "SELECT first FROM events WHERE table_id = ? AND first <= ? ORDER BY first DESC LIMIT 1",
        (table, after),
    ).fetchone()
    for first, round_, chips, data in conn.execute(
        "SELECT first, round, chips, data FROM events WHERE table_id = ? AND first >= ?"
        " AND round IS NOT NULL ORDER BY first LIMIT ?",
        (table, 0 if start is None else start[0], limit + 1),
    ):
        for number, events, got in unpacker.rounds(data, chips, round_):
            if first > after and number is not None:
                found.append(SettledRound(number, events, got or [], first))
                if len(found) == limit:
                    return found
            first += len(events)
    return found


@attrs.frozen
class Checkpoint:
    """A table's latest checkpoint as the journal holds it (``data``: JSON text)."""

    round: int
    last: int
    digest: str
    data: str


def table_checkpoint(conn: sqlite3.Connection, table: int) -> Checkpoint | None:
    """``table``'s latest checkpoint, or None."""
    row = conn.execute(
        "SELECT round, last, digest, data FROM checkpoints WHERE table_id = ?", (table,)
    ).fetchone()
    return None if row is None else Checkpoint(*row)


def round_holding(conn: sqlite3.Connection, table: int, event: int) -> SettledRound | None:
    """The settled round of ``table`` whose last event is number ``event``, or None (one step
    down the events' primary key to the row holding it, then its rounds)."""
    row = conn.execute(
        "SELECT first, last, round, chips, data FROM events WHERE table_id = ? AND first <= ?"
        " ORDER BY first DESC LIMIT 1",
        (table, event),
    ).fetchone()
    if row is None or row[1] < event or row[2] is None:
        return None
    first, _, round_, chips, data = row
    for number, events, got in Unpacker(conn).rounds(data, chips, round_):
        if first + len(events) - 1 == event:
            return None if number is None else SettledRound(number, [], got or [], first)
        first += len(events)
    return None


@attrs.frozen
class TournamentRecord:
    """An unfinished tournament: its settings, entrants, ``tcp`` seats and finished tables."""

    id: int
    game: str
    rule_set: str | None
    rules: dict[str, Any]
    seed: int
    salt: str
    settings: dict[str, Any]
    bots: list[str]
    creator: str | None
    state: str
    key_sha256: str | None
    join_key_sha256: str | None
    creator_left: bool
    """Its creator had closed its connection before the server stopped (as
    :attr:`TableRecord.creator_left`)."""
    seats: dict[int, tuple[str | None, str | None]]
    """Per ``tcp`` entry taken: the bot's name and its token's hash."""
    tables: list[dict[str, Any]]
    """Its finished tables in the order they finished: ``{"job": ..., **result}``."""
    unreadable: str | None = None
    """Why its rows cannot be read, or None (see :attr:`TableRecord.unreadable`)."""


def _unreadable(what: str, exc: Exception) -> str:
    return f"its {what} cannot be read from the journal ({type(exc).__name__}: {exc})"


def unfinished_tables(conn: sqlite3.Connection) -> list[TableRecord]:
    """Every table not finished, oldest first, with its seats and its last settled round."""
    rows = conn.execute(
        "SELECT id, game, rule_set, rules, seed, salt, chips, settings, creator, state,"
        f" key_sha256, creator_left FROM tables WHERE {UNFINISHED} ORDER BY id"
    ).fetchall()
    if not rows:
        return []
    seats: dict[int, list[SeatRow]] = defaultdict(list)
    for table_id, seat, kind, player, token in conn.execute(
        "SELECT table_id, seat, kind, player, token_sha256 FROM seats WHERE table_id IN"
        f" (SELECT id FROM tables WHERE {UNFINISHED}) ORDER BY table_id, seat"
    ):
        seats[table_id].append(SeatRow(seat, kind, player, token))
    last: dict[int, tuple[int, int]] = {}
    # one step down the primary key per table, for its last row and its last settled one
    for table_id, last_event, round_ in conn.execute(
        "SELECT id,"
        " (SELECT last FROM events WHERE table_id = t.id ORDER BY first DESC LIMIT 1),"
        " (SELECT round FROM events WHERE table_id = t.id AND round IS NOT NULL"
        "  ORDER BY first DESC LIMIT 1)"
        f" FROM tables AS t WHERE {UNFINISHED}"
    ):
        last[table_id] = (last_event or 0, round_ or 0)
    found = []
    for row in rows:
        (table_id, game, rule_set, rules, seed, salt, chips, settings, creator, state) = row[:10]
        key, left = row[10:]
        last_event, last_round = last.get(table_id, (0, 0))
        record = TableRecord(
            id=table_id,
            game=game,
            rule_set=rule_set,
            rules={},
            seed=0,
            salt=salt,
            chips=[],
            settings={},
            creator=creator,
            state=state,
            key_sha256=key,
            creator_left=left is not None,
            seats=seats[table_id],
            last_event=last_event,
            last_round=last_round,
        )
        try:  # one bad row gives up its table, not the server's start
            record = attrs.evolve(
                record,
                rules=_json(rules, dict),
                seed=int(seed),
                chips=_json(chips, list),
                settings=_json(settings, dict),
            )
        except (ValueError, TypeError) as exc:
            record = attrs.evolve(record, unreadable=_unreadable("row", exc))
        found.append(record)
    return found


def _json(text: Any, kind: type) -> Any:
    """``text`` parsed as JSON, which must give a ``kind`` (ValueError otherwise)."""
    value = json.loads(text)
    if not isinstance(value, kind):
        raise ValueError(f"{kind.__name__} expected, found {type(value).__name__}")
    return value


def unfinished_tournaments(conn: sqlite3.Connection) -> list[TournamentRecord]:
    """Every tournament not finished, oldest first, with its seats and finished tables."""
    rows = conn.execute(
        "SELECT id, game, rule_set, rules, seed, salt, settings, bots, creator, state,"
        f" key_sha256, join_key_sha256, creator_left FROM tournaments WHERE {UNFINISHED}"
        " ORDER BY id"
    ).fetchall()
    found = []
    for row in rows:
        tid, game, rule_set, rules, seed, salt, settings, bots, creator, state = row[:10]
        key, join, left = row[10:]
        seats = {
            entry: (player, token)
            for entry, player, token in conn.execute(
                "SELECT entry, player, token_sha256 FROM tournament_seats"
                " WHERE tournament_id = ? ORDER BY entry",
                (tid,),
            )
        }
        record = TournamentRecord(
            id=tid,
            game=game,
            rule_set=rule_set,
            rules={},
            seed=0,
            salt=salt,
            settings={},
            bots=[],
            creator=creator,
            state=state,
            key_sha256=key,
            join_key_sha256=join,
            creator_left=left is not None,
            seats=seats,
            tables=[],
        )
        try:  # one bad row gives up its tournament, not the server's start
            tables = [
                {"job": _json(job, dict), **_json(result, dict)}
                for job, result in conn.execute(
                    "SELECT job, result FROM tournament_tables WHERE tournament_id = ?"
                    " ORDER BY position",
                    (tid,),
                )
            ]
            record = attrs.evolve(
                record,
                rules=_json(rules, dict),
                seed=int(seed),
                settings=_json(settings, dict),
                bots=_json(bots, list),
                tables=tables,
            )
        except (ValueError, TypeError) as exc:
            record = attrs.evolve(record, unreadable=_unreadable("rows", exc))
        found.append(record)
    return found
