"""Blackjack's tournament entries: its strategies and the King-of-the-Hill contest's
executables, seated at a game table (plain maps in and out)."""

from __future__ import annotations

import tempfile
from contextlib import ExitStack

import attrs

from croupier.engine import GamePlayer, GameStrategyPlayer
from croupier.plugins.blackjack.executable import BOT_PATH, ExecutablePlayer, bot_environment
from croupier.plugins.blackjack.game import game_strategy
from croupier.plugins.blackjack.strategy import Strategy


@attrs.frozen
class StrategyEntry:
    """A blackjack strategy (made ready for the tournament's rules), played in-process."""

    name: str
    strategy: Strategy

    def player(self, stack: ExitStack) -> GamePlayer:
        return GameStrategyPlayer(game_strategy(self.strategy))


@attrs.frozen
class ExecutableEntry:
    """An executable bot of the King-of-the-Hill contest (blackjack): ``command`` is the
    absolute path and any leading arguments.

    At each table it gets a fresh empty working directory (also its ``HOME``), deleted when
    the table is done; ``path`` is the ``PATH`` of its clean environment.
    """

    name: str
    command: tuple[str, ...]
    path: str = BOT_PATH

    def player(self, stack: ExitStack) -> GamePlayer:
        workdir = stack.enter_context(tempfile.TemporaryDirectory(prefix="croupier-bot-"))
        env = bot_environment(workdir, self.path)
        return ExecutablePlayer(self.command, workdir, env=env)
