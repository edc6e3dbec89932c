"""How the writer packs settled rounds: a **block** per table per commit (the consecutive
settled rounds of one table that one transaction commits, in one row), as plain msgpack
zstandard-compressed with a dictionary trained on the journal's own blocks (schema 9).

A blackjack round of 4 seats is about 38 events and 4.3 kB of JSON. The table hands each
settled round to the journal as it is (its events, the very dicts it sent, and its chips),
which encodes it as msgpack ``[round, events, chips]`` at once, on the event loop, in one C
call (:mod:`msgspec`, a few microseconds; a tenth of the time of the column packing before
it, which held the interpreter lock for about 100 us a round:
:mod:`croupier.protocol.journal.columns`), so that the round's dicts are freed where they
were made; the writer thread joins a block's rounds into ``[[round, events, chips], ...]``
(the same bytes as encoding the list) and compresses it at :data:`BLOCK_LEVEL`, in C
without the interpreter lock, so that a table dealing flat out in the event loop goes on
meanwhile. zstandard finds the repetition (the
same keys and phrases) across a block's rounds and in its game's dictionary: 255 to 285 bytes
a 4-seat round in blocks of 40 to 10 rounds (column-packed, about 90 fewer: the templated
texts). A round is committed with its block exactly as it was with its own row, so
a crash loses no more; a block saves SQLite's cost per row (30 to 40 bytes) on each round
but one.

The row's ``data`` is ``RAW, dictionary id (2 bytes), zstd frame``, a BLOB; rows of older
journals (JSON text, packed rounds, column-packed blocks) stay as they are, and every reader
goes through :class:`~croupier.protocol.journal.unpacking.Unpacker`, which reads them all.
:meth:`Packer.pack` still writes a round's row of schema 5 (tests build older journals with it).
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any

import msgspec
import zstandard

from croupier.protocol.journal.columns import Round, payload
from croupier.protocol.journal.training import DICTIONARY_SIZE, BlockTraining
from croupier.protocol.journal.unpacking import (
    BLOCK,
    MAGIC,
    RAW,
    PackError,
    Unpacker,
    dictionary_of,
    unpack_blob,
    unpack_block,
)

__all__ = [
    "BLOCK",
    "BLOCK_LEVEL",
    "MAGIC",
    "MAX_BLOCK",
    "RAW",
    "PackError",
    "Packed",
    "Packer",
    "Round",
    "Unpacker",
    "dictionary_of",
    "unpack_blob",
    "unpack_block",
]

MAX_BLOCK = 64
"""Rounds in one block at most (a history page decodes whole blocks: a bound on that)."""
LEVEL = 3
"""zstandard's level for rows of one round (schema 5)."""
BLOCK_LEVEL = 6
"""zstandard's level for blocks: with a dictionary, 255 bytes a 4-seat round in blocks of
40 (level 3: 335, level 5: 292, level 9: 249) for about 40 us of CPU a round, without the
interpreter lock."""
TRAIN_AT = (200, 1000)
"""A game's dictionary for rows of one round is trained on its first 200 rows, and again on
the next 1,000."""
BLOCK_TRAIN_AT = 200
"""A game's dictionary for blocks is trained once, on the blocks of its first 200 rounds
(a dictionary trained on 1,000 packs no smaller), in a thread of its own
(:mod:`~croupier.protocol.journal.training`); blocks before it is ready are compressed
without one."""
RAW_BLOCKS = 2
"""``dictionaries.blocks`` of a dictionary trained on plain msgpack blocks (1: on column-packed
blocks, 0: on rows of one round)."""

_encode = msgspec.msgpack.Encoder().encode


