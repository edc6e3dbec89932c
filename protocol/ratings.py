"""The server's ratings: refit from every rated result in the journal, kept with their history.

A rated result is one tourney of a tournament that was played to its end (``reason``
``played``): its standings hold each bot's score in every tourney. After each such
tournament the server refits the ratings from all of them (:func:`croupier.engine.ratings.fit`,
off the event loop) and appends the fit to the journal's ``ratings`` table; ``leaderboard``
reads the latest fit. Names are the standings' (a strategy entered twice, ``lim17#2``, is
``lim17``: one bot compared with itself counts for nothing).
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from typing import Any

import trio

from croupier.engine import CroupierError
from croupier.engine.ratings import Rating, fit

log = logging.getLogger("croupier.server")

_REPEAT = re.compile(r"#\d+$")


def bot_name(name: str) -> str:
    """The bot a standing's name is (``lim17#2``: ``lim17``)."""
    return _REPEAT.sub("", name)


def results_of(result: dict[str, Any]) -> list[list[tuple[str, float]]]:
    """A tournament result's rated results: per tourney, each bot's ``(name, score)``."""
    standings = result["standings"]
    runs = len(standings[0]["scores"]) if standings else 0
    return [[(bot_name(s["name"]), float(s["scores"][t])) for s in standings] for t in range(runs)]


def rated_results(
    conn: sqlite3.Connection, leave_out: int | None = None
) -> list[list[tuple[str, float]]]:
    """Every rated result the journal holds (but tournament ``leave_out``'s): per tourney
    of each tournament played to its end, each bot's ``(name, score)``."""
    results = []
    for (text,) in conn.execute(
        "SELECT result FROM tournaments WHERE state = 'finished' AND reason = 'played'"
        " AND result IS NOT NULL AND id IS NOT ? ORDER BY id",
        (leave_out,),
    ):
        try:
            results += results_of(json.loads(text))
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # a result this version cannot read is not rated
    return results


def latest(conn: sqlite3.Connection) -> dict[str, Any]:
    """The latest fit: ``{fit, fitted, tournament, bots}`` (``fit`` 0: none yet)."""
    row = conn.execute("SELECT max(fit) FROM ratings").fetchone()
    number = int(row[0] or 0)
    rows = conn.execute(
        "SELECT fitted, tournament_id, name, rating, low, high, games, comparisons"
        " FROM ratings WHERE fit = ? ORDER BY rating DESC, name",
        (number,),
    ).fetchall()
    bots = [
        Rating(name, rating, low, high, games, compared).to_dict()
        for _, _, name, rating, low, high, games, compared in rows
    ]
    return {
        "fit": number,
        "fitted": rows[0][0] if rows else None,
        "tournament": rows[0][1] if rows else None,
        "bots": bots,
    }


def history(conn: sqlite3.Connection, name: str) -> list[dict[str, Any]]:
    """One bot's rating at every fit it was in, oldest first."""
    rows = conn.execute(
        "SELECT fit, fitted, tournament_id, rating, low, high, games FROM ratings"
        " WHERE name = ? ORDER BY fit",
        (name,),
    ).fetchall()
    keys = ("fit", "fitted", "tournament", "rating", "low", "high", "games")
    return [dict(zip(keys, row, strict=True)) for row in rows]


INSERT = (
    "INSERT INTO ratings (fit, fitted, tournament_id, name, rating, low, high, games,"
    " comparisons) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def rows(number: int, tournament: int | None, ratings: list[Rating]) -> list[tuple[Any, ...]]:
    """A fit's rows for :data:`INSERT`."""
    now = time.time()
    return [
        (number, now, tournament, r.name, r.rating, r.low, r.high, r.games, r.comparisons)
        for r in ratings
    ]


async def refit(
    journal: Any,
    tournament: int | None,
    lock: trio.Lock,
    extra: list[list[tuple[str, float]]] = [],  # noqa: B006 - never changed
) -> None:
    """Refit the ratings from every rated result in ``journal`` (and ``extra``: those of
    ``tournament``, not yet recorded finished) and append the fit; one at a time under
    ``lock``. A failure is logged, never raised: ratings are an extra."""
    async with lock:

        def read(conn: sqlite3.Connection) -> tuple[list[list[tuple[str, float]]], int]:
            number = conn.execute("SELECT coalesce(max(fit), 0) + 1 FROM ratings").fetchone()
            return rated_results(conn, tournament), int(number[0])

        try:
            results, number = await journal.read(read)
            results += extra
            ratings = await trio.to_thread.run_sync(fit, results)
        except CroupierError as exc:
            log.warning("ratings not refit: %s", exc)
            return
        for row in rows(number, tournament, ratings):
            journal.writer.put(INSERT, row)
        await journal.durable(patient=True)
    log.info("ratings refit from %d rated results (%d bots)", len(results), len(ratings))
