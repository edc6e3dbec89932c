"""Blackjack's typed bot: a layer over :class:`~croupier.clients.bot.gamebot.GameBot`.

The SDK seats every bot the same way, over the game's plain maps; :class:`Bot` reads each
observation into blackjack's :class:`Observation` (and each event into an :class:`Event`),
asks the hook of its phase (:meth:`Bot.decide`, :meth:`Bot.bet`, :meth:`Bot.insurance`,
:meth:`Bot.surrender`) and sends the :class:`Action` back as a map. A bot that would rather
have the maps is a ``GameBot`` with ``game = "blackjack"``.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar

from croupier.clients.bot.gamebot import GameBot, asks_decide, maybe_await, unwritten
from croupier.engine import CroupierError
from croupier.plugins.blackjack.play import Action, Event, Observation

AUTO_PHASES = ("bet", "insurance", "surrender")
"""Blackjack's phases a bot may leave to the server (``auto`` at ``table.join``): the
minimum bet, no insurance, no early surrender, with no ``decide`` round trip."""

Answer = Action | str | None
DecideFn = Callable[[Observation], Answer | Awaitable[Answer]]


class Bot(GameBot):
    """A blackjack bot with typed hooks; override :meth:`decide` at least. Any hook may be
    ``async def``.

    ``events``: whether the server sends the table's events to this bot. None (the
    default) asks for them only when the class overrides :meth:`on_event` or
    :meth:`on_round`: a bot that never looks at them saves the server the notifications.
    ``key``, ``table`` and ``seat``: as for every bot (:class:`GameBot`).
    """

    game = "blackjack"
    answering: ClassVar[tuple[str, ...]] = ("decide", *AUTO_PHASES)

    @unwritten
    def decide(self, observation: Observation) -> Answer | Awaitable[Answer]:
        """The move for the ``play`` phase: an :class:`Action`, or text such as ``"hit"``,
        ``"H"``, ``"double"``; ``observation.legal`` lists what the table accepts."""
        raise NotImplementedError("a Bot must define decide(observation)")

    def bet(self, observation: Observation) -> int | Awaitable[int | None] | None:
        """The stake for the next round (``min_bet`` to ``max_bet``); None: the minimum."""
        return None

    def insurance(self, observation: Observation) -> bool | Awaitable[bool]:
        """Take insurance (or even money on a natural)? Default: no."""
        return False

    def surrender(self, observation: Observation) -> bool | Awaitable[bool]:
        """Surrender early (before the dealer peeks)? Default: no."""
        return False

    def on_event(self, event: Event) -> Awaitable[None] | None:
        """Every public event of the table, in order, before the decision that follows it."""

    def on_round(self, round_: int) -> Awaitable[None] | None:
        """A round begins (called before its ``round`` event reaches :meth:`on_event`)."""

    def wants_events(self) -> bool:
        if self.events is not None:
            return self.events
        cls = type(self)
        return cls.on_event is not Bot.on_event or cls.on_round is not Bot.on_round

    def auto_phases(self) -> list[str]:
        """The phases whose hook this bot does not override: the server answers them with
        the same defaults (minimum bet, decline) and saves the round trip."""
        cls = type(self)
        return [phase for phase in AUTO_PHASES if getattr(cls, phase) is getattr(Bot, phase)]

    def answers_itself(self) -> bool:
        cls = type(self)
        return cls.answer is not Bot.answer or cls.answer_game is not Bot.answer_game

    async def answer(self, observation: Observation) -> Action:
        """The action for any phase, from the hooks above."""
        phase = observation.phase
        if phase == "bet":
            stake = await maybe_await(self.bet(observation))
            return Action("bet", observation.min_bet if stake is None else int(stake))
        if phase in ("insurance", "surrender"):
            wanted = await maybe_await(getattr(self, phase)(observation))
            return Action(phase if wanted else "decline")
        move = await maybe_await(self.decide(observation))
        if isinstance(move, Action):
            return move
        if isinstance(move, str):
            return Action.parse(move)
        raise CroupierError(f"decide returned {type(move).__name__}, not an Action or text")

    @asks_decide
    async def answer_game(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The map in, read as an :class:`Observation`; :meth:`answer`'s action out as a map."""
        action = await self.answer(Observation.read(observation))
        return action.to_dict()

    async def hear_event(self, event: Any) -> None:
        """The event read as an :class:`Event`: a ``round`` one to :meth:`on_round` first."""
        typed = Event.read(event)
        if typed.kind == "round":
            await maybe_await(self.on_round(typed.round))
        await maybe_await(self.on_event(typed))


class FunctionBot(Bot):
    """A bot made of one function (plain or async) for the ``play`` phase."""

    def __init__(self, decide: DecideFn, name: str = "bot") -> None:
        super().__init__()
        self._decide = decide
        self.name = name

    def decide(self, observation: Observation) -> Answer | Awaitable[Answer]:
        return self._decide(observation)

    def answers_at_once(self) -> bool:
        return super().answers_at_once() and not inspect.iscoroutinefunction(self._decide)
