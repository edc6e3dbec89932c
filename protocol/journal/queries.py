"""Reading the journal: lists with filters and paging, one table or tournament, a table's
events, its log for ``replay``, a scored table's scores, and retention. Plain functions of
a SQLite connection, shared by the server's history methods and ``croupier history --data``
(offline)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from croupier.engine import CroupierError
from croupier.engine.gamelog import LOG_NAME as GAME_LOG_NAME
from croupier.engine.gamelog import LOG_VERSION as GAME_LOG_VERSION
from croupier.protocol.commitment import commitment
from croupier.protocol.journal import scores
from croupier.protocol.journal.packing import Unpacker

STATES = ("waiting", "playing", "finished", "running")
"""``running``: waiting or playing."""
MAX_PAGE = 1000
MAX_OFFSET = 2**62
"""The largest page offset: ``offset + limit`` must stay a SQLite integer (below 2**63);
msgpack carries integers up to 2**64-1."""
_SQLITE_INTS = range(-(2**63), 2**63)


class Missing(CroupierError):
    """The journal has no such table or tournament."""


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _where(game: str | None, state: str | None, since: float | None) -> tuple[str, list[Any]]:
    if state is not None and state not in STATES:
        raise CroupierError(f"unknown state {state!r}; states: {', '.join(STATES)}")
    clauses: list[str] = []
    args: list[Any] = []
    if game is not None:
        clauses.append("game = ?")
        args.append(game)
    if state == "running":
        clauses.append("state != 'finished'")
    elif state is not None:
        clauses.append("state = ?")
        args.append(state)
    if since is not None:
        clauses.append("created >= ?")
        args.append(float(since))  # an integer over 2**63 is no SQLite integer
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args


def _seed(seed: str, salt: str | None, state: str) -> dict[str, Any]:
    """``{seed, salt, commit}`` as anyone may see them: the seed and its salt once finished
    (a live table's seed would give its cards away), the commitment always."""
    shown = state == "finished"
    return {
        "seed": int(seed) if shown else None,
        "salt": salt if shown else None,
        "commit": None if salt is None else commitment(int(seed), salt),
    }


def check_page(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise CroupierError(f"limit must be 1 to {MAX_PAGE}, not {limit}")
    if not 0 <= offset <= MAX_OFFSET:
        raise CroupierError(f"offset must be 0 to 2**62, not {offset}")


# -- tables ----------------------------------------------------------------------------------
_TABLE = (
    "id, game, rule_set, seed, salt, state, reason, played, events, creator, created, started,"
    " finished, result"
)


def _table_summary(conn: sqlite3.Connection, row: tuple[Any, ...]) -> dict[str, Any]:
    (table_id, game, rule_set, seed, salt, state, reason, played, events, creator, *times) = row
    *times, result = times
    seats = conn.execute(
        "SELECT seat, kind, player FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
    ).fetchall()
    if state != "finished":  # events so far (the count is written when it finishes)
        events = _last_event(conn, table_id)
    return {
        "table": table_id,
        "game": game,
        "rule_set": rule_set,
        **_seed(seed, salt, state),
        "state": state,
        "reason": reason,
        "played": played,
        "events": events,
        "creator": creator,
        "created": times[0],
        "started": times[1],
        "finished": times[2],
        "seats": [{"seat": s, "kind": k, "player": p} for s, k, p in seats],
        "result": _json(result),
    }


def _page(
    conn: sqlite3.Connection,
    kind: str,
    columns: str,
    filters: tuple[str | None, str | None, float | None],
    limit: int,
    offset: int,
) -> tuple[int, list[Any]]:
    """How many rows of ``kind`` (tables or tournaments) match, and those of the page,
    newest first."""
    check_page(limit, offset)
    where, args = _where(*filters)
    total = conn.execute(f"SELECT count(*) FROM {kind}{where}", args).fetchone()[0]
    rows = conn.execute(
        f"SELECT {columns} FROM {kind}{where} ORDER BY id DESC LIMIT ? OFFSET ?",
        [*args, limit, offset],
    ).fetchall()
    return int(total), rows


def list_tables(
    conn: sqlite3.Connection,
    game: str | None = None,
    state: str | None = None,
    since: float | None = None,
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any]:
    """``{total, tables}``: the matching tables, newest first, ``limit`` from ``offset``."""
    total, rows = _page(conn, "tables", _TABLE, (game, state, since), limit, offset)
    return {"total": total, "tables": [_table_summary(conn, row) for row in rows]}


def get_table(conn: sqlite3.Connection, table: int) -> dict[str, Any]:
    """One table: its summary, rules, settings and starting chips."""
    row = None
    if table in _SQLITE_INTS:  # no id is beyond them: SQLite would raise
        row = conn.execute(f"SELECT {_TABLE} FROM tables WHERE id = ?", (table,)).fetchone()
    if row is None:
        raise Missing(f"the journal has no table {table}")
    rules, settings, chips = conn.execute(
        "SELECT rules, settings, chips FROM tables WHERE id = ?", (table,)
    ).fetchone()
    found = {
        **_table_summary(conn, row),
        "rules": _json(rules),
        "settings": _json(settings),
        "chips": _json(chips),
    }
    cards = scores.scorecards(conn, table, len(found["seats"]))
    if cards is not None:
        found["scores"] = cards
    return found


def table_scores(
    conn: sqlite3.Connection, table: int, offset: int = 0, limit: int = MAX_PAGE
) -> list[dict[str, Any]]:
    """A scored table's scored decisions in order (round, seat), ``limit`` from
    ``offset``: empty for a table that was not scored."""
    check_page(limit, offset)
    get_table(conn, table)  # an unknown table is an error, not an empty list
    return scores.decision_page(conn, table, offset, limit)


def _last_event(conn: sqlite3.Connection, table: int) -> int:
    """The number of a table's last event written (0: none). Rows are numbered in order, so
    this is the last row's ``last``: one step down the primary key, however long the table
    (``max(last)`` would read every row)."""
    row = conn.execute(
        "SELECT last FROM events WHERE table_id = ? ORDER BY first DESC LIMIT 1", (table,)
    ).fetchone()
    return 0 if row is None else int(row[0])


def _events(conn: sqlite3.Connection, table: int, offset: int, limit: int) -> list[Any]:
    """Events ``offset + 1`` to ``offset + limit`` of a table (fewer at its end).

    The row holding event ``offset + 1`` is found by one step down the primary key, and the
    page is read from there: the cost is the page's, not the offset's (``last > offset``
    would test every row before it, each a look-up of a large row)."""
    start = conn.execute(
        "SELECT first FROM events WHERE table_id = ? AND first <= ? ORDER BY first DESC LIMIT 1",
        (table, offset + 1),
    ).fetchone()
    rows = conn.execute(
        "SELECT first, data FROM events WHERE table_id = ? AND first >= ? AND first <= ?"
        " ORDER BY first",
        (table, 1 if start is None else start[0], offset + limit),
    ).fetchall()
    found: list[Any] = []
    unpacker = Unpacker(conn)
    for first, data in rows:
        events = unpacker.events(data)
        skip = max(0, offset + 1 - first)
        found.extend(events[skip : skip + limit - len(found)])
    return found


def table_events(
    conn: sqlite3.Connection, table: int, offset: int = 0, limit: int = MAX_PAGE
) -> list[dict[str, Any]]:
    """A table's events in order, ``limit`` from ``offset``."""
    check_page(limit, offset)
    get_table(conn, table)  # an unknown table is an error, not an empty list
    return _events(conn, table, offset, limit)


def log_header(conn: sqlite3.Connection, table: int) -> dict[str, Any]:
    """The header line of a table's log, as ``gamelog.replay_game`` reads it: its seed is
    nil until the table finishes (then replayable), its commitment always there."""
    found = get_table(conn, table)
    return {
        "log": GAME_LOG_NAME,
        "version": GAME_LOG_VERSION,
        "game": found["game"],
        "options": found["rules"],
        "seed": found["seed"],
        "salt": found["salt"],
        "commit": found["commit"],
        "chips": found["chips"],
    }


def export_lines(
    conn: sqlite3.Connection, table: int, offset: int = 0, limit: int = MAX_PAGE
) -> dict[str, Any]:
    """``{lines, next}``: lines of a table's JSON-lines log (line 0 is the header), ``limit``
    from ``offset``; ``next`` is the offset of the next page, nil after the last."""
    check_page(limit, offset)
    lines: list[str] = []
    if offset == 0:
        lines.append(json.dumps(log_header(conn, table)))
    else:
        get_table(conn, table)
    want = limit - len(lines)
    events = _events(conn, table, max(offset - 1, 0), want + 1)
    more = len(events) > want
    lines.extend(json.dumps(event) for event in events[:want])
    return {"lines": lines, "next": offset + len(lines) if more else None}


# -- tournaments -----------------------------------------------------------------------------
_TOURNAMENT = (
    "id, game, rule_set, seed, salt, state, reason, done, total, creator, created, started,"
    " finished, entries, result"
)


def _tournament(row: tuple[Any, ...]) -> dict[str, Any]:
    tid, game, rule_set, seed, salt, state, reason, done, total, creator, *times = row
    *times, entries, result = times
    return {
        "tournament": tid,
        "game": game,
        "rule_set": rule_set,
        **_seed(seed, salt, state),
        "state": state,
        "reason": reason,
        "progress": {"done": done, "total": total},
        "creator": creator,
        "created": times[0],
        "started": times[1],
        "finished": times[2],
        "entries": _json(entries),
        "result": _json(result),
    }


def list_tournaments(
    conn: sqlite3.Connection,
    game: str | None = None,
    state: str | None = None,
    since: float | None = None,
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any]:
    """``{total, tournaments}``, newest first; results left out (see ``get_tournament``)."""
    total, rows = _page(conn, "tournaments", _TOURNAMENT, (game, state, since), limit, offset)
    found = [_tournament(row) for row in rows]
    for one in found:
        del one["result"]
    return {"total": total, "tournaments": found}


def get_tournament(conn: sqlite3.Connection, tournament: int) -> dict[str, Any]:
    """One tournament: its summary, rules, settings, entrants and result."""
    row = None
    if tournament in _SQLITE_INTS:  # no id is beyond them: SQLite would raise
        row = conn.execute(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE id = ?", (tournament,)
        ).fetchone()
    if row is None:
        raise Missing(f"the journal has no tournament {tournament}")
    rules, settings, bots = conn.execute(
        "SELECT rules, settings, bots FROM tournaments WHERE id = ?", (tournament,)
    ).fetchone()
    settings = _json(settings)
    settings.pop("seed", None)  # a journal from before commitments kept it there too
    return {**_tournament(row), "rules": _json(rules), "settings": settings, "bots": _json(bots)}


# -- retention -------------------------------------------------------------------------------
def prune(conn: sqlite3.Connection, before: float) -> tuple[int, int]:
    """Delete the tables and tournaments that finished before ``before`` (Unix time), with
    their seats, events and tournament tables, in one transaction; how many of each.
    Running ones stay."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        old = "SELECT id FROM tables WHERE state = 'finished' AND finished < ?"
        conn.execute(f"DELETE FROM events WHERE table_id IN ({old})", (before,))
        conn.execute(f"DELETE FROM seats WHERE table_id IN ({old})", (before,))
        conn.execute(f"DELETE FROM checkpoints WHERE table_id IN ({old})", (before,))
        conn.execute(f"DELETE FROM scores WHERE table_id IN ({old})", (before,))
        conn.execute(f"DELETE FROM score_rounds WHERE table_id IN ({old})", (before,))
        tables = conn.execute(
            "DELETE FROM tables WHERE state = 'finished' AND finished < ?", (before,)
        ).rowcount
        old = "SELECT id FROM tournaments WHERE state = 'finished' AND finished < ?"
        conn.execute(f"DELETE FROM tournament_seats WHERE tournament_id IN ({old})", (before,))
        conn.execute(f"DELETE FROM tournament_tables WHERE tournament_id IN ({old})", (before,))
        tournaments = conn.execute(
            "DELETE FROM tournaments WHERE state = 'finished' AND finished < ?", (before,)
        ).rowcount
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return tables, tournaments
