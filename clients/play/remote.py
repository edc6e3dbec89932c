"""``croupier play --connect``: the person's seat at a table on a croupier server.

The same :class:`~croupier.clients.play.game.Game`, view and
:class:`~croupier.clients.play.game.PersonPlayer` as a local game; only the driver
differs. The connection says ``hello`` as a bot, creates a table (one seat: no time limit,
``decision_time`` nil) or looks table T up, opens the screen, then takes the seat: the
server's ``decide`` calls are answered by the person's player and the table's
``table.event`` notifications feed the view. A decision time short for a person is
warned about; a decision the server stops waiting for (its ``default`` event, or a newer
``decide``) is withdrawn from the screen (:meth:`RemoteSeat.withdraw`). The session ends
as a local one does, plus ``finished`` (the table finished: its ``reason`` is shown) and
``disconnected`` (the connection was lost for good; :attr:`Outcome.lost` says why). A lost
connection is tried again and the seat taken back with its token, by the bot SDK's own
loop (:func:`~croupier.clients.bot.reconnect.keep_seat`): a few times after an unannounced
loss, and for as long as the person waits after a server's ``shutdown`` notice that says
the table resumes (a graceful restart on its journal); the screen says what happens. On Q
and Ctrl-C the seat is given up with ``table.leave``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import attrs
import trio

from croupier.clients.bot.reconnect import (
    RECOVERY_WAIT,
    SeatGate,
    heard_shutdown,
    keep_seat,
    leave_table,
    reconnect_window,
    retry_delay,
    take_back,
    unwrap_group,
)
from croupier.clients.bot.sdk import stay_until_finished
from croupier.clients.play.game import Game, Hint, PersonPlayer, run_session
from croupier.clients.play.terminal import Screen
from croupier.clients.play.view import TableView, Tally, time_text
from croupier.engine import CroupierError
from croupier.plugins.blackjack.play import Event, Observation
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.protocol import Client, Code, ConnectionClosed, RpcError, connect

LEAVE_TIME = 2.0
"""Seconds given to ``table.leave`` when the person quits."""

RECONNECT = 5
"""Attempts after a connection lost unannounced (the bot SDK's default, about 6 s)."""

RETRY = "Trying to connect again in"
"""How the screen's line about the next try begins (each try rewrites it)."""

NAME = "croupier-play"
"""The name the person's connections give the server."""


@attrs.frozen
class Where:
    """The server, the table to join (None: create one) and the new table's settings."""

    host: str
    port: int
    table: int | None = None
    create: dict[str, Any] = attrs.field(factory=dict)
    on_created: Callable[[dict[str, Any]], None] | None = None
    """Called with the new table's info once the server made it (before the screen opens)."""


@attrs.frozen
class Outcome:
    """How a remote session ended: ``ended`` (as :attr:`Game.ended`), the tally, and for
    ``disconnected`` the reason; ``info`` is the table's info at sitting down."""

    ended: str
    tally: Tally
    info: dict[str, Any]
    lost: str | None = None


class RemoteSeat:
    """One connection's worth of a person at a server table."""

    def __init__(self, where: Where) -> None:
        self.where = where
        self.game: Game | None = None
        self.person: PersonPlayer | None = None
        self.table: int | None = None
        self.seat: int | None = None
        self._pending: trio.CancelScope | None = None
        self._done = trio.Event()
        self._done.set()
        self.token: str | None = None
        self.reseat = False  # the person sits down once; only a seat held is taken back
        self.final: dict[str, Any] | None = None
        self.finished = trio.Event()
        self.server_stopped = False
        self.resuming = False
        self.failures = 0
        self.client: Client | None = None
        """The connection in use (a new one after each reconnection)."""
        self.lost: str | None = None
        self.gate = SeatGate()
        """While the seat is taken back, the table's notifications are held and a
        ``decide`` waits: the screen says "Back at table" first, then what happened."""

    async def decide(self, table: int, observation: Any) -> dict[str, Any]:
        """Answer the server's ``decide`` with the person's keys. Only one decision is on
        screen: a newer one, or the server giving up on this one (its ``default`` event),
        withdraws it (see :meth:`withdraw`), and the keys go to the next decision only."""
        await self.gate.wait()
        if self.person is None:
            raise RpcError(Code.INTERNAL_ERROR, "not seated yet")
        self.withdraw()  # a decision still on screen is one the server no longer waits for
        done = self._done = trio.Event()
        with trio.CancelScope() as scope:
            self._pending = scope
            try:
                action = await self.person.decide(Observation.read(observation))
            finally:
                if self._pending is scope:
                    self._pending = None
                done.set()
        if scope.cancelled_caught:  # the server stopped waiting: this reply is never read
            raise RpcError(Code.INTERNAL_ERROR, "the decision was withdrawn")
        return action.to_dict()

    def withdraw(self) -> None:
        """Take the decision on screen (if any) back: its prompt goes and its keys end."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    async def withdrawn(self) -> None:
        """Withdraw the decision on screen and wait until its prompt is gone (before the
        screen closes: a redraw after that would leave the terminal in curses' mode)."""
        self.withdraw()
        with trio.move_on_after(LEAVE_TIME):
            await self._done.wait()

    async def notified(self, method: str, params: Any) -> None:
        if method == "shutdown":
            heard_shutdown(self, params)
            if self.resuming and self.game is not None and self.game.ended is None:
                self.withdraw()
                self.game.view.say("The server is restarting: your seat is kept for you")
                self.game.redraw()
            return
        if not isinstance(params, list) or len(params) != 2 or params[0] != self.table:
            return
        if not self.gate.hold(method, params):
            await self._notified(method, params)

    async def _notified(self, method: str, params: list[Any]) -> None:
        if method == "table.event" and self.game is not None and self.game.ended is None:
            # (after the end, the tally is the person's: what the seat did while theirs)
            event = Event.read(params[1])
            if event.kind == "default" and event.seat == self.seat:
                self.withdraw()  # the server played the default: that prompt is void
            self.game.on_event(event)
        elif method == "table.status" and params[1].get("state") == "finished":
            self.final = params[1]
            self.finished.set()

    async def find_table(self, client: Client) -> tuple[dict[str, Any], int]:
        """The table's info and the seat to take (a new table's, or table T's first free)."""
        if self.where.table is None:
            info = await client.call_named("table.create", self.where.create)
            if self.where.on_created is not None:
                self.where.on_created(info)
            return info, 1
        info = await while_recovering(partial(client.call, "table.info", self.where.table))
        if info["state"] == "finished":
            raise CroupierError(f"table {info['table']} has finished")
        free = [s["seat"] for s in info["seats"] if s["kind"] == "free"]
        if not free:
            raise CroupierError(f"table {info['table']} has no free seat")
        return info, int(free[0])

    def connection(self) -> contextlib.AbstractAsyncContextManager[Client]:
        """A connection of the person's: hello as a bot, ``decide`` and notifications."""
        return connect(
            self.where.host,
            self.where.port,
            name=NAME,
            role="bot",
            handlers={"decide": self.decide},
            on_notification=self.notified,
        )

    async def play(self, client: Client, game: Game, seat: int) -> None:
        """Take the seat and play until the table finishes; after a lost connection, take
        the seat back on a new one (see the module doc), until it is lost for good."""
        assert self.table is not None
        joined = await client.call("table.join", self.table, seat, True, [])
        self.token = joined["token"]
        first: list[Client] = [client]

        async def attempt() -> bool:
            if first:  # the connection the table was found on
                return await stay_until_finished(first.pop(), self.finished)
            async with self.connection() as again:
                self.client = again
                if not await self._take_back(again, game):  # the table finished meanwhile
                    return True
                return await stay_until_finished(again, self.finished)

        try:
            await keep_seat(
                self,
                attempt,
                RECONNECT,
                on_retry=lambda reason, delay, _: self._retry(game, reason, delay),
                wait_for_resume=True,
            )
        except CroupierError as exc:
            self.lost = str(exc)
            game.end("disconnected")
            return
        except RpcError as exc:  # the seat was not given back: the table is gone
            self.lost = f"the server came back without table {self.table}: {exc}"
            game.end("disconnected")
            return
        if self.final is not None:
            await self._finished(game, self.final, seat)

    def _retry(self, game: Game, reason: str, delay: float) -> None:
        """The connection is lost: the decision on screen is void; say why once (a server
        restarting has said so), then the next try on one line that each try rewrites."""
        self.withdraw()
        log = game.view.log
        line = f"{RETRY} {delay:g} s (Q quits)"
        if game.away and log and log[-1].startswith(RETRY):
            log[-1] = line
        else:
            if not self.resuming:
                game.view.say(f"Lost the connection to the server ({reason})")
            game.view.say(line)
        game.away = True
        game.redraw()

    async def _take_back(self, client: Client, game: Game) -> bool:
        """``table.rejoin`` on ``client``; False when the table has finished meanwhile."""
        assert self.token is not None
        async with self.gate.taking(self._notified):
            back, final = await take_back(client, self.token, self.table, True, [])
            if back is None:
                self.final = final
                return False
            self.failures, self.resuming = 0, False
            self._back(game, back["info"])
        return True

    def _back(self, game: Game, info: dict[str, Any]) -> None:
        """Seated again: the chips are the table's (a round the server had not settled
        when it stopped is played again from its start)."""
        game.away = False
        game.view.chips = int(info["chips"][(self.seat or 1) - 1])
        game.view.say(f"Back at table {self.table}, seat {self.seat}: the game goes on")
        game.redraw()

    async def give_up_seat(self) -> None:
        """Give the seat up (Q, Ctrl-C): on the connection in use if it is still open, or
        on a connection of its own."""
        if self.token is None:
            return
        if self.client is not None and not self.client.session.closed:
            with trio.move_on_after(LEAVE_TIME), contextlib.suppress(Exception):
                await self.client.call("table.leave", self.token)
                return
        await leave_table(self.where.host, self.where.port, NAME, self.token)

    @staticmethod
    async def _finished(game: Game, final: dict[str, Any], seat: int) -> None:
        chips = final["chips"][seat - 1]
        if chips < final["rules"]["min_bet"]:
            await game.game_over("You are out of chips: the game is over", "Out of chips.", "broke")
        else:
            reason = final.get("reason") or "finished"
            await game.game_over(f"The table has finished: {reason}", "Table closed.", "finished")


async def while_recovering(call: Callable[[], Awaitable[Any]]) -> Any:
    """``call()``, asked again while the server answers ``recovering`` (just restarted, still
    rebuilding the table), backing off as the SDK does, for up to
    :data:`~croupier.clients.bot.reconnect.RECOVERY_WAIT` seconds in all."""
    tries = 0
    while True:
        try:
            return await call()
        except RpcError as exc:
            if exc.code != Code.RECOVERING:
                raise
            tries += 1
            if reconnect_window(tries) > RECOVERY_WAIT:
                raise CroupierError(f"the server is still recovering: {exc.message}") from None
            await trio.sleep(retry_delay(tries))


async def play_remote(
    where: Where,
    open_screen: Callable[[], contextlib.AbstractContextManager[Screen]],
    make_hint: Callable[[BlackjackRules], Hint | None],
) -> Outcome:
    """Connect, find or create the table, open the screen and play (see the module doc)."""
    me = RemoteSeat(where)
    async with me.connection() as client:
        me.client = client
        info, seat = await me.find_table(client)
        if info.get("game", "blackjack") != "blackjack":
            raise CroupierError(
                f"table {info['table']} plays {info['game']}: croupier play --game {info['game']}"
            )
        me.table, me.seat = int(info["table"]), seat
        rules = rules_from_options(BlackjackRules(), dict(info["rules"]))
        hint = make_hint(rules)
        chips = int(info["chips"][seat - 1])
        # a live table shows its seed to nobody: the seed this client gave it, if any
        seed = where.create.get("seed") if info.get("seed") is None else info["seed"]
        title = f"{info['rule_set']} (table {me.table}, seed {'hidden' if seed is None else seed})"
        view = TableView(seat, chips, title)
        short = time_text(me.table, info["decision_time"])
        if short is not None:  # said at once and again with the first prompt
            view.say(short)
            view.notice = short
        waiting = [s["seat"] for s in info["seats"] if s["kind"] == "free" and s["seat"] != seat]
        if waiting:
            players = "player" if len(waiting) == 1 else "players"
            view.say(f"Table {me.table} waits for {len(waiting)} more {players}; a bot sits with")
            view.say(f"croupier bot NAME --connect {where.host}:{where.port} --table {me.table}")
        with open_screen() as screen:
            game = Game(screen, view, hint)
            me.game, me.person = game, PersonPlayer(game)
            await game.session(lambda: me.play(client, game, seat))
            # the seat is given up before its pending decision is withdrawn: a withdrawn
            # decision is one the table plays its default for, not the person's any more
            if game.ended in ("quit", "interrupted", "lost"):
                await me.give_up_seat()
            await me.withdrawn()
    return Outcome(game.ended or "quit", view.tally, info, me.lost)


def run_remote(
    where: Where,
    open_screen: Callable[[], contextlib.AbstractContextManager[Screen]],
    make_hint: Callable[[BlackjackRules], Hint | None],
) -> Outcome:
    """:func:`play_remote` under trio, with the session's signal handling."""
    try:
        try:
            outcome: Outcome = run_session(play_remote, where, open_screen, make_hint)
        except BaseExceptionGroup as group:
            raise unwrap_group(group) from None
    except RpcError as exc:
        raise CroupierError(f"the server refused: {exc}") from None
    except ConnectionClosed as exc:
        raise CroupierError(f"lost the connection to {where.host}:{where.port}: {exc}") from None
    return outcome
