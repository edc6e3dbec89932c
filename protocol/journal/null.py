"""What the server records, as the calls it makes: :class:`NullJournal` records nothing
(``croupier serve --data :memory:``, and tests), and the server then behaves as it did
before it had a journal; :class:`~croupier.protocol.journal.record.Journal` keeps it all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from croupier.engine.scoring import ScoredRound
from croupier.protocol.botkeys import BotKey
from croupier.protocol.commitment import SeedCommitment
from croupier.protocol.errors import Code, RpcError

MEMORY = ":memory:"
DAY = 86_400.0


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

    def table_creator_left(self, table: int) -> None:
        pass

    def tournament_creator_left(self, tournament: int) -> None:
        pass

    def table_given_up(self, table: int, reason: str) -> None:
        pass

    def table_seat(self, table: int, seat: dict[str, Any], token: str | None) -> None:
        pass

    def table_event(self, table: int, event: dict[str, Any]) -> None:
        pass

    def table_listener(self, table: int) -> Callable[[dict[str, Any]], None] | None:
        """What takes each of ``table``'s events as the engine emits them, in order, for the
        journal (:meth:`table_event` without a call of its own: one C call an event), or None
        when nothing is recorded."""
        return None

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

    def tournament_table(
        self,
        tournament: int,
        position: int,
        result: dict[str, Any],
        answers: bytes | None = None,
    ) -> None:
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
