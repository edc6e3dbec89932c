"""Blackjack as a game plugin: the table behind the engine's game interface, so tables,
tournaments, logs and the server run blackjack as they run any game."""

from __future__ import annotations

from croupier.engine import PluginManager, hookimpl
from croupier.engine.games import Game
from croupier.plugins.blackjack.game import blackjack_game


@hookimpl
def croupier_games(manager: PluginManager) -> tuple[Game, ...]:
    return (blackjack_game(manager),)
