"""A playing tournament as a watcher sees it: the standings after each round (each bot's
mean chips over the runs with its 95% interval), the tables of the round in play, and each
bot's chip curve (its mean chips after every round). :class:`ServerTournament` keeps one
and sends it in every ``tournament.status`` as ``live``; the web page draws it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine.tournament import TableJob, Tournament

MAX_TABLES = 32
"""Tables of the round in play that are listed (the first tourneys'); the rest are counted."""


class LiveView:
    """Fed by ``play_tournament``'s ``started`` hook and by each booked round."""

    def __init__(self, names: Sequence[str], starting_chips: int) -> None:
        self.names = list(names)
        self.tournament: Tournament | None = None
        self.round = 0
        self.tables: list[dict[str, Any]] = []
        self.tables_in_round = 0
        self.standings: list[dict[str, Any]] = []
        self.curves: list[list[float]] = [[float(starting_chips)] for _ in self.names]

    def started(self, tournament: Tournament, jobs: Sequence[TableJob]) -> None:
        """A round's tables start: list them (bots by name, with their chips)."""
        self.tournament = tournament
        self.names = list(tournament.names)
        self.round = tournament.round
        self.tables_in_round = len(jobs)
        self.tables = [
            {
                "tourney": job.tourney,
                "table": job.table,
                "bots": [self.names[b] for b in job.bots],
                "chips": list(job.chips),
            }
            for job in jobs[:MAX_TABLES]
        ]

    def booked(self) -> None:
        """The round's tables are booked: the standings so far and a point on each curve."""
        if self.tournament is None:
            return
        self.tables, self.tables_in_round = [], 0
        lines = self.tournament.standings()
        for line in lines:
            self.curves[line.bot].append(line.mean)
        # the scores (one per run) are left out: a status goes out every round
        self.standings = [
            {k: v for k, v in line.to_dict().items() if k != "scores"} for line in lines
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": self.tables,
            "tables_in_round": self.tables_in_round,
            "standings": self.standings,
            "curves": [
                {"name": name, "chips": curve}
                for name, curve in zip(self.names, self.curves, strict=True)
            ],
        }
