"""A tournament's entries as the engine's ``play_tournament`` plays them: a built-in
strategy (yielding to the server's other tasks before each decision), or a ``tcp`` seat whose
bot answers ``decide(tournament, observation)`` on its connection, its answers recorded
(:meth:`ServerTournament.answers_of`) when the server keeps a journal, so the table replays."""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING

import attrs
import trio

from croupier.engine.games import GameStrategy, Plain
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer
from croupier.protocol.seat_answers import AnswerRecorder
from croupier.protocol.slots import BotSlot, SlotPlayer

if TYPE_CHECKING:
    from croupier.protocol.tournaments.run import ServerTournament


class _Yielding:
    """A strategy's player that lets the server's other tasks run before each decision (a
    tournament of strategies only would otherwise hold the loop for whole tables)."""

    def __init__(self, inner: GameStrategyPlayer) -> None:
        self.inner = inner

    async def decide(self, observation: Plain) -> Plain:
        await trio.sleep(0)
        return await self.inner.decide(observation)


@attrs.frozen
class ServerStrategyEntry:
    """A game's built-in strategy entered on the server (made ready for the options)."""

    name: str
    strategy: GameStrategy

    def player(self, stack: ExitStack) -> GamePlayer:
        return _Yielding(GameStrategyPlayer(self.strategy))


@attrs.define(eq=False)
class TcpSeat(BotSlot):
    """A ``tcp`` entry of a tournament: the bot holding it (see :class:`BotSlot`)."""


@attrs.frozen
class TcpEntry:
    name: str
    tournament: ServerTournament
    seat: TcpSeat

    def player(self, stack: ExitStack) -> GamePlayer:
        # decide(tournament, observation) on the bot's connection
        tournament = self.tournament
        game = tournament.server.manager.games.get(tournament.config.game)
        player = SlotPlayer(self.seat, tournament.id, tournament.config.decision_time, game)
        if not tournament.server.journal.enabled:
            return player
        return AnswerRecorder(player, tournament.answers_of(self.seat.index - 1))
