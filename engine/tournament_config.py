"""A tournament's settings: the game and its options, the seed and the schedule (runs,
rounds, hands, table size, decision time, faults, format), checked when made, and the
defaults of each (the module :mod:`croupier.engine.tournament` says what they mean)."""

from __future__ import annotations

from typing import Any

import attrs

from croupier.engine.decisions import DECISION_TIME
from croupier.engine.errors import CroupierError
from croupier.engine.games import Game, Plain

TOURNEYS = 10
ROUNDS = 50
HANDS = 5
TABLE_SIZE = 4
MAX_FAULTS = 10
"""Defaults: runs, rounds per run, hands per round, bots per table, faults per run before a
bot is disqualified."""


FORMATS = ("koth", "duplicate")
"""King of the Hill (every table its own cards) or duplicate deals (every bot the same)."""


MAX_TOURNEYS = 10_000
"""Runs of one tournament: they are played side by side, a round at a time."""


@attrs.frozen
class TournamentConfig:
    """Everything that fixes a tournament's outcome, with the bots' play: the game and its
    complete options (``game.rules()``), the seed and the schedule."""

    game: str
    options: dict[str, Any]
    seed: int
    tourneys: int = TOURNEYS
    rounds: int = ROUNDS
    hands: int = HANDS
    table_size: int = TABLE_SIZE
    decision_time: float = DECISION_TIME
    max_faults: int = MAX_FAULTS
    min_chips: int = 1
    """The chips a seat needs to play a round (the game's ``seat_minimum``): a bot with
    fewer has left its run."""
    format: str = "koth"
    """``koth`` or ``duplicate`` (see the module)."""
    scored: bool = False
    """Every decision is scored against the game's oracle (EV loss, luck-adjusted results:
    :mod:`croupier.engine.scoring`); the game must have one."""
    score_bets: bool = False
    """Scored, bets too are valued by the exact edge of their round where the oracle
    prices that dearly (blackjack: a whole solve per round)."""

    @classmethod
    def of(cls, game: Game, options: Plain, seed: int, **settings: Any) -> TournamentConfig:
        """A tournament of ``game`` under complete ``options``: the seat minimum from the
        game, and tables of at most 4 (or the game's most seats)."""
        settings.setdefault("table_size", min(TABLE_SIZE, game.max_seats))
        return cls(game.name, dict(options), seed, min_chips=game.seat_minimum(options), **settings)

    @property
    def starting_chips(self) -> int:
        return int(self.options["starting_chips"])

    @property
    def min_bet(self) -> int:
        return self.min_chips

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.game, str) or not isinstance(self.options, dict):
            raise CroupierError("a tournament has a game and its options")
        for field, low in (("tourneys", 1), ("rounds", 1), ("hands", 1), ("max_faults", 0)):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise CroupierError(f"a tournament's {field} must be an integer >= {low}")
        if self.tourneys > MAX_TOURNEYS:
            # every run's tables of a round are planned together, so runs cost memory
            raise CroupierError(
                f"a tournament has at most {MAX_TOURNEYS:,} tourneys, not {self.tourneys:,}"
            )
        if not 1 <= self.table_size <= 7:
            raise CroupierError(f"a table seats 1 to 7 bots, not {self.table_size}")
        if not self.decision_time > 0:
            raise CroupierError("the decision time must be positive")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise CroupierError("a seed is a non-negative integer")
        if self.format not in FORMATS:
            raise CroupierError(
                f"unknown tournament format {self.format!r}: {' or '.join(FORMATS)}"
            )

    @property
    def duplicate(self) -> bool:
        return self.format == "duplicate"

    def rotations(self, bots: int) -> int:
        """Runs per tourney: the seatings a duplicate tourney rotates through (else 1)."""
        return max(1, min(self.table_size, bots)) if self.duplicate else 1

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self, recurse=False)
        if not self.duplicate:  # logs and journals from before formats read the same
            del data["format"]
        if not self.score_bets:
            del data["score_bets"]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> TournamentConfig:
        try:
            return cls(**dict(data))
        except (KeyError, TypeError, ValueError) as exc:
            raise CroupierError(f"bad tournament settings: {exc}") from None
