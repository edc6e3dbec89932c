"""The bot SDK: seats any game's bot at a table and keeps it there.

::

    from croupier.clients.bot import run

    run(lambda o: "hit" if o.total < 17 else "stand", "127.0.0.1", 7171)

:func:`play` (async, trio) and :func:`run` (sync) connect, say ``hello`` as a bot, create a
table (or join table ``table``), answer every ``decide`` call through the bot's hooks,
feed it the table's events, and reconnect after a lost connection, taking the seat back
with its token. They return the table's final info when it finishes. Every hook may be a
plain function or a coroutine function (the sync and async flavours).

All of it is one path over the game's plain maps (:class:`~.gamebot.GameBot`'s
``answer_game`` and ``hear_event``), the same for every game; blackjack's typed
:class:`~.blackjack.Bot` (and a plain function, which plays blackjack) is a layer over it
that this module does not import until it is used.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Any, Protocol

import trio

from croupier.clients.bot.gamebot import GameBot, maybe_await
from croupier.clients.bot.reconnect import (
    SeatGate,
    heard_shutdown,
    keep_seat,
    leave_table,
    log_retry,
    take_back,
    unwrap_group,
)
from croupier.engine import CroupierError
from croupier.protocol import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    Client,
    ConnectionClosed,
    RpcError,
    connect,
)
from croupier.protocol.errors import CallTimeout, Code

log = logging.getLogger("croupier.bot")


async def answer_for(bot: GameBot, observation: Any) -> dict[str, Any]:
    """The bot's answer to a ``decide`` call, as plain data. An answer that is not an
    action is refused as ``bad-input`` with its reason, so the table's ``default`` event
    says what was wrong (not "internal error")."""
    try:
        return await bot.answer_game(observation)
    except CroupierError as exc:
        raise RpcError(Code.BAD_INPUT, str(exc)) from None


def as_bot(bot: GameBot | Callable[[Any], Any], name: str | None = None) -> GameBot:
    """``bot`` itself, or a plain function wrapped as a blackjack
    :class:`~croupier.clients.bot.blackjack.FunctionBot`; a bot class that does not define
    ``decide`` (and answers through it) is refused here, before it sits at a table."""
    if isinstance(bot, GameBot):
        cls = type(bot)
        if getattr(cls.decide, "unwritten", False) and getattr(
            cls.answer_game, "asks_decide", False
        ):
            raise CroupierError(f"{type(bot).__name__} must define decide(observation)")
        if name:
            bot.name = name
        return bot
    # A function plays blackjack's play phase (the SDK's first use): the typed layer, and
    # with it the blackjack plugin, is loaded only for it.
    from croupier.clients.bot.blackjack import FunctionBot

    return FunctionBot(bot, name or getattr(bot, "__name__", "bot").strip("<>") or "bot")


MOVED = ("AUTO_PHASES", "Answer", "Bot", "DecideFn", "FunctionBot")
"""Blackjack's typed layer's names, still found here (where they were before it was a
layer) but loaded on first use: importing the SDK loads no plugin."""


def __getattr__(name: str) -> Any:
    if name in MOVED:
        from croupier.clients.bot import blackjack

        return getattr(blackjack, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _stopping(exc: BaseException) -> bool:
    """Cancellation or Ctrl-C (alone or grouped): the bot is being stopped, not cut off."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_stopping(e) for e in exc.exceptions)
    return isinstance(exc, KeyboardInterrupt | trio.Cancelled)


async def _session(
    me: _Seat,
    host: str,
    port: int,
    seat: int | None,
    create: Mapping[str, Any],
    on_seated: Callable[[dict[str, Any]], None] | None,
) -> bool:
    """One connection's worth of play; True when the table is over, raises when the
    connection is lost.

    A connection to a known table (``table=T``) lost before the seat was taken (a server
    killed during ``hello`` or ``table.info``) is tried again as a seated one is: the server
    was there, and asking for its table again is harmless. One never made (nobody listens)
    still ends at once, and so does a lost ``table.create`` (asked again, it could make a
    second table)."""
    try:
        async with bot_connection(me, host, port) as client:
            if not await me.sit(client, seat, create):
                return True
            me.failures, me.resuming = 0, False
            if on_seated is not None:
                on_seated({"table": me.table, "seat": me.bot.seat, "info": me.bot.table})
            over = await stay_until_finished(client, me.finished)
            if me.final is not None and me.final.get("left") and me.token is not None:
                with contextlib.suppress(RpcError):  # the table may just have finished
                    await client.call("table.leave", me.token)
            return over
    except BaseException as exc:
        lost = unwrap_group(exc) if isinstance(exc, BaseExceptionGroup) else exc
        if me.table is not None and isinstance(lost, ConnectionClosed | CallTimeout):
            me.reseat = True
        raise


