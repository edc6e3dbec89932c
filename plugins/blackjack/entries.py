"""Blackjack's tournament entries: its strategies and the King-of-the-Hill contest's
executables, seated at a game table (which speaks plain data) through :class:`_Plain`."""

from __future__ import annotations

import tempfile
from contextlib import ExitStack

import attrs

from croupier.engine import GamePlayer, Plain
from croupier.plugins.blackjack.executable import BOT_PATH, ExecutablePlayer, bot_environment
from croupier.plugins.blackjack.play import Action, Observation
from croupier.plugins.blackjack.players import Player, Strategy, StrategyPlayer


class _Plain:
    """A blackjack player (it reads an Observation, answers an Action) at a game table,
    which speaks plain data: blackjack's strategies and executables in a tournament."""

    def __init__(self, player: Player) -> None:
        self.player = player

    async def decide(self, observation: Plain) -> Plain:
        action = await self.player.decide(Observation.read(dict(observation)))
        return action.to_dict() if isinstance(action, Action) else action


@attrs.frozen
class StrategyEntry:
    """A blackjack strategy (made ready for the tournament's rules), played in-process."""

    name: str
    strategy: Strategy

    def player(self, stack: ExitStack) -> GamePlayer:
        return _Plain(StrategyPlayer(self.strategy))


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
        return _Plain(ExecutablePlayer(self.command, workdir, env=env))
