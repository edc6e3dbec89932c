"""Reading settled rounds back from the journal's ``events`` rows, whichever way they were
written: JSON text (before schema 5), a packed round (``MAGIC``, schema 5), a block of
rounds column-packed (``BLOCK``, schema 7) or plain msgpack (``RAW``, schema 9); each
packed row is ``marker, dictionary id (2 bytes), zstd frame``
(:mod:`croupier.protocol.journal.packing`). Every reader goes through :class:`Unpacker`,
which loads each dictionary once. Nothing is lost: decoding gives the events and chips
exactly as they were sent (``tests/test_journal_packing.py``).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from typing import Any

import msgpack
import zstandard

from croupier.engine import CroupierError
from croupier.protocol.journal.columns import Round, from_block, from_columns

MAGIC = 0xC5
"""The first byte of a packed row of one round (JSON text never starts with it)."""
BLOCK = 0xC6
"""The first byte of a column-packed block of rounds (schema 7)."""
RAW = 0xC7
"""The first byte of a block of rounds as plain msgpack (schema 9): ``[[round, events,
chips], ...]``, the events as the table sent them."""
_BLOCKS = (BLOCK, RAW)


class PackError(CroupierError, ValueError):
    """A packed row that cannot be decoded (damaged, or its dictionary missing)."""


@functools.lru_cache(maxsize=32)
def _decompressor(data: bytes) -> zstandard.ZstdDecompressor:
    return zstandard.ZstdDecompressor(dict_data=zstandard.ZstdCompressionDict(data))


_PLAIN = zstandard.ZstdDecompressor()


def unpack_blob(
    blob: bytes, dictionary: bytes | None
) -> tuple[list[dict[str, Any]], list[int] | None]:
    """A packed row's events and chips (``dictionary``: its dictionary's bytes, None for
    dictionary 0); a block's events, all its rounds', and its last settled round's chips."""
    if blob[0] in _BLOCKS:
        rounds = unpack_block(blob, dictionary)
        chips = next((c for r, _, c in reversed(rounds) if r is not None), None)
        return [event for _, events, _ in rounds for event in events], chips
    try:
        return from_columns(
            msgpack.unpackb(_raw(blob, dictionary), raw=False, strict_map_key=False)
        )
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise PackError(f"a packed row cannot be decoded ({exc})") from None


def unpack_block(blob: bytes, dictionary: bytes | None) -> list[Round]:
    """A packed block's rounds."""
    try:
        raw = _raw(blob, dictionary)
        if blob[0] == BLOCK:
            return from_block(raw)
        return [
            (round_, events, chips)
            for round_, events, chips in msgpack.unpackb(raw, raw=False, strict_map_key=False)
        ]
    except (ValueError, TypeError, KeyError, IndexError, StopIteration) as exc:
        raise PackError(f"a packed row cannot be decoded ({exc})") from None


def _raw(blob: bytes, dictionary: bytes | None) -> bytes:
    try:
        decoder = _PLAIN if dictionary is None else _decompressor(dictionary)
        raw: bytes = decoder.decompress(memoryview(blob)[3:], max_output_size=64 * 1024 * 1024)
        return raw
    except zstandard.ZstdError as exc:
        raise PackError(f"a packed row cannot be decoded ({exc})") from None


def dictionary_of(blob: bytes) -> int:
    if len(blob) < 3 or blob[0] not in (MAGIC, *_BLOCKS):
        raise PackError("a row's data is neither JSON nor a packed row")
    return int.from_bytes(blob[1:3], "little")


class Unpacker:
    """Decodes the rows read from one connection, loading their dictionaries once."""

    def __init__(self, conn: sqlite3.Connection, schema: str = "main") -> None:
        self.conn = conn
        self.schema = schema
        """The attached database whose ``dictionaries`` it reads."""
        self._dictionaries: dict[int, bytes | None] = {0: None}

    def dictionary(self, number: int) -> bytes | None:
        if number not in self._dictionaries:
            try:
                row = self.conn.execute(
                    f"SELECT data FROM {self.schema}.dictionaries WHERE id = ?", (number,)
                ).fetchone()
            except sqlite3.OperationalError:
                row = None
            if row is None:
                raise PackError(f"a packed row needs dictionary {number}, not in the journal")
            self._dictionaries[number] = bytes(row[0])
        return self._dictionaries[number]

    def events(self, data: Any) -> list[dict[str, Any]]:
        return self.row(data, None)[0]

    def row(self, data: Any, chips: Any) -> tuple[list[dict[str, Any]], list[int] | None]:
        """A row's events and chips, from its ``data`` and ``chips`` columns, JSON or packed
        (a block: the events of all its rounds, the chips after its last settled one)."""
        if isinstance(data, bytes):
            events, packed_chips = unpack_blob(data, self.dictionary(dictionary_of(data)))
            return events, packed_chips
        return json.loads(data), None if chips is None else json.loads(chips)

    def rounds(self, data: Any, chips: Any, round_: int | None) -> list[Round]:
        """A row's rounds: a block's, or the one round of an older row (``round_``: its
        ``round`` column)."""
        if isinstance(data, bytes) and data[:1] and data[0] in _BLOCKS:
            return unpack_block(data, self.dictionary(dictionary_of(data)))
        events, chips = self.row(data, chips)
        return [(round_, events, chips)]