class Seated(Protocol):
    """What a bot's connection answers with: its bot, its ``decide`` and notifications."""

    bot: GameBot

    async def decide(self, *params: Any) -> Any: ...

    async def notified(self, method: str, params: Any) -> None: ...


KEY_VARIABLE = "CROUPIER_KEY"
"""The environment variable a bot's registered key is taken from when ``Bot.key`` is None."""


def bot_connection(me: Seated, host: str, port: int) -> AbstractAsyncContextManager[Client]:
    """A bot's connection: hello as ``role="bot"`` (with its registered key: ``bot.key``,
    else ``$CROUPIER_KEY``), the server's ``decide`` calls answered (on the connection's
    reader, with no task, when ``me.quick("decide")`` says so)."""
    return connect(
        host,
        port,
        name=me.bot.name,
        key=me.bot.key if me.bot.key is not None else os.environ.get(KEY_VARIABLE) or None,
        role="bot",
        handlers={"decide": me.decide},
        on_notification=me.notified,
        quick=getattr(me, "quick", None),
    )


async def stay_until_finished(client: Client, finished: trio.Event) -> bool:
    """Serve the server's calls until ``finished`` is set (True) or the connection closes
    (:class:`ConnectionClosed`, so the caller reconnects)."""
    async with trio.open_nursery() as nursery:

        async def closed() -> None:
            await client.session.wait_closed()
            nursery.cancel_scope.cancel()

        nursery.start_soon(closed)
        await finished.wait()
        nursery.cancel_scope.cancel()
    if finished.is_set():
        return True
    raise ConnectionClosed(client.session.closed_reason or "connection lost")


class _Seat:
    """What one :func:`play` call remembers across reconnections."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.table: int | None = None
        self.token: str | None = None
        self.reseat = False
        self.final: dict[str, Any] | None = None
        self.finished = trio.Event()
        self.server_stopped = False
        self.resuming = False
        self.failures = 0
        self.gate = SeatGate()
        """The table's notifications that come while ``table.join``/``rejoin`` is answered
        are held, and a ``decide`` waits, until :meth:`sit` has told the bot its seat: the
        bot decides knowing all it was sent."""
        self.at_once = bot.answers_at_once()

    def quick(self, method: str) -> bool:
        """A ``decide`` of a bot that answers at once, while no seat is being taken, is
        answered on the connection's reader: no task, no trip through trio's scheduler."""
        return method == "decide" and self.at_once and self.gate.is_open

    async def decide(self, table: int, observation: Any) -> dict[str, Any]:
        if not self.gate.is_open:  # (an open gate's wait would still be a checkpoint)
            await self.gate.wait()
        return await answer_for(self.bot, observation)

    async def notified(self, method: str, params: Any) -> None:
        if method == "shutdown":  # reconnect (within ``reconnect`` attempts) if it resumes
            heard_shutdown(self, params)
            return
        if not isinstance(params, list) or len(params) != 2 or params[0] != self.table:
            return
        if not self.gate.hold(method, params[1]):  # seated but not told yet: after on_table
            await self._notified(method, params[1])

    async def _notified(self, method: str, data: Any) -> None:
        if method == "table.event":
            await self.bot.hear_event(data)
        elif method == "table.status":
            try:
                await maybe_await(self.bot.on_table(data))
            finally:  # a hook that raises must not keep play() waiting
                if data.get("state") == "finished":
                    if self.final is None or not self.final.get("left"):
                        self.final = data
                    self.finished.set()
                elif not self.finished.is_set():
                    self.leave_if_broke(data)

    def leave_if_broke(self, info: dict[str, Any]) -> None:
        """A bot whose seat can no longer pay the table's minimum (``min_chips``) is done:
        it says so (a warning) and leaves, rather than sit at a table that cannot deal it
        in; :func:`play` returns the table's info with ``left`` saying why."""
        seat, minimum = self.bot.seat, info.get("min_chips")
        chips = info.get("chips") or []
        if not isinstance(minimum, int) or not 0 < seat <= len(chips) or chips[seat - 1] >= minimum:
            return
        left = (
            f"{self.bot.name} in seat {seat} of table {info.get('table')} has "
            f"{chips[seat - 1]} chips, less than the minimum of {minimum}: it leaves the table"
        )
        log.warning("%s", left)
        self.final = {**info, "left": left}
        self.finished.set()

    async def sit(self, client: Client, seat: int | None, create: Mapping[str, Any]) -> bool:
        """Take the seat (or take it back); False when the table has already finished.

        The table's events that arrive before the answer (the last seat taken starts the
        table at once) are held, then given to the bot in order once it knows its seat; a
        ``decide`` waits for them (:attr:`gate`)."""
        async with self.gate.taking(self._notified):
            return await self._take(client, seat, create)

    async def _take(self, client: Client, seat: int | None, create: Mapping[str, Any]) -> bool:
        if self.token is not None:
            back, final = await take_back(client, self.token, self.table, *self.bot.join_options())
            if back is None:
                self.final = final
                return False
            joined = back
        else:
            if self.table is None:
                info = await client.call_named("table.create", dict(create))
                self.table = int(info["table"])
            else:
                info = await client.call("table.info", self.table)
                self.bot.check_table(info)  # before setup reads another game's rules
            self.reseat = True  # the table is there: a connection lost now sits down again
            await maybe_await(self.bot.setup(info))
            joined = await client.call("table.join", self.table, seat, *self.bot.join_options())
            self.token = joined["token"]
        self.bot.table, self.bot.seat = joined["info"], joined["seat"]
        await maybe_await(self.bot.on_table(joined["info"]))
        if joined["info"].get("state") == "playing":
            self.leave_if_broke(joined["info"])  # back at a table it can no longer play
        return True


