"""How the writer packs settled rounds into blocks: the rounds (:class:`Packed`) of each table
that follow one another in one transaction's writes go into one row (at most
:data:`MAX_BLOCK` rounds), packed by :class:`~croupier.protocol.journal.packing.Packer`, and
each block's bytes are counted against its table's creator (the journal quota)."""

from __future__ import annotations

import logging

from croupier.protocol.journal.packing import MAX_BLOCK, Packed, Packer
from croupier.protocol.journal.rows import Write, encode

log = logging.getLogger("croupier.journal")


class Blocks:
    """Packs a transaction's settled rounds (see the module docstring)."""

    def __init__(self, packer: Packer) -> None:
        self.packer = packer
        self.usage: dict[str, int] = {}
        """Per address, bytes of settled rounds its tables had written (the journal quota)."""

    def pack(self, writes: list[Write]) -> list[Write]:
        """``writes`` with the settled rounds (:class:`Packed`) of each table that follow
        one another packed into one row, a block (at most :data:`MAX_BLOCK` rounds): what one
        transaction commits, so a round is durable exactly when its own row would have been.
        A block goes where its first round was (its other rows had no write depending on
        them: the transaction commits them all at once)."""
        out: list[Write | list[Write]] = []
        open_: dict[int, list[Write]] = {}
        for write in writes:
            params = write[1]
            if len(params) != 6 or not isinstance(params[5], Packed):
                out.append(write)
                continue
            table, first, _, round_ = params[:4]
            block = open_.get(table)
            if (
                round_ is None
                or block is None
                or block[-1][1][2] + 1 != first
                or len(block) >= MAX_BLOCK
            ):
                block = [write]
                out.append(block)
                if round_ is None:  # events after the last settled round: a row of their own
                    open_.pop(table, None)
                else:
                    open_[table] = block
            else:
                block.append(write)
        packed: list[Write] = []
        for item in out:
            if isinstance(item, list):
                packed.extend(self._pack_block(item))
            else:
                packed.append(item)
        return packed

    def _pack_block(self, block: list[Write]) -> list[Write]:
        """One row for the rounds of ``block`` (or, should they not pack, one row per round,
        JSON where a round cannot be packed)."""
        rows: list[Packed] = [write[1][5] for write in block]
        sql, (table, first, _, _, _, _) = block[0]
        _, (_, _, last, round_, _, _) = block[-1]
        try:
            raws = [row.raw for row in rows]
            if None in raws:  # a round msgpack cannot hold (e.g. an int beyond 64 bits)
                raise ValueError("a round that is not encoded")
            data: bytes | str = self.packer.pack_encoded(rows[0].game, raws)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            if len(block) > 1:
                return [one for write in block for one in self._pack_block([write])]
            data = encode(rows[0].plain())
            self._count(rows, len(data))
            return [(sql, (table, first, last, round_, rows[0].chips, data))]
        self._count(rows, len(data))
        return [(sql, (table, first, last, round_, None, data))]

    def _count(self, rows: list[Packed], size: int) -> None:
        """Count a row's bytes against its rounds' addresses (the journal quota), once."""
        share = size / len(rows)
        for row in rows:
            if row.address and not row.counted:
                self.usage[row.address] = self.usage.get(row.address, 0) + int(share)
            row.counted = True
