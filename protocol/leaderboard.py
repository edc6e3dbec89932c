"""``leaderboard``: the latest ratings (with their 95% intervals) and, for one bot, its history.

Read from the journal's ``ratings`` table (:mod:`croupier.protocol.ratings`), which the server
appends to after each tournament played to its end. Each line has room for skill figures
measured per decision (``skill``: None until a scoring oracle provides them), so the page
and the CLI show them where they exist and leave the columns out where not.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from croupier.protocol import ratings
from croupier.protocol.methods import Method, Param, Service
from croupier.protocol.server import Connection

SKILL_COLUMNS = ("ev_loss_per_decision", "per_100_rounds", "adjusted_per_100_rounds")
"""The optional per-bot skill figures a line's ``skill`` map may hold."""


def board(conn: sqlite3.Connection, name: str | None = None) -> dict[str, Any]:
    """The leaderboard from a journal connection (the server's, or ``--data`` offline)."""
    found = ratings.latest(conn)
    lines = []
    for bot in found["bots"]:
        above = sum(other["rating"] > bot["rating"] for other in found["bots"])
        tied = sum(other["rating"] == bot["rating"] for other in found["bots"]) > 1
        lines.append({"rank": above + 1, "tied": tied, **bot, "skill": None})
    data = {**found, "bots": lines}
    if name is not None:
        data["history"] = {"name": name, "fits": ratings.history(conn, name)}
    return data


class LeaderboardService(Service):
    """``leaderboard``."""

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "leaderboard",
                (
                    Param(
                        "name",
                        (str, type(None)),
                        None,
                        doc="a bot: its rating at every fit too (nil: none)",
                    ),
                ),
                self.leaderboard,
                "the bots' latest ratings with 95% intervals, refit after each tournament",
                returns="{fit, fitted, tournament, bots: [{rank, tied, name, rating, low, "
                "high, games, comparisons, skill}], history?}",
                watcher=True,
            )
        ]

    async def leaderboard(self, conn: Connection, name: str | None) -> dict[str, Any]:
        result: dict[str, Any] = await conn.server.journal.read(lambda db: board(db, name))
        return result
