"""A bot in a tournament on the server: :func:`join_tournament` takes one of its ``tcp`` seats.

The bot answers ``decide(tournament, observation)`` for every table it is seated at (the
tables of a round are played at once, so calls may overlap), through the same hooks as at a
table (:meth:`GameBot.answer_game`). Tournament tables send bots no events: ``on_event`` and
``on_round`` are not called there. ``setup(info)`` gets the tournament's info, whose
``rules`` are the tables' rules. A lost connection is retried and the seat taken back with
its token, as at a table; meanwhile the seat plays the default.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import trio

from croupier.clients.bot.gamebot import GameBot, maybe_await
from croupier.clients.bot.reconnect import heard_shutdown, keep_seat
from croupier.clients.bot.sdk import answer_for, as_bot, bot_connection, stay_until_finished
from croupier.protocol import DEFAULT_HOST, DEFAULT_PORT, RpcError
from croupier.protocol.errors import Code

log = logging.getLogger("croupier.bot")


class _Entry:
    """What one :func:`join_tournament` call remembers across reconnections."""

    def __init__(self, bot: GameBot, tournament: int, key: str | None) -> None:
        self.bot = bot
        self.tournament = tournament
        self.key = key
        self.token: str | None = None
        self.reseat = False  # a tournament seat is only ever taken back with its token
        self.entry = 0
        self.final: dict[str, Any] | None = None
        self.finished = trio.Event()
        self.server_stopped = False
        self.resuming = False
        self.failures = 0

    async def decide(self, tournament: int, observation: Any) -> dict[str, Any]:
        return await answer_for(self.bot, observation)

    async def notified(self, method: str, params: Any) -> None:
        if method == "shutdown":  # reconnect (within ``reconnect`` attempts) if it resumes
            heard_shutdown(self, params)
        elif (
            method == "tournament.status"
            and isinstance(params, list)
            and len(params) == 2
            and params[0] == self.tournament
            and params[1].get("state") == "finished"
        ):
            self.final = params[1]
            self.finished.set()


async def _session(me: _Entry, host: str, port: int, on_seated: Callable[..., None] | None) -> bool:
    """One connection's worth of play; True when the tournament is over."""
    async with bot_connection(me, host, port) as client:
        auto = me.bot.auto_phases()
        if me.token is not None:
            try:
                await client.call("tournament.rejoin", me.token, auto)
            except RpcError as exc:
                if exc.code != Code.BAD_TOKEN:
                    raise
                me.final = await client.call("tournament.info", me.tournament)
                return True
        else:
            info = await client.call("tournament.info", me.tournament)
            await maybe_await(me.bot.setup(info))
            joined = await client.call("tournament.join", me.tournament, auto, me.key)
            me.token, me.entry = joined["token"], joined["entry"]
            if on_seated is not None:
                on_seated(joined)
        me.failures, me.resuming = 0, False  # seated (again): a fresh count of retries
        return await stay_until_finished(client, me.finished)


async def join_tournament(
    bot: GameBot | Callable[[Any], Any],
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    tournament: int,
    key: str | None = None,
    name: str | None = None,
    reconnect: int = 5,
    on_seated: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Take a ``tcp`` seat of tournament ``tournament`` (``key``: its join key, which the
    tournament's creator got, unless it is open) and play until it finishes; its final info
    (``result`` holds the standings; ``entry`` of ``on_seated``'s argument is the bot's
    entry number). A lost connection is retried ``reconnect`` times and the seat taken back
    with ``tournament.rejoin``, also after a restart of the server (it recovers the
    tournament from its journal). Errors are one-line :class:`CroupierError` or
    :class:`RpcError`."""
    me = _Entry(as_bot(bot, name), tournament, key)
    await keep_seat(me, lambda: _session(me, host, port, on_seated), reconnect)
    assert me.final is not None
    return me.final
