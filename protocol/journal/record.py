"""What the server records: tables, their seats and events, tournaments, as plain data.

The services call these methods with what they already have (a table's ``info()``, an
event map, a token); each turns into one queued write and returns at once.
:class:`NullJournal` records nothing (``croupier serve --data :memory:``, and tests): the
server then behaves as it did before it had a journal.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from croupier.engine.scoring import ScoredRound
from croupier.protocol import botkeys
from croupier.protocol.botkeys import BotKey
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.journal import queries, scores
from croupier.protocol.journal.packing import Packed
from croupier.protocol.journal.writer import JournalWriter, open_writer

MEMORY = ":memory:"
DAY = 86_400.0


def checkpoint_text(state: dict[str, Any]) -> str:
    """A table's saved state as the journal keeps it: compact JSON, keys sorted."""
    return json.dumps(state, separators=(",", ":"), sort_keys=True)


def token_hash(token: str | None) -> str | None:
    """A seat token as the journal keeps it: its hex SHA-256, never the token."""
    return None if token is None else hashlib.sha256(token.encode()).hexdigest()


class NullJournal:
    """No journal: every record is dropped, history is not available."""

    path = MEMORY
    enabled = False

    @property
    def failed(self) -> str | None:
        return None

    def check(self) -> None:
        """Raise the error a request for a new table or tournament gets when the journal
        cannot record it."""

    def last_id(self) -> int:
        return 0

    def usage(self, address: str) -> int:
        """Bytes of settled rounds the tables of ``address`` wrote since the server started."""
        return 0

    def new_run(self) -> int:
        """Record a start of the server; its number (0: no journal, no record)."""
        return 0

    async def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        raise RpcError(
            Code.BAD_INPUT,
            "this server keeps no journal (it was started with --data :memory:): no history",
        )

    async def aclose(self) -> None:
        pass

    async def keep_up(self) -> None:
        """Wait while the journal is too far behind (a table calls it after each round)."""

    async def durable(self, patient: bool = False) -> None:
        """Return once everything recorded so far is committed (``journal-failed`` should
        the journal fail meanwhile, unless ``patient``)."""

    async def writable(self) -> None:
        """Return once the journal writes (at once unless it failed)."""

    def announce(self, address: str) -> None:
        """Name the address the server listens on where a second server would see it."""

    sync_rounds = False
    """``serve --sync``: each settled round is committed before the next is dealt."""

    async def prune(self, keep_days: float, now: float | None = None) -> tuple[int, int]:
        return 0, 0

    # -- tables ------------------------------------------------------------------------------
    def table_created(
        self,
        info: dict[str, Any],
        settings: dict[str, Any],
        creator: str,
        key: str | None,
        seed: SeedCommitment,
        address: str = "",
    ) -> None:
        pass

    def table_recovered(self, table: int, last_event: int, game: str = "") -> None:
        pass

    def table_given_up(self, table: int, reason: str) -> None:
        pass

    def table_seat(self, table: int, seat: dict[str, Any], token: str | None) -> None:
        pass

    def table_event(self, table: int, event: dict[str, Any]) -> None:
        pass

    def table_round(self, table: int, round_: int, chips: list[int]) -> None:
        pass

    def table_started(self, info: dict[str, Any]) -> None:
        pass

    def table_checkpoint(self, table: int, round_: int, state: dict[str, Any]) -> None:
        pass

    def table_finished(self, info: dict[str, Any]) -> None:
        pass

    def table_scores(self, table: int, rounds: Sequence[ScoredRound]) -> None:
        pass

    # -- tournaments -------------------------------------------------------------------------
    def tournament_created(
        self,
        info: dict[str, Any],
        bots: list[str],
        creator: str,
        key: str | None,
        join_key: str | None,
        seed: SeedCommitment,
    ) -> None:
        pass

    def tournament_table(self, tournament: int, position: int, result: dict[str, Any]) -> None:
        pass

    def tournament_given_up(self, tournament: int, reason: str) -> None:
        pass

    def tournament_seat(self, tournament: int, entry: int, player: str | None, token: str) -> None:
        pass

    def tournament_status(self, info: dict[str, Any]) -> None:
        pass

    # -- registered bots ---------------------------------------------------------------------
    def bot_keys(self) -> list[BotKey]:
        """The registered bots (a server loads them at start)."""
        return []

    def bot_key_added(self, entry: BotKey) -> None:
        pass

    def bot_key_revoked(self, entry: BotKey) -> None:
        pass


