"""Bots for games other than blackjack: the game's observation in, an action map out.

A :class:`GameBot` plays any game a plugin contributes (``game`` names it); the SDK's
:func:`~croupier.clients.bot.sdk.play` seats it exactly as a blackjack bot (tokens,
reconnection, the table's events). Observations and events are the game's plain maps
(the server's ``games`` method lists their fields); an answer is an action map such as
``{"kind": "bet", "banker": 20}``::

    class Banker(GameBot):
        game = "baccarat"

        def decide(self, observation):
            return {"kind": "bet", "banker": observation["min_bet"]}

    trio.run(play, Banker(), "127.0.0.1", 7777, None, {"game": "baccarat", "seats": 1})
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import Any

from croupier.clients.bot.sdk import Bot, maybe_await
from croupier.engine import CroupierError


class GameBot(Bot):
    """A bot for the game named :attr:`game`; override :meth:`decide`."""

    game = "baccarat"

    def decide(self, observation: Any) -> Any:  # the game's maps, not blackjack's
        """The action for ``observation`` (``observation["legal"]`` lists the kinds)."""
        raise NotImplementedError("a GameBot must define decide(observation)")

    def on_event(self, event: Any) -> Awaitable[None] | None:
        """Every public event of the table (the game's map, with ``text``), in order."""

    def auto_phases(self) -> list[str]:
        return []  # the server answers blackjack's phases only

    def answers_at_once(self) -> bool:
        return type(self).answer_game is GameBot.answer_game and super().answers_at_once()

    async def answer_game(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        move = await maybe_await(self.decide(observation))
        if not isinstance(move, Mapping) or not isinstance(move.get("kind"), str):
            raise CroupierError(
                f"decide returned {type(move).__name__}, not an action map with a kind"
            )
        return dict(move)
