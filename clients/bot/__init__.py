"""The bot SDK and the sample bots (``croupier bot``); see README "Write a bot in 10 lines".

``from croupier.clients.bot import Bot, play, run`` (``GameBot``: a bot of any game over
its plain maps, the base of blackjack's typed ``Bot``; ``join_tournament``: a tournament's
``tcp`` seat).
"""

from croupier.clients.bot.blackjack import Bot, FunctionBot
from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.sdk import as_bot, play, run
from croupier.clients.bot.tournament import join_tournament

__all__ = ["Bot", "FunctionBot", "GameBot", "as_bot", "join_tournament", "play", "run"]
