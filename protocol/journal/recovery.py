"""Reading what a restarted server must carry on: the unfinished tables and tournaments.

Plain functions of a SQLite connection (run in the journal's writer thread), returning plain
data: a table's settings, seed, seats (with their tokens' hashes) and its settled rounds in
order (each round's events and the chips after it); a tournament's settings, entries, seats
and the tables it finished (job and result, in the order they finished). Every relation is
read in one query, so a journal of ten thousand tables is read in a few statements.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

import attrs

UNFINISHED = "state != 'finished'"


@attrs.frozen
class SettledRound:
    """One settled round as the journal holds it: its number, events and every seat's chips."""

    round: int
    events: list[dict[str, Any]]
    chips: list[int]


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
    chips: list[int]
    settings: dict[str, Any]
    creator: str | None
    state: str
    key_sha256: str | None
    seats: list[SeatRow]
    rounds: list[SettledRound]
    last_event: int
    """The number of the last event written (its next event is numbered after it)."""


@attrs.frozen
class TournamentRecord:
    """An unfinished tournament: its settings, entrants, ``tcp`` seats and finished tables."""

    id: int
    game: str
    rule_set: str | None
    rules: dict[str, Any]
    seed: int
    settings: dict[str, Any]
    bots: list[str]
    creator: str | None
    state: str
    key_sha256: str | None
    join_key_sha256: str | None
    seats: dict[int, tuple[str | None, str | None]]
    """Per ``tcp`` entry taken: the bot's name and its token's hash."""
    tables: list[dict[str, Any]]
    """Its finished tables in the order they finished: ``{"job": ..., **result}``."""


def unfinished_tables(conn: sqlite3.Connection) -> list[TableRecord]:
    """Every table not finished, oldest first, with its seats and settled rounds."""
    rows = conn.execute(
        "SELECT id, game, rule_set, rules, seed, chips, settings, creator, state, key_sha256"
        f" FROM tables WHERE {UNFINISHED} ORDER BY id"
    ).fetchall()
    if not rows:
        return []
    seats: dict[int, list[SeatRow]] = defaultdict(list)
    for table_id, seat, kind, player, token in conn.execute(
        "SELECT table_id, seat, kind, player, token_sha256 FROM seats WHERE table_id IN"
        f" (SELECT id FROM tables WHERE {UNFINISHED}) ORDER BY table_id, seat"
    ):
        seats[table_id].append(SeatRow(seat, kind, player, token))
    rounds: dict[int, list[SettledRound]] = defaultdict(list)
    last: dict[int, int] = defaultdict(int)
    for table_id, last_event, round_, chips, data in conn.execute(
        "SELECT table_id, last, round, chips, data FROM events WHERE table_id IN"
        f" (SELECT id FROM tables WHERE {UNFINISHED}) ORDER BY table_id, first"
    ):
        last[table_id] = max(last[table_id], last_event)
        if round_ is not None:
            rounds[table_id].append(SettledRound(round_, json.loads(data), json.loads(chips)))
    return [
        TableRecord(
            id=table_id,
            game=game,
            rule_set=rule_set,
            rules=json.loads(rules),
            seed=int(seed),
            chips=json.loads(chips),
            settings=json.loads(settings),
            creator=creator,
            state=state,
            key_sha256=key,
            seats=seats[table_id],
            rounds=rounds[table_id],
            last_event=last[table_id],
        )
        for table_id, game, rule_set, rules, seed, chips, settings, creator, state, key in rows
    ]


def unfinished_tournaments(conn: sqlite3.Connection) -> list[TournamentRecord]:
    """Every tournament not finished, oldest first, with its seats and finished tables."""
    rows = conn.execute(
        "SELECT id, game, rule_set, rules, seed, settings, bots, creator, state, key_sha256,"
        f" join_key_sha256 FROM tournaments WHERE {UNFINISHED} ORDER BY id"
    ).fetchall()
    found = []
    for tid, game, rule_set, rules, seed, settings, bots, creator, state, key, join in rows:
        seats = {
            entry: (player, token)
            for entry, player, token in conn.execute(
                "SELECT entry, player, token_sha256 FROM tournament_seats"
                " WHERE tournament_id = ? ORDER BY entry",
                (tid,),
            )
        }
        tables = [
            {"job": json.loads(job), **json.loads(result)}
            for job, result in conn.execute(
                "SELECT job, result FROM tournament_tables WHERE tournament_id = ?"
                " ORDER BY position",
                (tid,),
            )
        ]
        found.append(
            TournamentRecord(
                id=tid,
                game=game,
                rule_set=rule_set,
                rules=json.loads(rules),
                seed=int(seed),
                settings=json.loads(settings),
                bots=json.loads(bots),
                creator=creator,
                state=state,
                key_sha256=key,
                join_key_sha256=join,
                seats=seats,
                tables=tables,
            )
        )
    return found
