"""The ledger: every chip movement between a seat and the house, in order.

Accounts are ``"seat-1"`` ... ``"seat-7"`` and ``"house"``. An entry moves ``amount`` chips
from the house to a seat (negative: from the seat to the house), so the sum of all balances
never changes; a seat can never go below zero (the round engine asks for no more than a
seat holds, and the ledger refuses it anyway).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import attrs

from croupier.engine.errors import CroupierError

HOUSE = "house"


def seat_account(seat: int) -> str:
    return f"seat-{seat}"


@attrs.frozen
class LedgerEntry:
    """``amount`` chips from the house to ``account`` (negative: the other way)."""

    round: int
    account: str
    amount: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


RECENT = 1_000
"""Entries a ledger keeps: the most recent ones (every one of a short table)."""


class Ledger:
    """Balances per account, per-reason running totals (``totals``) and, unless
    ``keep_entries`` is false, the most recent :data:`RECENT` entries.

    Memory stays flat however long a table plays: the whole record of a table is its event
    log (every chip movement is a ``chips`` event, written as it happens), never the ledger.
    A long simulation keeps no entries at all.
    """

    def __init__(self, balances: dict[str, int], *, keep_entries: bool = True) -> None:
        self.balances: dict[str, int] = {HOUSE: 0, **balances}
        self.initial_total = sum(self.balances.values())
        self.entries: deque[LedgerEntry] | None = deque(maxlen=RECENT) if keep_entries else None
        self.totals: dict[str, int] = {}

    def transfer(self, round_: int, account: str, amount: int, reason: str) -> None:
        """Move ``amount`` from the house to ``account`` (negative: to the house)."""
        balances = self.balances
        balance = balances[account] + amount
        if balance < 0:
            raise CroupierError(f"{account} cannot pay {-amount} chips for {reason}")
        balances[account] = balance
        balances[HOUSE] -= amount
        totals = self.totals
        totals[reason] = totals.get(reason, 0) + amount
        if self.entries is not None:
            self.entries.append(LedgerEntry(round_, account, amount, reason))

    def conserved(self) -> bool:
        """True when the balances still add up to what they started with."""
        return sum(self.balances.values()) == self.initial_total
