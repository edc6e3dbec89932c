"""Bot slots: a place on the server a remote bot holds with a token (a table's seat, a
tournament's ``tcp`` entry), and the player that asks that bot for its decisions.

Shared by :mod:`~croupier.protocol.tables.run` and :mod:`~croupier.protocol.tournaments.run`:
both ask ``decide(game, observation)`` on the bot's connection (``game`` is the table or
tournament id), answer themselves the phases the bot left to the server, and hand the
engine :class:`SeatVacant` for an absent bot, so that it plays the default.
"""

from __future__ import annotations

from typing import Any, NoReturn, cast

import attrs
import trio

from croupier.engine import CroupierError
from croupier.engine.errors import PlayerAbsent, shown
from croupier.engine.games import Game, Plain
from croupier.protocol.errors import CallTimeout, Code, ConnectionClosed, RpcError
from croupier.protocol.keys import same_digest, same_secret
from croupier.protocol.transport.calls import Call
from croupier.protocol.transport.server import Connection


class SeatVacant(PlayerAbsent):
    """Raised to the engine when an empty or abandoned seat must decide: it gets the
    turn's action for a seat nobody holds (a sit-out where the game has one), else the
    default, like a silent bot."""


@attrs.define(eq=False)
class BotSlot:
    """A place a remote bot holds with ``token`` (``conn`` None while it is disconnected);
    a table's seat and a tournament's ``tcp`` entry are both one."""

    index: int
    token: str | None = None
    conn: Connection | None = None
    bot: str | None = None
    auto: frozenset[str] = frozenset()
    """Phases the server answers for the bot with the phase's default (no round trip)."""
    token_sha256: str | None = None
    """A recovered slot's token as the journal keeps it (its hash): the bot's ``rejoin``
    with the token it holds takes the slot back (:func:`holds`)."""

    @property
    def held(self) -> bool:
        """A bot holds the slot by its token (connected or not; known by hash after a
        restart)."""
        return self.token is not None or self.token_sha256 is not None

    @property
    def present(self) -> bool:
        """A bot holds the slot and its connection is open."""
        return self.conn is not None and not self.conn.session.closed


def holds(slot: BotSlot, token: str) -> bool:
    """True when ``token`` is the slot's (compared in constant time). After a lost
    connection, or after the server restarted and rebuilt its tables and tournaments from
    the journal, a bot takes its slot back (``table.rejoin``, ``tournament.rejoin``) with the
    token it got when it took it: a slot held since knows its token, a recovered one only
    the token's SHA-256 (the journal never keeps a token in clear), so the token is compared
    by its hash, and then kept again."""
    if slot.token is not None:
        return same_secret(token, slot.token)
    if slot.token_sha256 is None:
        return False
    return same_digest(token, slot.token_sha256)


def may_sit(conn: Connection) -> None:
    """A watcher takes no slot."""
    if conn.role == "watcher":
        raise RpcError(Code.BAD_INPUT, "a watcher cannot take a seat; say hello as a bot")


def check_auto(auto: list[Any], game: Game) -> frozenset[str]:
    """The ``auto`` parameter of ``table.join``/``table.rejoin``/``tournament.join``: phases
    ``game`` lets a bot leave to the server (blackjack's: the minimum bet, no insurance, no
    early surrender, answered without a ``decide`` round trip)."""
    phases = tuple(game.auto_phases)
    wrong = [p for p in auto if p not in phases]
    if wrong:
        allowed = ", ".join(phases) or f"none at {game.name}"
        raise RpcError(Code.BAD_INPUT, f"auto phases are {allowed}, not {wrong[0]!r}")
    return frozenset(auto)