class Journal(NullJournal):
    """The SQLite journal at ``path`` (see :mod:`croupier.protocol.journal`)."""

    enabled = True

    def __init__(
        self,
        path: str,
        synchronous: str = "NORMAL",
        sync_rounds: bool = False,
        compact: bool = True,
    ) -> None:
        self.path = path
        self.compact = compact
        """Settled rounds packed (schema 5); False: as JSON text, as before it (to compare)."""
        self._games: dict[int, str] = {}
        """Per table, its game (whose dictionary packs its rows)."""
        self._addresses: dict[int, str] = {}
        """Per table created while the server runs, its creator's address (the quota)."""
        self.writer: JournalWriter = open_writer(path, synchronous)
        self.sync_rounds = sync_rounds
        self._seq: dict[int, int] = {}
        """Per table, the number of its last event written."""
        self._pending: dict[int, list[dict[str, Any]]] = {}
        """Per table, the events of the round in progress (written when it settles)."""
        self._clock: Callable[[], float] = time.time

    @property
    def failed(self) -> str | None:
        return self.writer.failed

    def usage(self, address: str) -> int:
        return self.writer.usage.get(address, 0)

    def check(self) -> None:
        if self.writer.failed is not None:
            raise RpcError(
                Code.JOURNAL_FAILED,
                f"the server cannot write its journal ({self.writer.failed}); it takes no new "
                "tables or tournaments until it writes again",
            )

    def last_id(self) -> int:
        """The highest table or tournament id recorded (a restarted server goes on above)."""
        return int(
            self.writer.read_sync(
                lambda c: c.execute(
                    "SELECT max(coalesce((SELECT max(id) FROM tables), 0),"
                    " coalesce((SELECT max(id) FROM tournaments), 0))"
                ).fetchone()[0]
            )
        )

    def new_run(self) -> int:
        """Record a start of the server: its number, 1 on a fresh journal and one more at
        each start after (never reused, even once rows are deleted)."""

        def insert(conn: sqlite3.Connection) -> int:
            cursor = conn.execute("INSERT INTO runs (started) VALUES (?)", (self._clock(),))
            return int(cursor.lastrowid or 0)

        return int(self.writer.read_sync(insert))

    async def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        return await self.writer.read(fn)

    async def keep_up(self) -> None:
        await self.writer.keep_up()

    async def durable(self, patient: bool = False) -> None:
        await self.writer.durable(patient)

    async def writable(self) -> None:
        await self.writer.writable()

    def announce(self, address: str) -> None:
        self.writer.announce(address)

    async def aclose(self) -> None:
        await self.writer.aclose()

    async def prune(self, keep_days: float, now: float | None = None) -> tuple[int, int]:
        """Delete what finished more than ``keep_days`` days before ``now``; how many tables
        and tournaments went."""
        before = (self._clock() if now is None else now) - keep_days * DAY
        tables, tournaments = await self.writer.read(partial(queries.prune, before=before))
        return tables, tournaments

    def close(self) -> None:
        self.writer.close()

    # -- tables ------------------------------------------------------------------------------
    def table_created(
        self,
        info: dict[str, Any],
        settings: dict[str, Any],
        creator: str,
        key: str | None,
        seed: SeedCommitment,
        address: str = "",
    ) -> None:
        """A new table: ``info`` (its seed hidden) and ``seed``, its seed and salt;
        ``address``: its creator's, whose quota its rows count against (never recorded)."""
        self._games[info["table"]] = info["game"]
        if address:
            self._addresses[info["table"]] = address
        self.writer.put(
            "INSERT OR REPLACE INTO tables (id, game, rule_set, rules, seed, salt, chips,"
            " settings, creator, state, created, key_sha256)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                info["table"],
                info["game"],
                info["rule_set"],
                info["rules"],
                str(seed.seed),
                seed.salt,
                info["chips"],
                settings,
                creator,
                info["state"],
                self._clock(),
                token_hash(key),
            ),
        )
        for seat in info["seats"]:
            self.table_seat(info["table"], seat, None)

    def table_recovered(self, table: int, last_event: int, game: str = "") -> None:
        """A recovered table goes on numbering its events after ``last_event`` (the round
        that was in progress was never written)."""
        self._seq[table] = last_event
        self._games[table] = game
        self._pending.pop(table, None)

    def table_given_up(self, table: int, reason: str) -> None:
        """A table the restarted server does not carry on: finished, with why."""
        self.writer.put(
            "UPDATE tables SET state = 'finished', reason = ?, finished = ? WHERE id = ?",
            (reason, self._clock(), table),
        )
        self.writer.put("DELETE FROM checkpoints WHERE table_id = ?", (table,))

    def table_checkpoint(self, table: int, round_: int, state: dict[str, Any]) -> None:
        """The table's state after round ``round_`` (just written by :meth:`table_round`),
        replacing its previous checkpoint: queued after that round's row, so committed with
        it or after it, never before (recovery checks it against the row)."""
        data = checkpoint_text(state)
        digest = hashlib.sha256(data.encode()).hexdigest()
        self.writer.put(
            "INSERT OR REPLACE INTO checkpoints (table_id, round, last, digest, data)"
            " VALUES (?, ?, ?, ?, ?)",
            (table, round_, self._seq.get(table, 0), digest, data),
        )

    def table_seat(self, table: int, seat: dict[str, Any], token: str | None) -> None:
        self.writer.put(
            "INSERT OR REPLACE INTO seats (table_id, seat, kind, player, token_sha256)"
            " VALUES (?, ?, ?, ?, ?)",
            (table, seat["seat"], seat["kind"], seat["player"], token_hash(token)),
        )

    def table_event(self, table: int, event: dict[str, Any]) -> None:
        pending = self._pending.get(table)
        if pending is None:
            self._pending[table] = [event]
        else:
            pending.append(event)

    def table_round(self, table: int, round_: int, chips: list[int]) -> None:
        """Round ``round_`` settled: its events and the chips go in one write (a round is
        recorded whole or not at all; recovery deals the round in progress again), which the
        writer packs with the table's other rounds of its commit into one block."""
        self._write_events(table, round_, chips)

    def _write_events(self, table: int, round_: int | None, chips: list[int] | None) -> None:
        events = self._pending.pop(table, None)
        if not events:
            return
        first = self._seq.get(table, 0) + 1
        self._seq[table] = first + len(events) - 1
        data: Any = events
        if self.compact:  # the writer packs it, with the rounds committed beside it
            data = Packed(self._games.get(table, ""), events, chips, self._addresses.get(table, ""))
            chips = None
        self.writer.put(
            "INSERT INTO events (table_id, first, last, round, chips, data)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table, first, self._seq[table], round_, chips, data),
        )

    def table_started(self, info: dict[str, Any]) -> None:
        self.writer.put(
            "UPDATE tables SET state = ?, started = ? WHERE id = ?",
            (info["state"], self._clock(), info["table"]),
        )

    def table_finished(self, info: dict[str, Any]) -> None:
        self._write_events(info["table"], None, None)  # any after the last settled round
        events = self._seq.pop(info["table"], 0)
        self._games.pop(info["table"], None)
        self._addresses.pop(info["table"], None)
        self.writer.put("DELETE FROM checkpoints WHERE table_id = ?", (info["table"],))
        self.writer.put(
            "UPDATE tables SET state = ?, reason = ?, played = ?, events = ?, finished = ?,"
            " result = ? WHERE id = ?",
            (
                info["state"],
                info["reason"],
                info["played"],
                events,
                self._clock(),
                {"chips": info["chips"], "house": info["house"]},
                info["table"],
            ),
        )

    def table_scores(self, table: int, rounds: Sequence[ScoredRound]) -> None:
        """A scored table's rounds whose questions are all answered, with their decisions
        (:mod:`croupier.protocol.journal.scores`). The decisions go first: the writer commits
        in order, so a seat's round row in the journal means its decisions are there too
        (a crash may cut a batch anywhere)."""
        for params in scores.decision_params(table, rounds):
            self.writer.put(scores.INSERT_DECISION, params)
        for params in scores.round_params(table, rounds):
            self.writer.put(scores.INSERT_ROUND, params)

    # -- tournaments -------------------------------------------------------------------------
    def tournament_created(
        self,
        info: dict[str, Any],
        bots: list[str],
        creator: str,
        key: str | None,
        join_key: str | None,
        seed: SeedCommitment,
    ) -> None:
        """A new tournament: ``info`` (its seed hidden) and ``seed``, its seed and salt."""
        self.writer.put(
            "INSERT OR REPLACE INTO tournaments (id, game, rule_set, rules, seed, salt,"
            " settings, bots, creator, state, total, entries, created, key_sha256,"
            " join_key_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                info["tournament"],
                info["game"],
                info["rule_set"],
                info["rules"],
                str(seed.seed),
                seed.salt,
                {**info["settings"], "join_time": info["join_time"]},
                bots,
                creator,
                info["state"],
                info["progress"]["total"],
                info["entries"],
                self._clock(),
                token_hash(key),
                token_hash(join_key),
            ),
        )

    def tournament_given_up(self, tournament: int, reason: str) -> None:
        """A tournament the restarted server does not carry on: finished, with why."""
        self.writer.put(
            "UPDATE tournaments SET state = 'finished', reason = ?, finished = ? WHERE id = ?",
            (reason, self._clock(), tournament),
        )

    def tournament_table(self, tournament: int, position: int, result: dict[str, Any]) -> None:
        """One of the tournament's tables finished: its job and result (a recovered
        tournament books it without playing it again)."""
        job = result["job"]
        self.writer.put(
            "INSERT OR REPLACE INTO tournament_tables (tournament_id, position, tourney, round,"
            " table_no, job, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                tournament,
                position,
                job["tourney"],
                job["round"],
                job["table"],
                job,
                {k: v for k, v in result.items() if k != "job"},
            ),
        )

    def tournament_seat(self, tournament: int, entry: int, player: str | None, token: str) -> None:
        self.writer.put(
            "INSERT OR REPLACE INTO tournament_seats (tournament_id, entry, player, token_sha256)"
            " VALUES (?, ?, ?, ?)",
            (tournament, entry, player, token_hash(token)),
        )

    def tournament_status(self, info: dict[str, Any]) -> None:
        """A tournament's state, progress, entries and (once finished) result."""
        state = info["state"]
        when = self._clock()
        self.writer.put(
            "UPDATE tournaments SET state = ?, reason = ?, done = ?, entries = ?, result = ?,"
            " started = CASE WHEN ? = 'playing' THEN coalesce(started, ?) ELSE started END,"
            " finished = CASE WHEN ? = 'finished' THEN ? ELSE finished END WHERE id = ?",
            (
                state,
                info["reason"],
                info["progress"]["done"],
                info["entries"],
                info["result"],
                state,
                when,
                state,
                when,
                info["tournament"],
            ),
        )

    # -- registered bots ---------------------------------------------------------------------
    def bot_keys(self) -> list[BotKey]:
        found: list[BotKey] = self.writer.read_sync(botkeys.load)
        return found

    def bot_key_added(self, entry: BotKey) -> None:
        self.writer.put(botkeys.INSERT, botkeys.insert_params(entry))

    def bot_key_revoked(self, entry: BotKey) -> None:
        self.writer.put(botkeys.REVOKE, (entry.revoked, entry.name))


def open_journal(path: str, synchronous: str = "NORMAL", sync_rounds: bool = False) -> NullJournal:
    """The journal at ``path``; ``:memory:`` gives a :class:`NullJournal`. ``sync_rounds``
    (``serve --sync``): each round committed before the next is dealt."""
    return NullJournal() if path == MEMORY else Journal(path, synchronous, sync_rounds)
