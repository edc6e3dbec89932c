"""A table on the server: its seats, the remote players in them, its watchers, its run.

A :class:`ServerTable` wraps the engine's :class:`~croupier.engine.gametable.GameTable`
(a table of any game: blackjack is one). Each seat
is played by a built-in strategy or by a bot connection holding the seat's token
(:class:`RemotePlayer`); the engine enforces the decision time and the defaults, so a
silent, broken or absent bot costs its own seat a default (stand), never the table a
stall. Events go to every subscriber (watchers, and seated bots that asked for events when
they sat down) through a bounded queue and a sender task each, so a slow watcher never
slows the table: one whose queue overflows is dropped. A bot seated without events gets
only the table's ``table.status`` notifications.

Its seats are :mod:`.seats`, its rounds :mod:`.play`, the scoring of its decisions
:mod:`.scoring`.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import partial
from typing import Any

import trio

from croupier.engine import CroupierError, PluginManager
from croupier.engine.games import Game
from croupier.engine.gametable import GamePlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.engine.scoring import oracle_for
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.keys import new_secret
from croupier.protocol.ownership import Ownership
from croupier.protocol.subscribers import Feed, Subscriber
from croupier.protocol.tables.play import play_rounds
from croupier.protocol.tables.scoring import score_decisions
from croupier.protocol.tables.seats import RemotePlayer, Seat
from croupier.protocol.transport.server import Connection, RpcServer
from croupier.protocol.workers import game_plugin_bug

log = logging.getLogger("croupier.tables")


EVENT_NOTIFICATION = "table.event"
STATUS_NOTIFICATION = "table.status"


class ServerTable:
    """One table of the tables service: created, waiting for its seats, playing, finished."""

    def __init__(
        self,
        server: RpcServer,
        table_id: int,
        *,
        rule_set: str | None,
        commitment: SeedCommitment,
        seats: int,
        fill: list[str | None],
        fill_players: dict[int, GamePlayer],
        rounds: int | None,
        decision_time: float,
        autostart: bool,
        vacant_timeout: float,
        owner: Ownership,
        game: Game,
        options: dict[str, Any],
        scored: bool = False,
        score_bets: bool = False,
    ) -> None:
        self.server = server
        self.scored = scored
        """Every decision is scored against the game's oracle, off the table's path: the
        questions are answered in a thread while the table plays on."""
        self.score_bets = score_bets
        """Its bets are valued by their round's exact edge too (:attr:`Scorer.bets`)."""
        self.game = game
        self.options = options
        """The game's complete options (``game.rules()``)."""
        self.min_chips = game.seat_minimum(options)
        """The fewest chips a seat needs to play a round."""
        self.owner = owner
        self.id = table_id
        self.rule_set = rule_set
        self.commitment = commitment
        """Its seed and salt: only their commitment is shown until it finishes."""
        self.seats = [
            Seat(i + 1, strategy=fill[i] if i < len(fill) else None) for i in range(seats)
        ]
        self.fill_players = fill_players
        self.rounds = rounds
        self.decision_time = decision_time
        self.autostart = autostart
        self.vacant_timeout = vacant_timeout
        self.state = "waiting"
        self.reason: str | None = None
        self.played = 0
        self.engine: GameTable | None = None
        self.feed = Feed(server.spawn, f"table {table_id}")
        """The table's notifications and their subscribers (one fan-out for them all)."""
        self.subscribers: dict[int, Subscriber] = self.feed.subscribers
        self.stop_requested = False
        self.stop_reason = "the server is shutting down"
        self.resume_later = False
        """Stopped by the server's shutdown with a journal: the journal keeps the table
        unfinished (its settled rounds are all there), so the restarted server resumes it."""
        self._scope = trio.CancelScope()
        self.paused: str | None = None
        """Why the table deals nothing now (its journal cannot write), or None."""
        self.pause_scope: trio.CancelScope | None = None
        self.abandon_pending = False
        self.done = trio.Event()
        self.scores_in = trio.Event()
        """Set once a scored table has finished and every answer of its oracle is in (and
        handed to the journal)."""
        self._seat_changed = trio.Event()

    # -- seats -----------------------------------------------------------------------------
    @property
    def has_bots(self) -> bool:
        return any(seat.strategy is None for seat in self.seats)

    def take(
        self, seat: Seat, conn: Connection, events: bool = True, auto: frozenset[str] = frozenset()
    ) -> str:
        """Give ``seat`` to ``conn`` (with the table's events or not, leaving the ``auto``
        phases to the server); its new token."""
        seat.token = new_secret()
        seat.conn, seat.bot, seat.auto = conn, conn.client, auto
        self.server.journal.table_seat(self.id, seat.describe(), seat.token)
        self.subscribe(conn, events)
        self.seat_changed()
        return seat.token

    def seat_changed(self) -> None:
        self._seat_changed.set()
        self._seat_changed = trio.Event()

    async def wait_seats(self) -> None:
        """Until a seat changes hands (taken, taken back, left, lost)."""
        await self._seat_changed.wait()

    def ready(self) -> bool:
        return all(not seat.free for seat in self.seats)

    # -- subscribers -----------------------------------------------------------------------
    def subscribe(self, conn: Connection, events: bool = True) -> None:
        """Send the table's notifications to ``conn``; ``events`` False: ``table.status``
        only (a connection that asked for events once, e.g. to watch, keeps them)."""
        self.feed.subscribe(conn, events)
        conn.session.keepalive.add(f"table {self.id}")

    def watchers_from(self, host: str) -> int:
        """Connections from ``host`` getting this table's events that hold no seat at it."""
        seated = {seat.conn.id for seat in self.seats if seat.conn is not None}
        return sum(
            1
            for sub in self.subscribers.values()
            if sub.events
            and not sub.dropped
            and sub.conn.id not in seated
            and sub.conn.host == host
        )

    def unsubscribe(self, conn: Connection) -> None:
        self.feed.unsubscribe(conn)
        conn.session.keepalive.discard(f"table {self.id}")

    def broadcast(self, method: str, params: list[Any]) -> None:
        self.feed.publish(method, params, method == EVENT_NOTIFICATION)

    def broadcast_status(self) -> None:
        """Tell every subscriber the table as it is now (``table.status``)."""
        self.broadcast(STATUS_NOTIFICATION, [self.id, self.info()])

    def _listeners(self) -> list[Callable[[dict[str, Any]], None]]:
        """The engine's listeners of this table's events: the journal's (which keeps them
        for the round's row), then :meth:`_on_event`."""
        record = self.server.journal.table_listener(self.id)
        return [self._on_event] if record is None else [record, self._on_event]

    def _on_event(self, data: dict[str, Any]) -> None:
        if data["kind"] == "default":
            log.info("table %d: %s", self.id, data["text"])
        if self.feed.wants_events():
            self.broadcast(EVENT_NOTIFICATION, [self.id, data])

    @property
    def seed(self) -> int:
        return self.commitment.seed

    @property
    def revealed(self) -> bool:
        """Finished for good (not stopped to resume after a restart): its seed is public."""
        return self.state == "finished" and not self.resume_later

    # -- running ---------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The table as plain data (``table.info``, ``table.list``, ``table.status``): its
        seed and salt are nil, and only their commitment is shown, until it finishes."""
        chips = self.options["starting_chips"]
        out: dict[str, Any] = {
            "table": self.id,
            "game": self.game.name,
            "state": self.state,
            "rule_set": self.rule_set,
            "rules": dict(self.options),
            **self.commitment.public(self.revealed),
            "seats": [seat.describe() for seat in self.seats],
            "rounds": self.rounds,
            "played": self.played,
            "decision_time": None if math.isinf(self.decision_time) else self.decision_time,
            "reason": self.reason,
            "min_chips": self.min_chips,
            "chips": [chips] * len(self.seats),
            "hands": [0] * len(self.seats),
            "house": 0,
        }
        if self.engine is not None:
            balances = self.engine.ledger.balances
            out["chips"] = [balances[seat_account(seat.index)] for seat in self.seats]
            out["hands"] = list(self.engine.tally.hands)
            out["house"] = balances["house"]
        if self.engine is not None and self.engine.scorer is not None:
            scorer = self.engine.scorer
            out["scores"] = [
                scorer.card(seat.index, answered=True).to_dict() for seat in self.seats
            ]
        if self.paused is not None:
            out["paused"] = self.paused
        return out

    def players(self) -> list[GamePlayer]:
        """Each seat's player: its strategy, or the bot holding it (:class:`RemotePlayer`)."""
        return [
            self.fill_players[seat.index] if seat.strategy is not None else RemotePlayer(self, seat)
            for seat in self.seats
        ]

    def resumed(self, engine: GameTable, played: int) -> None:
        """Take ``engine``, a game table replayed to the end of round ``played`` (crash
        recovery), as this table's: its events come here from now on."""
        engine.listeners = self._listeners()
        self.engine, self.state, self.played = engine, "playing", played
        if engine.scorer is not None:  # the rounds not scored before the restart
            engine.scorer.table = self.id
            engine.scorer.bets = self.score_bets
            self.server.spawn(partial(score_decisions, self), f"table {self.id} scoring")

    def start(self, manager: PluginManager) -> None:
        """Seat the players and play in the background. Should the engine refuse the table
        (a dealer or betting plugin rejecting its rules), the table finishes at once, so it
        never holds a table slot while waiting for nothing."""
        players = self.players()
        try:
            oracle = None
            if self.scored:
                oracle = oracle_for(manager, self.game.name).new(self.options)
            self.engine = GameTable(
                self.game,
                self.options,
                self.seed,
                players,
                decision_time=self.decision_time,
                listeners=self._listeners(),
                stalls=self.server.loop_watch.stalled,
                oracle=oracle,
                defer_scoring=True,
            )
            if self.engine.scorer is not None:
                self.engine.scorer.table = self.id
                self.engine.scorer.bets = self.score_bets
        except CroupierError:
            self.finish("internal error: the table could not start")
            raise
        except Exception as exc:
            said = game_plugin_bug(manager, self.game, exc)
            self.finish(said)
            raise RpcError(Code.INTERNAL_ERROR, said) from None
        self.state = "playing"
        self.seat_changed()
        log.info("table %d starts (%s, seed %d)", self.id, self.rule_set, self.seed)
        info = self.info()
        self.server.journal.table_started(info)
        self.broadcast(STATUS_NOTIFICATION, [self.id, info])
        self.server.spawn(self.run, f"table {self.id}")
        if self.engine.scorer is not None:
            self.server.spawn(partial(score_decisions, self), f"table {self.id} scoring")

    async def run(self) -> None:
        assert self.engine is not None
        reason = "stopped with the server"  # the server's tasks cancelled from outside
        try:
            with self._scope:
                reason = await play_rounds(self, self.engine)
            if self._scope.cancelled_caught:  # stopped to resume: the round is dealt again
                reason = self.stop_reason
        except Exception as exc:
            reason = game_plugin_bug(self.server.manager, self.game, exc)
        finally:
            self.finish(reason)

    async def expire_unclaimed(self, timeout: float) -> None:
        """Finish a waiting table once no seat has held a connected bot for ``timeout``
        seconds: a table nobody comes to (or whose bots all went away before it started)
        must not hold one of the server's table slots for ever."""
        while self.state == "waiting":
            if any(seat.present for seat in self.seats):
                await self._seat_changed.wait()
                continue
            with trio.move_on_after(timeout):
                while self.state == "waiting" and not any(seat.present for seat in self.seats):
                    await self._seat_changed.wait()
            if self.state == "waiting" and not any(seat.present for seat in self.seats):
                if self.has_bots:
                    self.finish(f"no bot in any seat for {timeout:g} s")
                else:  # strategies only, held for table.start (autostart false)
                    self.finish(f"not started within {timeout:g} s")

    def finish(self, reason: str) -> None:
        """Mark the table finished, tell its subscribers and close their queues."""
        if self.state == "finished":
            return
        self.state, self.reason = "finished", reason
        self.seat_changed()  # wakes whatever waits on the seats
        if self.resume_later:
            # not finished for the journal, nor for the bots: they reconnect after the restart
            log.info("table %d stops after %d rounds; it resumes on restart", self.id, self.played)
        else:
            log.info("table %d finished after %d rounds: %s", self.id, self.played, reason)
            info = self.info()
            self.server.journal.table_finished(info)
            self.broadcast(STATUS_NOTIFICATION, [self.id, info])
        self.feed.close()
        for sub in self.subscribers.values():
            sub.conn.session.keepalive.discard(f"table {self.id}")
        self.done.set()

    def stop(self, reason: str = "the server is shutting down", grace: float | None = None) -> None:
        """Finish after the hand in progress (a waiting table finishes at once), giving the
        rest of the hand ``grace`` seconds in all (default: what is left of the server's
        shutdown grace), so neither a table with no time limit nor a row of silent players
        can hold it up."""
        if not self.stop_requested:
            self.stop_requested, self.stop_reason = True, reason
        if self.resume_later:
            # the round in progress is not finished under a shutdown's time limit (its
            # bots would get defaults): it is left, as a crash leaves it, and dealt again
            self._scope.cancel()
        self.seat_changed()
        if self.pause_scope is not None:
            self.pause_scope.cancel()  # a paused table stops without waiting for its journal
        if self.engine is not None:
            self.engine.limit_decisions(self.server.shutdown_left() if grace is None else grace)
        if self.state == "waiting":
            self.finish(reason)

    def orphaned(self) -> bool:
        """Its creator has left and no bot of its own is connected: nobody is playing."""
        return (
            self.state != "finished"
            and not self.owner.present
            and not any(seat.present for seat in self.seats)
        )

    async def end_if_abandoned(self, after: float) -> None:
        """Stop the table if it is still orphaned ``after`` seconds from now."""
        await trio.sleep(after)
        self.abandon_pending = False
        if self.orphaned():
            log.info("table %d: abandoned by its creator", self.id)
            self.stop("abandoned: its creator left and no bot plays at it", after)

    async def flush(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for every subscriber to get what was queued."""
        with trio.move_on_after(timeout):
            for sub in list(self.subscribers.values()):
                await sub.flushed()
