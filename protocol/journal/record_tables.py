"""How the journal records a table: its creation, seats, settled rounds (whole, packed
with the rounds committed beside them), checkpoints, scores and end, each one queued write
(:class:`~croupier.protocol.journal.record.Journal` is made of it)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from croupier.engine.scoring import ScoredRound
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.journal import scores
from croupier.protocol.journal.kept import checkpoint_text, token_hash
from croupier.protocol.journal.packing import Packed
from croupier.protocol.journal.writer import JournalWriter


class TableRecords:
    """The journal's table methods; the state they share is the :class:`Journal`'s."""

    writer: JournalWriter
    compact: bool
    _games: dict[int, str]
    _addresses: dict[int, str]
    _seq: dict[int, int]
    _pending: dict[int, list[dict[str, Any]]]
    _clock: Callable[[], float]

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
        self._events_of(table).clear()

    def table_creator_left(self, table: int) -> None:
        """The table's creator closed its connection (not the server's stop): after a
        restart the table is abandoned as the unbroken server would have abandoned it."""
        self.writer.put("UPDATE tables SET creator_left = ? WHERE id = ?", (self._clock(), table))

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
        self._events_of(table).append(event)

    def table_listener(self, table: int) -> Callable[[dict[str, Any]], None]:
        return self._events_of(table).append

    def _events_of(self, table: int) -> list[dict[str, Any]]:
        """The list of ``table``'s events since its last settled round (one list for the
        table's whole life: the engine's listener appends to it)."""
        pending = self._pending.get(table)
        if pending is None:
            pending = self._pending[table] = []
        return pending

    def table_round(self, table: int, round_: int, chips: list[int]) -> None:
        """Round ``round_`` settled: its events and the chips go in one write (a round is
        recorded whole or not at all; recovery deals the round in progress again), which the
        writer packs with the table's other rounds of its commit into one block."""
        self._write_events(table, round_, chips)

    def _write_events(self, table: int, round_: int | None, chips: list[int] | None) -> None:
        pending = self._pending.get(table)
        if not pending:
            return
        first = self._seq.get(table, 0) + 1
        self._seq[table] = first + len(pending) - 1
        data: Any
        if self.compact:  # encoded now; the writer packs it with the rounds committed beside it
            data = Packed.of(
                self._games.get(table, ""), round_, pending, chips, self._addresses.get(table, "")
            )
            chips = None
        else:
            data = pending.copy()
        pending.clear()
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
        self._pending.pop(info["table"], None)
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
