"""How the journal records a tournament: its creation, entries' seats, each finished table
(a recovered tournament books it without playing it again), its status and end
(:class:`~croupier.protocol.journal.record.Journal` is made of it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.journal.kept import token_hash
from croupier.protocol.journal.writer import JournalWriter


class TournamentRecords:
    """The journal's tournament methods; the state they share is the :class:`Journal`'s."""

    writer: JournalWriter
    _clock: Callable[[], float]

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

    def tournament_creator_left(self, tournament: int) -> None:
        """The tournament's creator closed its connection (not the server's stop): after a
        restart it is abandoned as the unbroken server would have abandoned it."""
        self.writer.put(
            "UPDATE tournaments SET creator_left = ? WHERE id = ?", (self._clock(), tournament)
        )

    def tournament_given_up(self, tournament: int, reason: str) -> None:
        """A tournament the restarted server does not carry on: finished, with why."""
        self.writer.put(
            "UPDATE tournaments SET state = 'finished', reason = ?, finished = ? WHERE id = ?",
            (reason, self._clock(), tournament),
        )

    def tournament_table(
        self,
        tournament: int,
        position: int,
        result: dict[str, Any],
        answers: bytes | None = None,
    ) -> None:
        """One of the tournament's tables finished: its job and result (a recovered
        tournament books it without playing it again), and its ``tcp`` seats' ``answers``
        (:func:`croupier.protocol.seat_answers.pack`; None: it had none), so it replays."""
        job = result["job"]
        self.writer.put(
            "INSERT OR REPLACE INTO tournament_tables (tournament_id, position, tourney, round,"
            " table_no, job, result, answers) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                tournament,
                position,
                job["tourney"],
                job["round"],
                job["table"],
                job,
                {k: v for k, v in result.items() if k != "job"},
                answers,
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
