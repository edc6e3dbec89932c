"""A table's seats: each played by a built-in strategy, held by a bot (by its token), or
free; and the player that asks a seat's bot for its decisions, the table's events flushed to
it first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from croupier.protocol.slots import BotSlot, SlotPlayer
from croupier.protocol.transport.server import Connection

if TYPE_CHECKING:
    from croupier.protocol.tables.run import ServerTable


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
    """A table seat's player: the table's events reach the bot before each ``decide``, in
    the same write as the request when its connection is not busy."""

    def __init__(self, table: ServerTable, seat: Seat) -> None:
        super().__init__(seat, table.id, table.decision_time, table.game)
        self.table = table

    async def before_call(self, conn: Connection) -> None:
        sub = self.table.subscribers.get(conn.id)
        if sub is not None and not self.table.feed.put_ahead(sub):
            await sub.flushed()
