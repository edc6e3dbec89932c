"""A tournament on the server: its entries, its ``tcp`` seats, its run and its status.

A :class:`ServerTournament` waits for its ``tcp`` seats, then plays with the engine's
:func:`~croupier.engine.tournament_run.play_tournament` in the server's loop, the tables of
a round at once. A ``tcp`` seat's player calls ``decide`` on the connection holding the
seat; an absent, silent or broken bot gets the engine's default, like a silent table bot.
Its entries are :mod:`.entries`; status notifications go through a
:class:`~croupier.protocol.subscribers.Feed` (one fan-out for every watcher).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.engine.games import GameStrategy
from croupier.engine.tournament import TableJob, TableResult, Tournament, TournamentConfig
from croupier.engine.tournament_run import TournamentResult, play_tournament
from croupier.protocol.commitment import SeedCommitment, new_salt
from croupier.protocol.keys import new_secret, same_digest, same_secret
from croupier.protocol.ownership import Ownership
from croupier.protocol.seat_answers import Outcome, pack
from croupier.protocol.subscribers import Feed, Subscriber
from croupier.protocol.tournaments.entries import ServerStrategyEntry, TcpEntry, TcpSeat
from croupier.protocol.tournaments.live import LiveView
from croupier.protocol.tournaments.results import result_to_dict
from croupier.protocol.transport.server import Connection, RpcServer
from croupier.protocol.valuing import value_questions
from croupier.protocol.workers import game_plugin_bug

log = logging.getLogger("croupier.tournaments")

STATUS_NOTIFICATION = "tournament.status"
TCP = "tcp"
CONCURRENCY = 64
"""Tables played at once: TCP bots answer many tables' decisions concurrently."""


