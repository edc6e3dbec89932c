"""The bot SDK and the sample bots (``croupier bot``); see README "Write a bot in 10 lines".

``from croupier.clients.bot import Bot, play, run``.
"""

from croupier.clients.bot.sdk import Bot, FunctionBot, as_bot, play, run

__all__ = ["Bot", "FunctionBot", "as_bot", "play", "run"]
