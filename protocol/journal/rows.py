"""How the writer puts rows into SQLite: each parameter as SQLite takes it, and a batch of rows
of one ``INSERT`` as a few multi-row statements, so a batch takes the interpreter lock back a
few times, not once a row."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

Write = tuple[str, tuple[Any, ...]]
"""A queued write: an SQL statement and its parameters."""

MAX_ROWS = 256
"""Rows in one multi-row ``INSERT`` at most (a power of two: statements of a few sizes only,
which the connection's statement cache keeps prepared)."""
MAX_VARIABLES = 999
"""Parameters in one statement at most (SQLite's limit before 3.32; later ones allow more)."""
_VALUES = re.compile(r"(INSERT\b.*\bVALUES\s*)(\(\s*\?(?:\s*,\s*\?)*\s*\))\s*", re.S | re.I)


def execute_rows(conn: sqlite3.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """``sql`` once per row of ``rows``, in order: an ``INSERT ... VALUES (?, ...)`` as a few
    multi-row statements (sizes halving from :data:`MAX_ROWS`), anything else row by row."""
    found = _VALUES.fullmatch(sql)
    if found is None or len(rows) < 2:
        conn.executemany(sql, rows)
        return
    head, one = found.groups()
    most = MAX_ROWS
    while most > 1 and most * one.count("?") > MAX_VARIABLES:
        most //= 2
    done = 0
    while done < len(rows):
        size = most
        while size > len(rows) - done:
            size //= 2
        chunk = rows[done : done + size]
        conn.execute(head + ", ".join([one] * size), [p for row in chunk for p in row])
        done += size


def encode(value: Any) -> Any:
    """A parameter as SQLite takes it: maps and lists as compact JSON, big ints as text."""
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        return str(value)
    return value


BAD_ROW = (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)
"""Errors that a row causes, not the file: retrying would fail for ever (a bug upstream)."""
