"""``croupier play``: the full-screen terminal blackjack game, the reference client for a
person (see docs/play.md)."""

from croupier.clients.play.game import KEYS, Game, PersonPlayer, run_game
from croupier.clients.play.view import TableView, Tally

__all__ = ["KEYS", "Game", "PersonPlayer", "TableView", "Tally", "run_game"]
