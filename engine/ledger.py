"""The ledger: every chip movement between a seat and the house, in order.

Accounts are ``"seat-1"`` ... ``"seat-7"`` and ``"house"``. An entry moves ``amount`` chips
from the house to a seat (negative: from the seat to the house), so the sum of all balances
never changes; a seat can never go below zero (the round engine asks for no more than a
seat holds, and the ledger refuses it anyway).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

import attrs

from croupier.engine.errors import CroupierError

HOUSE = "house"


def seat_account(seat: int) -> str:
    """The ledger account of seat ``seat`` (``seat-0``, ...): a seat's chips, table-wide."""
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

    def save(self) -> dict[str, Any]:
        """Balances and running totals as plain data (a table's checkpoint; the recent
        entries are not kept: the table's events are its record)."""
        return {
            "balances": dict(self.balances),
            "totals": dict(self.totals),
            "initial_total": self.initial_total,
        }

    def restore(self, state: Mapping[str, Any]) -> None:
        """Take the balances and totals :meth:`save` gave, for the same accounts, in place
        (a round engine may hold the balances' dict); a one-line error for bad data."""
        balances, totals = state.get("balances"), state.get("totals")
        total = state.get("initial_total")
        if not isinstance(balances, Mapping) or set(balances) != set(self.balances):
            raise CroupierError(f"the saved ledger has other accounts than {sorted(self.balances)}")
        if not isinstance(totals, Mapping) or not all(
            _whole(v) for v in (*balances.values(), *totals.values(), total)
        ):
            raise CroupierError("the saved ledger's balances and totals are not whole numbers")
        if sum(balances.values()) != total:
            raise CroupierError("the saved ledger's balances do not add up to its total")
        self.balances.clear()
        self.balances.update(balances)
        self.totals.clear()
        self.totals.update({str(k): v for k, v in totals.items()})
        self.initial_total = int(total)
        if self.entries is not None:
            self.entries.clear()

    def conserved(self) -> bool:
        """True when the balances still add up to what they started with."""
        return sum(self.balances.values()) == self.initial_total


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
