"""``leaderboard``: the latest ratings (with their 95% intervals) and, for one bot, its history.

Read from the journal's ``ratings`` table (:mod:`croupier.protocol.ratings`), which the server
appends to after each tournament played to its end. Each line's ``skill`` holds the figures
scored per decision against the game's oracle (:mod:`croupier.engine.scoring`), pooled over
the bot's scored tournaments, or None where none was scored; the page and the CLI show the
columns where some bot has them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from croupier.protocol import ratings
from croupier.protocol.costliest import costliest
from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection

SKILL_COLUMNS = ("ev_loss_per_decision", "per_100_rounds", "adjusted_per_100_rounds")
"""The per-bot skill figures a line's ``skill`` map holds (None: the bot was in no scored
tournament)."""


def skills(conn: sqlite3.Connection) -> dict[str, dict[str, Any]]:
    """Per bot, its skill figures over every scored tournament in the journal (those whose
    result holds ``scores``, the scorecards of :mod:`croupier.engine.scoring`): the mean EV
    loss per decision and the plain and luck-adjusted results per 100 rounds, each pooled
    over its decisions or rounds (a mean of means weighted by their counts is the mean)."""
    sums: dict[str, list[float]] = {}
    for (text,) in conn.execute(
        "SELECT result FROM tournaments WHERE state = 'finished' AND result IS NOT NULL ORDER BY id"
    ):
        try:
            result = json.loads(text)
            if "scores" not in result:
                continue  # not scored
            for name, card in zip(result["bots"], result["scores"], strict=True):
                d, r = int(card["decisions"]), int(card["rounds"])
                acc = sums.setdefault(ratings.bot_name(name), [0.0] * 5)
                acc[0] += d
                acc[1] += d * float(card["loss_per_decision"][0]) if d else 0.0
                acc[2] += r
                acc[3] += r * float(card["plain_per_round"][0]) if r else 0.0
                acc[4] += r * float(card["adjusted_per_round"][0]) if r else 0.0
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # a result this version cannot read shows no figures
    figures = {}
    for name, (decided, loss, played, plain, adjusted) in sums.items():
        figures[name] = {
            "decisions": int(decided),
            "rounds": int(played),
            "ev_loss_per_decision": loss / decided if decided else None,
            "per_100_rounds": 100 * plain / played if played else None,
            "adjusted_per_100_rounds": 100 * adjusted / played if played else None,
        }
    return figures


_UNMEASURED: dict[str, Any] = {
    "decisions": 0,
    "rounds": 0,
    **{column: None for column in SKILL_COLUMNS},
}
"""The figures of a bot scored only at server tables (they pool its tournaments')."""


def board(conn: sqlite3.Connection, name: str | None = None) -> dict[str, Any]:
    """The leaderboard from a journal connection (the server's, or ``--data`` offline)."""
    found = ratings.latest(conn)
    measured = skills(conn)
    worst = costliest(conn)
    lines = []
    for bot in found["bots"]:
        above = sum(other["rating"] > bot["rating"] for other in found["bots"])
        tied = sum(other["rating"] == bot["rating"] for other in found["bots"]) > 1
        skill = measured.get(bot["name"])
        if bot["name"] in worst:
            skill = {**(skill or _UNMEASURED), "costliest": worst[bot["name"]]}
        lines.append({"rank": above + 1, "tied": tied, **bot, "skill": skill})
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
                "high, games, comparisons, skill: {decisions, rounds, ev_loss_per_decision, "
                "per_100_rounds, adjusted_per_100_rounds, costliest?}}], history?}",
                watcher=True,
            )
        ]

    async def leaderboard(self, conn: Connection, name: str | None) -> dict[str, Any]:
        result: dict[str, Any] = await conn.server.journal.read(lambda db: board(db, name))
        return result