class Packed:
    """A settled round's row waiting in the writer's queue: the writer packs the rounds of
    each table that one transaction commits into one block (with its game's dictionary).

    The event loop encodes the round (:func:`encode_round`, msgpack in one C call, a few
    microseconds) as it queues it, so its events die where they were made and the writer
    thread, which needs the interpreter lock for every Python step, only joins bytes;
    ``raw`` is None only for a round msgpack cannot hold (an integer beyond 64 bits): the
    writer keeps that one's ``events`` as JSON."""

    __slots__ = ("address", "chips", "counted", "events", "game", "raw")

    def __init__(
        self,
        game: str,
        events: list[dict[str, Any]] | None,
        chips: list[int] | None,
        address: str = "",
        raw: bytes | None = None,
    ) -> None:
        self.game, self.events, self.chips = game, events, chips
        self.raw = raw
        """The round ``[round, events, chips]`` as msgpack (None: see ``events``)."""
        self.address = address
        """Whose table's row (its creator's address; ``""``: unknown): counted against the
        journal quota."""
        self.counted = False
        """Its bytes are counted against ``address``."""

    def plain(self) -> list[dict[str, Any]]:
        """The round's events (decoded again when it was encoded)."""
        if self.events is None:
            events: list[dict[str, Any]] = msgspec.msgpack.decode(self.raw or b"")[1]
            return events
        return self.events

    @classmethod
    def of(
        cls,
        game: str,
        round_: int | None,
        events: list[dict[str, Any]],
        chips: list[int] | None,
        address: str = "",
    ) -> Packed:
        """A settled round, encoded now (its events kept only when they cannot be)."""
        try:
            return cls(game, None, chips, address, _encode((round_, events, chips)))
        except (TypeError, ValueError, OverflowError):  # e.g. an int beyond 64 bits
            return cls(game, list(events), chips, address)


