"""Blackjack tables for tests, on the engine's :class:`GameTable` (the one table driver
every path plays on): players answer plain maps, listeners get plain events; tests read
them with blackjack's typed classes where that reads better (``Event.read``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.plugins.blackjack.core import BlackjackCore
from croupier.plugins.blackjack.game import blackjack_game, game_strategy
from croupier.plugins.blackjack.play import Action, Event
from croupier.plugins.blackjack.round import TableCore


def blackjack_table(manager, rules, seed, players, *, chips=None, **kw) -> GameTable:
    """A table of the ``blackjack`` game under ``rules``; ``chips`` default to the rules'
    starting chips; other keywords are the :class:`GameTable`'s."""
    chips = [rules.starting_chips] * len(players) if chips is None else chips
    return GameTable(
        blackjack_game(manager), rules.to_dict(), seed, list(players), chips=chips, **kw
    )


def round_core(table: GameTable) -> TableCore:
    """The table's blackjack round engine (its shoe, seats and ledger)."""
    core = table.core
    assert isinstance(core, BlackjackCore)
    return core.table


def strategy_seat(strategy) -> GameStrategyPlayer:
    """A local blackjack strategy in a seat, as a server seats it."""
    return GameStrategyPlayer(game_strategy(strategy))


def typed(listener) -> Any:
    """A table listener handing ``listener`` each plain event read as an :class:`Event`
    (as the terminal game reads them)."""
    return lambda event: listener(Event.read(dict(event)))


def typed_events(into: list) -> Any:
    """A listener appending each plain event to ``into`` as an :class:`Event`."""
    return typed(into.append)


class Scripted:
    """Answers the given actions in order (plain maps), then stands."""

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = list(actions)
        self.asked = 0

    async def decide(self, observation: dict) -> dict:
        self.asked += 1
        return (self.actions.pop(0) if self.actions else Action("stand")).to_dict()