async def play(
    bot: GameBot | Callable[[Any], Any],
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    table: int | None = None,
    seat: int | None = None,
    create: Mapping[str, Any] | None = None,
    name: str | None = None,
    reconnect: int = 5,
    on_seated: Callable[[dict[str, Any]], None] | None = None,
    on_retry: Callable[[str, float, bool], None] = log_retry,
    wait_for_resume: bool = False,
) -> dict[str, Any]:
    """Play at a table until it finishes; its final info (``chips``, ``reason``, ...).
    A bot that can no longer pay the table's minimum leaves it: then the table's info at
    that moment, with ``left`` saying why (a warning says it too).

    Joins table ``table`` (seat ``seat``, or the first free one) or, when ``table`` is None,
    creates one with ``create`` (``table.create``'s parameters by name; a
    :class:`~croupier.clients.bot.gamebot.GameBot` creates a table of its game). A lost connection
    is retried ``reconnect`` times (0.2 s, then doubling up to 5 s, between attempts) and
    the seat taken back with its token (``table.rejoin``): after a lost connection, and
    after the server itself was killed and restarted on its journal, which recovers the
    table and waits for its bots (give a larger ``reconnect`` to outlast a restart).
    ``on_retry(reason, delay, resuming)`` is told before each wait (by default a warning
    is logged); with ``wait_for_resume`` a server that said it resumes is waited for
    beyond ``reconnect`` (for a person, who can stop any time).
    Errors are :class:`CroupierError` or the server's :class:`RpcError`, one line each.
    """
    me = _Seat(as_bot(bot, name))
    me.table = table
    game = me.bot.game
    create = {"game": game, **(create or {})} if game != "blackjack" else create or {}
    try:
        session = partial(_session, me, host, port, seat, create, on_seated)
        await keep_seat(me, session, reconnect, on_retry=on_retry, wait_for_resume=wait_for_resume)
        assert me.final is not None
        return me.final
    except BaseException as exc:
        if _stopping(exc) and me.token is not None and not me.finished.is_set():
            await leave_table(host, port, me.bot.name, me.token)
        raise


def run(
    bot: GameBot | Callable[[Any], Any],
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    **options: Any,
) -> dict[str, Any]:
    """:func:`play` for synchronous programs (runs trio)."""
    return trio.run(partial(play, bot, host, port, **options))
