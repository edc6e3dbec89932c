"""The bot of any game: the game's observation map in, an action map out.

:class:`GameBot` is the base of every bot the SDK seats: its hooks take and give the
game's plain maps (the server's ``games`` method lists their fields), and the SDK's
:func:`~croupier.clients.bot.sdk.play` asks it only :meth:`GameBot.answer_game` and
:meth:`GameBot.hear_event`, whatever the game. Blackjack's typed bot
(:class:`~croupier.clients.bot.blackjack.Bot`) is a layer over it that reads the maps into
blackjack's classes. A bot for another game sets ``game`` and answers action maps such as
``{"kind": "bet", "banker": 20}``::

    class Banker(GameBot):
        game = "baccarat"

        def decide(self, observation):
            return {"kind": "bet", "banker": observation["min_bet"]}

    trio.run(play, Banker(), "127.0.0.1", 7777, None, {"game": "baccarat", "seats": 1})
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar, TypeVar

from croupier.engine import CroupierError

Hook = TypeVar("Hook", bound=Callable[..., Any])


async def maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def unwritten(hook: Hook) -> Hook:
    """Mark a base class's ``decide``: a bot that keeps it is refused before it sits
    (:func:`~croupier.clients.bot.sdk.as_bot`)."""
    hook.unwritten = True  # type: ignore[attr-defined]
    return hook


def asks_decide(method: Hook) -> Hook:
    """Mark a base class's ``answer_game`` that answers through ``decide``: only a bot
    that keeps such an ``answer_game`` must write ``decide`` (one that answers in its own
    ``answer_game``, as a remote env's seat does, needs none)."""
    method.asks_decide = True  # type: ignore[attr-defined]
    return method


class GameBot:
    """A bot for the game named :attr:`game`; override :meth:`decide`. Any hook may be
    ``async def``.

    Table state the SDK keeps for you: ``table`` (the table's info at join), ``seat``.

    ``events``: whether the server sends the table's events to this bot (None: yes, for a
    bot of this class; blackjack's typed bot asks only when it looks at them).

    ``key``: its registered key on a server run with ``--auth keys`` (None: the
    ``CROUPIER_KEY`` environment variable, if set); it then plays under its registered name.
    """

    game = "baccarat"
    name = "bot"
    events: bool | None = None
    key: str | None = None
    answering: ClassVar[tuple[str, ...]] = ("decide",)
    """The hooks :meth:`answer_game` calls (an ``async def`` one takes a task per decision)."""

    def __init__(self) -> None:
        self.table: dict[str, Any] = {}
        self.seat = 0

    @unwritten
    def decide(self, observation: Any) -> Any:
        """The action map for ``observation`` (``observation["legal"]`` lists the kinds)."""
        raise NotImplementedError("a GameBot must define decide(observation)")

    def on_event(self, event: Any) -> Awaitable[None] | None:
        """Every public event of the table (the game's map, with ``text``), in order,
        before the decision that follows it."""

    def setup(self, info: dict[str, Any]) -> Awaitable[None] | None:
        """Once, before the bot takes its seat, with the table's info (``info["rules"]``):
        the place for slow preparation, such as solving the rules for basic strategy."""

    def check_table(self, info: dict[str, Any]) -> None:
        """Refuse an existing table this bot cannot play (raise :class:`CroupierError`),
        before :meth:`setup`: by default, a table of another game than the bot's."""
        played = info.get("game", "blackjack")
        if played != self.game:
            raise CroupierError(f"table {info['table']} plays {played}, not {self.game}")

    def on_table(self, info: dict[str, Any]) -> Awaitable[None] | None:
        """The table's info: when the bot sits down, when the table starts, pauses
        (``info["paused"]``: the server cannot write its journal), resumes and finishes."""

    def wants_events(self) -> bool:
        """Whether to ask the server for the table's events (see :attr:`events`)."""
        return True if self.events is None else self.events

    def auto_phases(self) -> list[str]:
        """The phases the server may answer for this bot, with no ``decide`` round trip."""
        return []  # the server answers blackjack's phases only

    def join_options(self) -> tuple[bool, list[str]]:
        """``events`` and ``auto``, the options of ``table.join`` and ``table.rejoin``."""
        return self.wants_events(), self.auto_phases()

    def answers_itself(self) -> bool:
        """Whether the class writes its own answering (which may wait on anything)."""
        return type(self).answer_game is not GameBot.answer_game

    def answers_at_once(self) -> bool:
        """Whether this bot answers a decision without waiting: its answering hooks are
        plain functions, not ``async def``. The SDK then answers the server's ``decide`` on
        the connection's reader itself, with no task per decision (a plain hook that returns
        an awaitable is awaited there: it holds the connection's reading meanwhile)."""
        if self.answers_itself():
            return False
        return not any(inspect.iscoroutinefunction(getattr(self, h)) for h in self.answering)

    @asks_decide
    async def answer_game(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The action map the SDK sends for the server's ``decide`` (from :meth:`decide`);
        a :class:`CroupierError` refuses the decision with its reason."""
        move = await maybe_await(self.decide(observation))
        if not isinstance(move, Mapping) or not isinstance(move.get("kind"), str):
            raise CroupierError(
                f"decide returned {type(move).__name__}, not an action map with a kind"
            )
        return dict(move)

    async def hear_event(self, event: Any) -> None:
        """One of the table's events as the server sent it, to :meth:`on_event`."""
        await maybe_await(self.on_event(event))
