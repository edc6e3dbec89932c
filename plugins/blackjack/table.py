"""A blackjack table with typed players: the engine's table driver, in blackjack's classes.

:class:`Table` is a :class:`~croupier.engine.gametable.GameTable` of the ``blackjack`` game
(the one driver every table plays on: a server's, the terminal game's, a tournament's) for
code written against blackjack's typed classes: each seat's
:class:`~croupier.plugins.blackjack.players.Player` gets an
:class:`~croupier.plugins.blackjack.play.Observation` and answers an
:class:`~croupier.plugins.blackjack.play.Action`, and listeners get
:class:`~croupier.plugins.blackjack.play.Event` values. The rules of play (time limits,
refusals, defaults: stand, the minimum bet, no insurance, no early surrender) are the
engine table's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from croupier.engine import ATTEMPTS, DECISION_TIME, GameTable, Ledger, Plain, PluginManager
from croupier.plugins.blackjack.building import build_core, resolve_rules
from croupier.plugins.blackjack.core import BlackjackCore
from croupier.plugins.blackjack.game import blackjack_game
from croupier.plugins.blackjack.play import Action, Event, Observation
from croupier.plugins.blackjack.players import Player
from croupier.plugins.blackjack.round import TableCore
from croupier.plugins.blackjack.rules import BlackjackRules

__all__ = ["Table", "TypedSeat", "build_core", "resolve_rules"]


class TypedSeat:
    """A typed :class:`~croupier.plugins.blackjack.players.Player` as a
    :class:`~croupier.engine.gametable.GameTable` player (plain maps in and out)."""

    def __init__(self, player: Player) -> None:
        self.player = player

    async def decide(self, observation: Plain) -> Any:
        answer = await self.player.decide(Observation.read(dict(observation)))
        # anything but an Action goes to the table as it is, to be refused there
        return answer.to_dict() if isinstance(answer, Action) else answer


class Table:
    """Seats 1..7 (``players[i]`` sits in seat ``i + 1``), a dealer, a shoe and a ledger.

    ``chips`` are the seats' starting chips (default: the rules' ``starting_chips``).
    """

    def __init__(
        self,
        manager: PluginManager,
        rules: BlackjackRules,
        seed: int,
        players: Sequence[Player],
        *,
        chips: Sequence[int] | None = None,
        decision_time: float = DECISION_TIME,
        attempts: int = ATTEMPTS,
        listeners: Sequence[Callable[[Event], None]] = (),
        stalls: Callable[[], float] | None = None,
    ) -> None:
        self.rules = rules
        self.players = list(players)
        self.listeners = list(listeners)
        self.table = GameTable(
            blackjack_game(manager),
            rules.to_dict(),
            seed,
            [TypedSeat(p) for p in self.players],
            chips=[rules.starting_chips] * len(self.players) if chips is None else chips,
            decision_time=decision_time,
            attempts=attempts,
            listeners=[self._emit],
            stalls=stalls,
        )
        core = self.table.core
        assert isinstance(core, BlackjackCore)
        self.core: TableCore = core.table
        """The round engine (its shoe, seats and ledger)."""

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def starting_chips(self) -> list[int]:
        return self.table.starting_chips

    @property
    def decision_time(self) -> float:
        return self.table.decision_time

    def limit_decisions(self, seconds: float) -> None:
        """Every decision from now on ends within ``seconds`` from now, in all."""
        self.table.limit_decisions(seconds)

    @property
    def ledger(self) -> Ledger:
        return self.table.ledger

    def _emit(self, event: Plain) -> None:
        if self.listeners:  # the words are a plain event's (Event.describe says them)
            typed = Event.read({k: v for k, v in event.items() if k != "text"})
            for listener in self.listeners:
                listener(typed)

    async def play_round(self) -> bool:
        """Play one round; False when no seat could pay the minimum (nothing happened)."""
        return await self.table.play_round()

    async def play(self, rounds: int) -> int:
        """Play up to ``rounds`` rounds (fewer when every seat has left); returns how many."""
        return await self.table.play(rounds)