class SlotPlayer:
    """A bot slot's :class:`~croupier.engine.gametable.GamePlayer`: asks the bot holding it
    over its connection (``decide(game, observation)``: ``game`` is the table or tournament id)
    and answers itself for the phases the bot left to the server (``auto``); an absent bot
    raises :class:`SeatVacant`, so the engine plays its default."""

    def __init__(self, slot: BotSlot, game: int, decision_time: float, played: Game) -> None:
        self.slot = slot
        self.game = game
        self.decision_time = decision_time
        self.played = played
        """The game played: its auto phases and its reader of answers."""

    async def before_call(self, conn: Connection) -> None:
        """Called before each ``decide`` on ``conn`` (a table flushes its events here)."""

    def decide_at_once(self, observation: Plain) -> Plain | None:
        """The answer when the bot need not be asked (:class:`SeatVacant` for an absent
        bot; the phase's default for a phase it left to the server), with no round trip and
        no task; None: the table asks :meth:`decide`."""
        if self.slot.conn is None or not self.slot.present:
            raise SeatVacant("no bot in the seat")
        auto = self.played.auto_phases
        phase = observation.get("phase")
        if phase in self.slot.auto and phase in auto and observation.get("refused") is None:
            return auto[phase](observation)
        return None

    async def ask(self, observation: Plain) -> PendingDecision:
        """Put the decision to the bot: its events flushed (:meth:`before_call`), then the
        ``decide`` request written; the answer arrives through the connection's reader
        while the table waits for it under its decision clock (no task per decision:
        :meth:`~croupier.engine.decisions.DecisionClock.answer_pending`)."""
        conn = self.slot.conn
        if conn is None or not self.slot.present:
            raise SeatVacant("no bot in the seat")
        await self.before_call(conn)
        try:
            call = await conn.session.begin_call("decide", [self.game, observation])
        except ConnectionClosed:
            raise SeatVacant("the bot's connection closed") from None
        return PendingDecision(self, conn, call)

    async def decide(self, observation: Plain) -> Plain:
        """The bot's answer, read by the game (blackjack's text shorthand included); the
        table checks it. (A table asks with :meth:`decide_at_once` and :meth:`ask`.)"""
        answer = self.decide_at_once(observation)
        if answer is not None:
            return answer
        pending = await self.ask(observation)
        try:
            with trio.move_on_after(self.decision_time + 1.0):  # the engine's limit first
                await pending.done.wait()
            if not pending.done.is_set():
                pending.failed(CallTimeout("decide", self.decision_time + 1.0))
            return pending.result()
        finally:
            pending.close()


class PendingDecision:
    """A ``decide`` put to a slot's bot (a
    :class:`~croupier.engine.decisions.PendingAnswer`): ``done`` when the bot answered or
    its connection closed; :meth:`result` reads the answer or says what went wrong."""

    def __init__(self, player: SlotPlayer, conn: Connection, call: Call) -> None:
        self.player = player
        self.conn = conn
        self.call = call

    @property
    def done(self) -> trio.Event:
        return self.call.done

    def close(self) -> None:
        self.conn.session.end_call(self.call)

    def failed(self, exc: Exception) -> NoReturn:
        """The failure ``exc`` of the call as the table sees it: :class:`SeatVacant` for a
        bot that is gone, else a one-line :class:`CroupierError`."""
        slot = self.player.slot
        if isinstance(exc, ConnectionClosed):
            raise SeatVacant("the bot's connection closed") from None
        if not slot.present or slot.conn is not self.conn:
            # given up while it decided (a person who quit mid-decision): nobody is there
            raise SeatVacant("the seat was given up") from None
        if isinstance(exc, CallTimeout):
            raise CroupierError("the bot did not answer in time") from None
        message = exc.message if isinstance(exc, RpcError) else str(exc)
        said = shown(message, 80)
        raise CroupierError(f"the bot answered with an error: {said}") from None

    def result(self) -> Plain:
        try:
            answer = self.conn.session.result_of(self.call)
        except (ConnectionClosed, RpcError) as exc:
            self.failed(exc)
        read = self.player.played.read_action
        if read is not None:
            return read(answer)
        return cast(Plain, answer)