class ServerTournament:
    """One tournament of the service: waiting for its ``tcp`` bots, playing, finished."""

    def __init__(
        self,
        server: RpcServer,
        tournament_id: int,
        config: TournamentConfig,
        rule_set: str | None,
        bots: list[str],
        strategies: dict[str, GameStrategy],
        join_time: float,
        owner: Ownership,
        join_key: str | None,
        salt: str | None = None,
    ) -> None:
        self.server = server
        self.commitment = SeedCommitment(config.seed, new_salt() if salt is None else salt)
        """Its seed (``config.seed``) and salt: only their commitment is shown until it
        finishes (the seed fixes every table's cards)."""
        self.owner = owner
        self.join_key = join_key
        """The secret a bot needs to take a ``tcp`` seat (None: any bot may)."""
        self.join_key_sha256: str | None = None
        """A recovered tournament's join key, by hash (the journal keeps no key in clear)."""
        self.stop_reason: str | None = None
        self.resume_later = False
        """Stopped by the server's shutdown with a journal: left unfinished in it, so the
        restarted server resumes it from its booked tables."""
        self.abandon_pending = False
        self.id = tournament_id
        self.config = config
        self.rule_set = rule_set
        self.bots = bots
        self.strategies = strategies
        self.join_time = join_time
        self.tcp = [TcpSeat(i + 1) for i, bot in enumerate(bots) if bot == TCP]
        self.state = "waiting"
        self.reason: str | None = None
        self.names: list[str] = []
        self.done_runs = 0
        self.result: TournamentResult | None = None
        self.live: LiveView | None = None
        self.paused: str | None = None
        """Why it deals no table now (its journal cannot write), or None."""
        self._pause_scopes: set[trio.CancelScope] = set()
        """The standings, tables and chip curves while it plays (then as it ended)."""
        self.feed = Feed(server.spawn, f"tournament {tournament_id}", limit=1000)
        """The tournament's notifications and their subscribers."""
        self.subscribers: dict[int, Subscriber] = self.feed.subscribers
        self.done = trio.Event()
        self.scope = trio.CancelScope()
        self.known: dict[tuple[int, int, int], TableResult] = {}
        """Tables played before a restart, by (tourney, round, table): booked, not replayed."""
        self.recorded = 0
        """Tables recorded in the journal so far (each one's position)."""
        self._answers: dict[trio.lowlevel.Task, dict[int, list[Outcome]]] = {}
        """The answers of the ``tcp`` entries at the table each task is dealing, by entry
        index (:meth:`answers_of`, :meth:`_table_answers`)."""
        self.recovered = False
        """Rebuilt from the journal: it waits for its tcp bots to come back, then goes on."""
        self._seated = trio.Event()
        """Every ``tcp`` seat has been taken."""
        self._present = trio.Event()
        """Every ``tcp`` seat is held by a connected bot (a recovered tournament waits for
        it, up to ``join_time``, before it plays on)."""

    # -- seats and subscribers ---------------------------------------------------------------
    def take(self, seat: TcpSeat, conn: Connection, auto: frozenset[str]) -> str:
        seat.token = new_secret()
        seat.conn, seat.bot, seat.auto = conn, conn.client, auto
        self.server.journal.tournament_seat(self.id, seat.index, conn.client, seat.token)
        self.subscribe(conn)
        self.seat_changed()
        return seat.token

    def may_join(self, key: str | None) -> bool:
        """``key`` opens a ``tcp`` seat: the join key (or its hash, once recovered), or
        anything when the tournament is open."""
        if self.join_key is None and self.join_key_sha256 is None:
            return True
        if not key:
            return False
        if self.join_key is not None:
            return same_secret(key, self.join_key)
        return same_digest(key, self.join_key_sha256 or "")

    def seat_changed(self) -> None:
        """A ``tcp`` seat was taken or taken back: wake what waits for them."""
        if all(s.held for s in self.tcp):
            self._seated.set()
        if all(s.present for s in self.tcp):
            self._present.set()

    def subscribe(self, conn: Connection) -> None:
        self.feed.subscribe(conn)
        conn.session.keepalive.add(f"tournament {self.id}")

    def unsubscribe(self, conn: Connection) -> None:
        self.feed.unsubscribe(conn)
        conn.session.keepalive.discard(f"tournament {self.id}")

    def _status(self, journal: bool = True) -> None:
        info = self.info()
        if journal:  # not the start of each round: the journal keeps the booked ones
            self.server.journal.tournament_status(info)
        self.feed.publish(STATUS_NOTIFICATION, [self.id, info])

    # -- info ------------------------------------------------------------------------------
    def _entry_names(self) -> list[str]:
        """Names in the standings: strategies by name, ``tcp`` seats by their bot's name
        (``tcp`` until joined), said ``NAME (tcp)`` when a strategy entered has that name
        (a bot called ``lim17`` beside the built-in ``lim17``); repeats get ``#2``, ``#3``
        ... as in the local tournament."""
        by_index = {seat.index: seat for seat in self.tcp}
        strategies = {bot for i, bot in enumerate(self.bots, start=1) if i not in by_index}
        names: list[str] = []
        seen: dict[str, int] = {}
        for i, bot in enumerate(self.bots, start=1):
            seat = by_index.get(i)
            name = (seat.bot or TCP) if seat is not None else bot
            if seat is not None and name in strategies:
                name = f"{name} (tcp)"
            seen[name] = seen.get(name, 0) + 1
            names.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
        return names

    @property
    def revealed(self) -> bool:
        """Finished for good (not stopped to resume after a restart): its seed is public."""
        return self.state == "finished" and not self.resume_later

    def info(self) -> dict[str, Any]:
        """The tournament as plain data: its seed and salt are nil, and only their
        commitment is shown, until it finishes."""
        names = self.names or self._entry_names()
        by_index = {seat.index: seat for seat in self.tcp}
        entries = []
        for i, name in enumerate(names, start=1):
            seat = by_index.get(i)
            entry: dict[str, Any] = {"entry": i, "kind": TCP if seat else "strategy", "name": name}
            if seat is not None:
                entry["joined"] = seat.held
                entry["connected"] = seat.present
            entries.append(entry)
        return {
            "tournament": self.id,
            "state": self.state,
            "reason": self.reason,
            "game": self.config.game,
            "rule_set": self.rule_set,
            "rules": dict(self.config.options),
            **self.commitment.public(self.revealed),
            "settings": {k: v for k, v in self.config.to_dict().items() if k != "seed"},
            "entries": entries,
            "join_time": self.join_time,
            "progress": {
                "done": self.done_runs,
                "total": self.config.tourneys * self.config.rounds,
            },
            "result": None if self.result is None else self.result.to_dict(),
            "live": None if self.live is None else self.live.to_dict(),
            **({} if self.paused is None else {"paused": self.paused}),
        }

    # -- running ---------------------------------------------------------------------------
    async def run(self, manager: PluginManager) -> None:
        reason = "internal error"
        try:
            with self.scope:
                reason = "the server is shutting down"
                if self.tcp and self.recovered:
                    # its bots are reconnecting: give them join_time to take their seats
                    # back, then play on (an absent bot's seat plays the default)
                    with trio.move_on_after(self.join_time):
                        await self._present.wait()
                elif self.tcp:
                    with trio.move_on_after(self.join_time):
                        await self._seated.wait()
                    if not self._seated.is_set():
                        joined = sum(s.held for s in self.tcp)
                        reason = (
                            f"cancelled: {joined} of {len(self.tcp)} tcp bots joined within "
                            f"{self.join_time:g} s"
                        )
                        return
                reason = await self._play(manager)
        except Exception as exc:
            reason = game_plugin_bug(manager, manager.games.get(self.config.game), exc)
        finally:
            self.finish(reason)

    async def _rate(self) -> None:
        """Refit the ratings with this tournament's result, before it is said finished (so
        a client that saw it finish sees the leaderboard that counts it)."""
        if self.result is None or not self.server.journal.enabled:
            return
        from croupier.protocol.ratings import refit, results_of

        lock = self.server.state.setdefault("ratings-lock", trio.Lock())
        extra = results_of(self.result.to_dict())
        await refit(self.server.journal, self.id, lock, extra)

    async def _play(self, manager: PluginManager) -> str:
        self.names = self._entry_names()
        by_index = {seat.index: seat for seat in self.tcp}
        entries = [
            TcpEntry(name, self, by_index[i])
            if i in by_index
            else ServerStrategyEntry(name, self.strategies[bot])
            for i, (bot, name) in enumerate(zip(self.bots, self.names, strict=True), start=1)
        ]
        self.state = "playing"
        log.info(
            "tournament %d starts (%d entries, seed %d)", self.id, len(entries), self.config.seed
        )
        self._status()

        live = self.live = LiveView(self.names, self.config.starting_chips)

        def progress(runs: int) -> None:
            self.done_runs += runs
            live.booked()
            self._status()

        def started(tournament: Tournament, jobs: Sequence[TableJob]) -> None:
            live.started(tournament, jobs)
            self._status(journal=False)

        def on_table(result: TableResult) -> None:
            self.recorded += 1
            self.server.journal.tournament_table(
                self.id, self.recorded, result_to_dict(result), self._table_answers(result.job)
            )

        self.result = await play_tournament(
            manager,
            self.config,
            entries,
            concurrency=CONCURRENCY,
            progress=progress,
            started=started,
            stopping=lambda: self.stop_reason is not None,
            known=self.known,
            on_table=on_table if self.server.journal.enabled else None,
            gate=self._recordable if self.server.journal.enabled else None,
            settle=partial(value_questions, self.server),  # in scoring worker processes
        )
        if self.stop_reason is None:
            await self._rate()
        return self.stop_reason or "played"

    def answers_of(self, entry: int) -> list[Outcome]:
        """Where the ``tcp`` entry ``entry`` (its index) records its answers at the table
        being dealt. ``play_tournament``'s task deals a table from start to end, seats
        (``Entry.player``) to result (``on_table``), one table at a time: the table is the
        current task's."""
        table = self._answers.setdefault(trio.lowlevel.current_task(), {})
        return table.setdefault(entry, [])

    def _table_answers(self, job: TableJob) -> bytes | None:
        """The answers of the table the current task has just dealt, by seat, packed (None:
        it had no ``tcp`` seat); taken, so the task's next table starts afresh."""
        table = self._answers.pop(trio.lowlevel.current_task(), None)
        if not table:
            return None
        return pack({job.bots.index(entry) + 1: outcomes for entry, outcomes in table.items()})

    async def _recordable(self) -> None:
        """Before each table: while the journal cannot write, deal nothing it cannot record.
        Subscribers get a ``tournament.status`` whose info says why (``paused``), and
        another once play resumes; a stop ends the wait."""
        journal = self.server.journal
        if journal.failed is None or self.stop_reason is not None:
            return
        first = self.paused is None
        if first:
            self.paused = f"the server cannot write its journal ({journal.failed})"
            log.warning("tournament %d pauses: %s", self.id, self.paused)
            self._status(journal=False)
        with trio.CancelScope() as scope:
            self._pause_scopes.add(scope)
            try:
                await journal.writable()
            finally:
                self._pause_scopes.discard(scope)
        if self.paused is not None:
            self.paused = None
            log.info("tournament %d resumes: its journal writes again", self.id)
            self._status(journal=False)
        await trio.sleep(0)  # a journal closed meanwhile stays failed: never spin here

    def stop(self, reason: str) -> None:
        """Start no new table: the tables in play finish, and the result holds the
        standings so far (a tournament still waiting for its bots finishes at once)."""
        if self.stop_reason is None:
            self.stop_reason = reason
        for scope in list(self._pause_scopes):  # a paused one stops without its journal
            scope.cancel()
        if self.state == "waiting":
            self.scope.cancel()
            self.finish(reason)

    def orphaned(self) -> bool:
        """Its creator has left and none of its ``tcp`` bots is connected."""
        return (
            self.state != "finished"
            and not self.owner.present
            and not any(seat.present for seat in self.tcp)
        )

    async def end_if_abandoned(self, after: float) -> None:
        """Stop the tournament if it is still orphaned ``after`` seconds from now."""
        await trio.sleep(after)
        self.abandon_pending = False
        if self.orphaned():
            log.info("tournament %d: abandoned by its creator", self.id)
            self.stop("abandoned: its creator left and none of its tcp bots is connected")

    def finish(self, reason: str) -> None:
        if self.state == "finished":
            return
        self.state, self.reason = "finished", reason
        if self.resume_later:
            # the journal keeps it unfinished, with its booked tables: it resumes on restart
            log.info("tournament %d stops; it resumes on restart", self.id)
        else:
            log.info("tournament %d finished: %s", self.id, reason)
            self._status()
        self.feed.close()
        for sub in self.subscribers.values():
            sub.conn.session.keepalive.discard(f"tournament {self.id}")
        self.done.set()