class Packer:
    """The writer's encoder: per game, its dictionary for blocks (trained on its first
    :data:`BLOCK_TRAIN_AT` rounds; for rows of one round, on its first rows, see
    :data:`TRAIN_AT`) and a compressor; the dictionaries it trains go into the same
    transaction as the first row that uses them."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._compressors: dict[int, zstandard.ZstdCompressor] = {}
        self._current: dict[str, tuple[int, int]] = {}
        """Per game, its latest dictionary's id and how many rows it was trained on."""
        self._samples: dict[str, list[bytes | bytearray | memoryview]] = {}
        self._unsaved: dict[int, tuple[str, int, bytes, int]] = {}
        """Dictionaries trained but not yet committed (game, samples, data, blocks)."""
        self._blocks: dict[str, tuple[int, int]] = {}
        """Per game, its dictionary for blocks: its id (0: none yet) and the rounds of the
        blocks it was trained on, or waiting to be."""
        self._block_samples: dict[str, list[bytes | bytearray | memoryview]] = {}
        self._training: dict[str, BlockTraining] = {}
        """Per game, its dictionary for blocks being trained (:mod:`.training`)."""
        self._untrained = zstandard.ZstdCompressor(
            level=BLOCK_LEVEL, write_content_size=False, write_checksum=False
        )
        self._next = 1
        try:
            rows = conn.execute(
                "SELECT id, game, samples, data, blocks FROM dictionaries ORDER BY id"
            ).fetchall()
        except sqlite3.OperationalError:  # a journal before schema 7: no blocks yet
            rows = []
            with contextlib.suppress(sqlite3.OperationalError):
                rows = [
                    (*row, 0)
                    for row in conn.execute(
                        "SELECT id, game, samples, data FROM dictionaries ORDER BY id"
                    )
                ]
        for number, game, samples, data, blocks in rows:
            self._next = number + 1
            if blocks == RAW_BLOCKS:
                self._load(number, bytes(data), BLOCK_LEVEL)
                self._blocks[game] = (number, samples)
            elif not blocks:  # a column-packed block's dictionary packs nothing new
                self._load(number, bytes(data), LEVEL)
                self._current[game] = (number, samples)

    def pack_block(self, game: str, rounds: list[Round]) -> bytes:
        """A block's ``data`` (TypeError, ValueError, OverflowError if it cannot be packed,
        e.g. an integer beyond 64 bits)."""
        return self.pack_encoded(game, [_encode(r) for r in rounds])

    def pack_encoded(self, game: str, rounds: list[bytes]) -> bytes:
        """A block's ``data`` from its rounds already encoded (:meth:`Packed.of`): the
        msgpack of the list of them, as :meth:`pack_block` of the rounds themselves."""
        raw = _encode([msgspec.Raw(r) for r in rounds])
        number, seen = self._blocks.get(game, (0, 0))
        if number == 0 and self._next < 2**16:
            training = self._training.get(game)
            if training is None:
                samples = self._block_samples.setdefault(game, [])
                samples.append(raw)
                seen += len(rounds)
                self._blocks[game] = (0, seen)
                if seen >= BLOCK_TRAIN_AT and len(samples) >= 8:  # trained off this commit
                    self._block_samples[game] = []
                    self._training[game] = BlockTraining(samples, seen)
            elif training.done():
                number = self._adopt(game, training)
        try:
            compressor = self._untrained if number == 0 else self._compressors[number]
            frame = compressor.compress(raw)
        except zstandard.ZstdError as exc:  # the writer keeps its rounds as JSON instead
            raise ValueError(f"a block cannot be compressed ({exc})") from None
        return bytes([RAW]) + number.to_bytes(2, "little") + frame

    def _adopt(self, game: str, training: BlockTraining) -> int:
        """Take a finished training's dictionary as the game's for blocks (0: it learnt
        nothing, and the next blocks are sampled again)."""
        del self._training[game]
        if training.data is None:
            self._blocks[game] = (0, 0)
            return 0
        number = self._next
        self._next += 1
        self._load(number, training.data, BLOCK_LEVEL)
        self._blocks[game] = (number, training.seen)
        self._unsaved[number] = (game, training.seen, training.data, RAW_BLOCKS)
        return number

    def finish_training(self) -> None:
        """Wait for the dictionaries being trained (the next block of each game uses its)."""
        for training in list(self._training.values()):
            training.wait()

    def _load(self, number: int, data: bytes, level: int = LEVEL) -> None:
        self._compressors[number] = zstandard.ZstdCompressor(
            level=level,
            dict_data=zstandard.ZstdCompressionDict(data),
            write_content_size=False,
            write_checksum=False,
            write_dict_id=False,
        )

    def pack(self, game: str, events: list[dict[str, Any]], chips: list[int] | None) -> bytes:
        """The row's ``data``: packed (TypeError, ValueError, OverflowError if it cannot be,
        e.g. an integer beyond 64 bits: the writer then keeps JSON)."""
        raw = payload(events, chips)
        number, trained = self._current.get(game, (0, 0))
        stage = next((n for n in TRAIN_AT if n > trained), None)
        if stage is not None:
            samples = self._samples.setdefault(game, [])
            samples.append(raw)
            if len(samples) >= stage:
                number = self._train(game, samples) or number
        if number == 0:
            frame = zstandard.ZstdCompressor(
                level=LEVEL, write_content_size=False, write_checksum=False
            ).compress(raw)
        else:
            frame = self._compressors[number].compress(raw)
        return bytes([MAGIC]) + number.to_bytes(2, "little") + frame

    def _train(self, game: str, samples: list[bytes | bytearray | memoryview]) -> int | None:
        count = len(samples)
        self._samples[game] = []
        if self._next >= 2**16:
            return None
        try:
            trained = zstandard.train_dictionary(DICTIONARY_SIZE, list(samples), level=LEVEL)
        except zstandard.ZstdError:  # too few distinct samples: try again at the next stage
            self._current[game] = (self._current.get(game, (0, 0))[0], count)
            return None
        number = self._next
        self._next += 1
        data = trained.as_bytes()
        self._load(number, data)
        self._current[game] = (number, count)
        self._unsaved[number] = (game, count, data, 0)
        return number

    def save(self, conn: sqlite3.Connection) -> None:
        """Insert the dictionaries trained since the last commit (inside its transaction)."""
        for number, (game, count, data, blocks) in self._unsaved.items():
            conn.execute(
                "INSERT OR REPLACE INTO dictionaries (id, game, samples, data, blocks)"
                " VALUES (?, ?, ?, ?, ?)",
                (number, game, count, data, blocks),
            )

    def saved(self) -> None:
        """The transaction holding :meth:`save`'s rows committed."""
        self._unsaved.clear()
