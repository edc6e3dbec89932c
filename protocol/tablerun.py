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
"""

from __future__ import annotations

import logging
import math
from typing import Any

import attrs
import trio

from croupier.engine import CroupierError, PluginManager
from croupier.engine.games import Game
from croupier.engine.gametable import GamePlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.engine.oracle import Question, Valuation
from croupier.engine.scoring import oracle_for
from croupier.protocol.admission import peer_host
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.keys import new_secret
from croupier.protocol.ownership import Ownership
from croupier.protocol.server import Connection, RpcServer
from croupier.protocol.slots import BotSlot, SlotPlayer
from croupier.protocol.subscribers import WATCH_BUFFER, Subscriber
from croupier.protocol.workers import game_plugin_bug

log = logging.getLogger("croupier.tables")


def _answer_all(questions: list[Question]) -> list[Valuation]:
    return [q.valuation() for q in questions]


EVENT_NOTIFICATION = "table.event"
STATUS_NOTIFICATION = "table.status"


@attrs.define(eq=False)
class Seat(BotSlot):
    """A table's seat: a built-in ``strategy``, or a bot's slot, or free (no strategy, no
    token)."""

    strategy: str | None = None

    @property
    def free(self) -> bool:
        return self.strategy is None and not self.held

    def describe(self) -> dict[str, Any]:
        if self.strategy is not None:
            return {"seat": self.index, "kind": "strategy", "player": self.strategy}
        if not self.held:
            return {"seat": self.index, "kind": "free", "player": None}
        return {
            "seat": self.index,
            "kind": "bot",
            "player": self.bot,
            "connected": self.present,
        }


class RemotePlayer(SlotPlayer):
    """A table seat's player: the table's events reach the bot before each ``decide``."""

    def __init__(self, table: ServerTable, seat: Seat) -> None:
        super().__init__(seat, table.id, table.decision_time, table.game)
        self.table = table

    async def before_call(self, conn: Connection) -> None:
        sub = self.table.subscribers.get(conn.id)
        if sub is not None:
            await sub.flushed()


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
    ) -> None:
        self.server = server
        self.scored = scored
        """Every decision is scored against the game's oracle, off the table's path: the
        questions are answered in a thread while the table plays on."""
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
        self.subscribers: dict[int, Subscriber] = {}
        self.stop_requested = False
        self.stop_reason = "the server is shutting down"
        self.resume_later = False
        """Stopped by the server's shutdown with a journal: the journal keeps the table
        unfinished (its settled rounds are all there), so the restarted server resumes it."""
        self._scope = trio.CancelScope()
        self.paused: str | None = None
        """Why the table deals nothing now (its journal cannot write), or None."""
        self._pause_scope: trio.CancelScope | None = None
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
        known = self.subscribers.get(conn.id)
        if known is not None and not known.dropped:
            known.events = known.events or events
            return
        send, receive = trio.open_memory_channel[bytes](WATCH_BUFFER)
        sub = Subscriber(conn, send, receive, events)
        self.subscribers[conn.id] = sub
        conn.session.keepalive.add(f"table {self.id}")
        self.server.spawn(sub.pump, f"table {self.id} -> {conn}")

    def watchers_from(self, host: str) -> int:
        """Connections from ``host`` getting this table's events that hold no seat at it."""
        seated = {seat.conn.id for seat in self.seats if seat.conn is not None}
        return sum(
            1
            for sub in self.subscribers.values()
            if sub.events
            and not sub.dropped
            and sub.conn.id not in seated
            and peer_host(sub.conn.peer) == host
        )

    def unsubscribe(self, conn: Connection) -> None:
        sub = self.subscribers.pop(conn.id, None)
        if sub is not None:
            sub.send.close()
        conn.session.keepalive.discard(f"table {self.id}")

    def broadcast(self, method: str, params: list[Any]) -> None:
        event = method == EVENT_NOTIFICATION
        encoded: dict[int, bytes | RpcError] = {}
        for conn_id, sub in list(self.subscribers.items()):
            if event and not sub.events:
                continue
            if not sub.put(sub.encode(method, params, encoded)):
                if not sub.conn.session.closed:
                    log.warning(
                        "table %d: %s dropped as a watcher (%s)", self.id, sub.conn, sub.reason
                    )
                self.subscribers.pop(conn_id, None)
                sub.conn.session.keepalive.discard(f"table {self.id}")

    def _on_event(self, data: dict[str, Any]) -> None:
        self.server.journal.table_event(self.id, data)
        if data["kind"] == "default":
            log.info("table %d: %s", self.id, data["text"])
        if any(sub.events for sub in self.subscribers.values()):
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

    async def _score(self) -> None:
        """Answer the oracle's questions in a thread, a batch at a time, while the table
        plays on (the table never waits on scoring); the last after it has finished. The
        rounds whose answers are all in go to the journal as they come."""
        assert self.engine is not None and self.engine.scorer is not None
        scorer = self.engine.scorer
        while True:
            finished = self.done.is_set()
            handle, questions = scorer.take_open()
            if questions:
                answers = await trio.to_thread.run_sync(_answer_all, questions)
                scorer.answer(handle, answers)
                settled = scorer.take_settled()
                if settled:  # kept: table.info and the history show them after a restart
                    self.server.journal.table_scores(self.id, settled)
            elif finished:  # every answer in: any subscriber still listening gets them
                self.broadcast(STATUS_NOTIFICATION, [self.id, self.info()])
                self.scores_in.set()
                return
            else:
                with trio.move_on_after(0.5):
                    await self.done.wait()

    def players(self) -> list[GamePlayer]:
        """Each seat's player: its strategy, or the bot holding it (:class:`RemotePlayer`)."""
        return [
            self.fill_players[seat.index] if seat.strategy is not None else RemotePlayer(self, seat)
            for seat in self.seats
        ]

    def resumed(self, engine: GameTable, played: int) -> None:
        """Take ``engine``, a game table replayed to the end of round ``played`` (crash
        recovery), as this table's: its events come here from now on."""
        engine.listeners = [self._on_event]
        self.engine, self.state, self.played = engine, "playing", played
        if engine.scorer is not None:  # the rounds not scored before the restart
            engine.scorer.table = self.id
            self.server.spawn(self._score, f"table {self.id} scoring")

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
                listeners=[self._on_event],
                stalls=self.server.loop_watch.stalled,
                oracle=oracle,
                defer_scoring=True,
            )
            if self.engine.scorer is not None:
                self.engine.scorer.table = self.id
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
            self.server.spawn(self._score, f"table {self.id} scoring")

    async def run(self) -> None:
        assert self.engine is not None
        reason = "stopped with the server"  # the server's tasks cancelled from outside
        try:
            with self._scope:
                reason = await self._play(self.engine)
            if self._scope.cancelled_caught:  # stopped to resume: the round is dealt again
                reason = self.stop_reason
        except Exception as exc:
            reason = game_plugin_bug(self.server.manager, self.game, exc)
        finally:
            self.finish(reason)

    async def _play(self, engine: GameTable) -> str:
        minimum = self.min_chips
        broke = self._broke(engine, minimum)
        while True:
            if self.stop_requested:
                return self.stop_reason
            if self.rounds is not None and self.played >= self.rounds:
                return f"{self.rounds} rounds played"
            if self.has_bots and not await self._someone_seated():
                return "every bot left"
            if self.server.journal.failed is not None:
                await self._paused()
                continue  # stopped meanwhile, perhaps
            quota = self.server.limits.journal_quota
            if quota and self.owner.host and self.server.journal.usage(self.owner.host) >= quota:
                return f"its creator's address used its journal quota ({quota:,} bytes)"
            if not await self._someone_can_stake(engine, minimum):
                return self._not_dealt(len(broke) == len(self.seats))
            if not await engine.play_round():
                return "no seat can pay the minimum"
            self.played += 1
            now_broke = self._broke(engine, minimum)
            if now_broke - broke:  # tell the seats (a bot that cannot play on leaves)
                for index in sorted(now_broke - broke):
                    log.info("table %d: seat %d cannot pay the minimum any more", self.id, index)
                self.broadcast(STATUS_NOTIFICATION, [self.id, self.info()])
            broke = now_broke
            if self.server.journal.enabled:
                balances = engine.ledger.balances
                chips = [balances[seat_account(seat.index)] for seat in self.seats]
                self.server.journal.table_round(self.id, self.played, chips)
                every = self.server.limits.checkpoint_every
                if every > 0 and self.played % every == 0:
                    self._checkpoint(engine)
                if self.server.journal.sync_rounds:  # serve --sync: durable before the next
                    await self.server.journal.durable(patient=True)
                else:
                    await self.server.journal.keep_up()  # never more than a moment ahead
            # A round of strategies and vacant seats never waits on anything: yield, so
            # that connections (a bot rejoining, a watcher) get their turn between rounds.
            await trio.sleep(0)

    def _not_dealt(self, all_broke: bool) -> str:
        """Why a table that will deal no more rounds finishes."""
        if self.stop_requested:
            return self.stop_reason
        return "no seat can pay the minimum" if all_broke else "nobody present can pay the minimum"

    def _broke(self, engine: GameTable, minimum: int) -> set[int]:
        """The seats with fewer chips than a round needs (``Game.seat_minimum``)."""
        balances = engine.ledger.balances
        return {s.index for s in self.seats if balances[seat_account(s.index)] < minimum}

    def _can_stake(self, engine: GameTable, minimum: int) -> bool:
        """A seat that someone plays (a strategy, a connected bot) has the minimum."""
        broke = self._broke(engine, minimum)
        return any(
            (seat.strategy is not None or seat.present) and seat.index not in broke
            for seat in self.seats
        )

    async def _someone_can_stake(self, engine: GameTable, minimum: int) -> bool:
        """True when a seat someone plays can pay the minimum. When only empty seats (a
        person who quit, a bot gone) can, no round is dealt (it would stake nothing, at
        full speed): the table waits up to ``vacant_timeout`` for one of them to come back,
        as it waits for absent bots, then gives up (False). At once when no seat can."""
        if self._can_stake(engine, minimum):
            return True
        if len(self._broke(engine, minimum)) == len(self.seats):
            return False
        log.info(
            "table %d: nobody present can pay the minimum; it waits up to %g s for a seat "
            "that can to come back",
            self.id,
            self.vacant_timeout,
        )
        with trio.move_on_after(self.vacant_timeout):
            while not self._can_stake(engine, minimum):
                if self.stop_requested:
                    return False
                await self._seat_changed.wait()
        return self._can_stake(engine, minimum)

    async def _paused(self) -> None:
        """The journal cannot write: deal nothing it cannot record. Seats and watchers get a
        ``table.status`` whose info says why (``paused``), and another once play resumes."""
        journal = self.server.journal
        self.paused = f"the server cannot write its journal ({journal.failed})"
        log.warning("table %d pauses: %s", self.id, self.paused)
        self.broadcast(STATUS_NOTIFICATION, [self.id, self.info()])
        try:
            with trio.CancelScope() as self._pause_scope:
                await journal.writable()
        finally:
            self._pause_scope = None
            self.paused = None
        log.info("table %d resumes: its journal writes again", self.id)
        self.broadcast(STATUS_NOTIFICATION, [self.id, self.info()])
        await trio.sleep(0)  # a journal closed meanwhile stays failed: never spin here

    def _checkpoint(self, engine: GameTable) -> None:
        """Write the table's state after this round to the journal (when its game can save
        it): a restarted server replays only the rounds after it."""
        try:
            state = engine.save_state()
        except Exception as exc:  # a game plugin's bug costs the checkpoint, not the table
            log.error("table %d: no checkpoint after round %d: %r", self.id, self.played, exc)
            return
        if state is not None:
            self.server.journal.table_checkpoint(self.id, self.played, state)

    async def _someone_seated(self) -> bool:
        """True when a bot holds a seat, waiting up to ``vacant_timeout`` for one to join."""
        with trio.move_on_after(self.vacant_timeout):
            while not any(seat.present for seat in self.seats):
                if self.stop_requested:
                    return False
                await self._seat_changed.wait()
        return any(seat.present for seat in self.seats)

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
        for sub in self.subscribers.values():
            sub.send.close()
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
        if self._pause_scope is not None:
            self._pause_scope.cancel()  # a paused table stops without waiting for its journal
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
