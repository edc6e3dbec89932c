"""The compact encoding of a settled round's row: msgpack, column-packed, zstandard with a
dictionary trained on the journal's own rows (schema 5).

A blackjack round of 4 seats is about 30 events and 4.3 kB of JSON, nearly all of it the
same keys and phrases round after round. Its row is encoded as:

1. **columns**: the events' key lists (each distinct list once), which list each event has,
   and one column of values per key, so that values of one kind sit together;
2. **templated text**: in an event's ``text``, each word that is one of the event's other
   values (``seat 3 pays 10 chips (bet)``) is replaced by a reference to that field, so
   the texts of a game repeat exactly and compress to almost nothing; decoding puts the
   values back, giving the very same text;
3. **msgpack**, then **zstandard** with the game's dictionary (trained by the writer on the
   game's first rows, kept in the ``dictionaries`` table, see :class:`Packer`).

The result is ``MAGIC, dictionary id (2 bytes), zstd frame``, stored as a BLOB in the
``data`` column; rows of older journals keep their JSON text there, and every reader goes
through :func:`unpack_row`, which reads either. Nothing is lost: decoding gives the events
and chips exactly as they were sent (``tests/test_journal_packing.py``).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from typing import Any

import msgpack
import zstandard

from croupier.engine import CroupierError

MAGIC = 0xC5
"""The first byte of a packed row (JSON text never starts with it)."""
LEVEL = 3
"""zstandard's level: higher levels save 10 to 20% more at 3 to 10 times the CPU."""
DICTIONARY_SIZE = 64 * 1024
TRAIN_AT = (200, 1000)
"""A game's dictionary is trained on its first 200 rows the writer packs, and again, a
little better, on the next 1,000 (about 0.1 and 0.5 s of the writer thread, once per game
in a journal); rows before the first are compressed without one."""


class Packed:
    """A settled round's row waiting in the writer's queue, packed by the writer thread (with
    its game's dictionary) when it is committed: ``data`` goes in the row's ``data`` column
    and ``chips_column`` in its ``chips`` (NULL once packed: the chips are in the blob)."""

    __slots__ = ("chips", "chips_column", "data", "events", "game")

    def __init__(self, game: str, events: list[dict[str, Any]], chips: list[int] | None) -> None:
        self.game, self.events, self.chips = game, events, chips
        self.data: bytes | str | None = None
        """Once encoded: the packed bytes, or JSON text where it cannot be packed."""
        self.chips_column = ChipsColumn(self)


class ChipsColumn:
    """The ``chips`` parameter of a :class:`Packed` row."""

    __slots__ = ("row",)

    def __init__(self, row: Packed) -> None:
        self.row = row


class PackError(CroupierError, ValueError):
    """A packed row that cannot be decoded (damaged, or its dictionary missing)."""


# -- events <-> plain columns ---------------------------------------------------------------
_FIELDS = 31
"""Fields of an event a text may refer to: the first 31, as the characters 1 to 31."""


def _template(event: dict[str, Any]) -> str | None:
    """``event['text']`` with each of the event's other values (an int or a string, the
    first :data:`_FIELDS` fields) replaced by one control character naming its field, or
    None where it cannot be (a text that is not a string, or holds control characters).

    Each replacement puts a character no value holds in place of a substring, so reading
    the characters back in one pass (:func:`_fill`) gives exactly the text again, whatever
    the values and their order."""
    text = event["text"]
    if type(text) is not str or not text.isprintable():
        return None
    skip = 1 + list(event).index("text")
    for at, value in enumerate(event.values(), 1):
        if at <= _FIELDS and at != skip and value.__class__ in _TEMPLATED:
            word = str(value)  # printable: a value holding a control character is no word of it
            if word and word in text:
                text = text.replace(word, _CHARS[at])
    return text


_TEMPLATED = (int, str)
_CHARS = [chr(i) for i in range(_FIELDS + 1)]


def _fill(text: str, values: list[Any]) -> str:
    """A templated text with its fields' values put back (one pass: ``str.translate``)."""
    table = {i + 1: str(v) for i, v in enumerate(values[:_FIELDS])}
    return text.translate(table)


def to_columns(events: list[dict[str, Any]], chips: list[int] | None) -> list[Any]:
    """``[key lists, which list per event, per key list its columns, chips]``: the events
    as plain msgpack-able data, each key list's values column by column (a templated text
    in place of ``text``, or None: the text stays in a last column, verbatim)."""
    schemas: dict[tuple[str, ...], int] = {}
    groups: list[list[list[Any]]] = []
    texts: list[int] = []
    shapes: list[int] = []
    for event in events:
        keys = tuple(event)
        shape = schemas.get(keys)
        if shape is None:
            shape = schemas[keys] = len(groups)
            groups.append([])
            texts.append(keys.index("text") if "text" in keys else -1)
        shapes.append(shape)
        row = [*event.values()]
        where = texts[shape]
        if where >= 0:
            templated = _template(event)
            if templated is None:
                row.append(row[where])
                row[where] = None
            else:
                row[where] = templated
                row.append(None)
        groups[shape].append(row)
    columns = [[list(column) for column in zip(*group, strict=True)] for group in groups]
    return [[list(k) for k in schemas], shapes, columns, chips]


def from_columns(packed: list[Any]) -> tuple[list[dict[str, Any]], list[int] | None]:
    schemas, shapes, columns, chips = packed
    rows = [iter(zip(*group, strict=True)) for group in columns]
    events = []
    for shape in shapes:
        keys = schemas[shape]
        values = list(next(rows[shape]))
        if "text" in keys:
            where = keys.index("text")
            verbatim = values.pop()
            values[where] = verbatim if values[where] is None else _fill(values[where], values)
        events.append(dict(zip(keys, values, strict=True)))
    return events, chips


def payload(events: list[dict[str, Any]], chips: list[int] | None) -> bytes:
    """A row's events and chips as msgpack (before compression)."""
    packed: bytes = msgpack.packb(to_columns(events, chips), use_bin_type=True)
    return packed


# -- compression ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=32)
def _decompressor(data: bytes) -> zstandard.ZstdDecompressor:
    return zstandard.ZstdDecompressor(dict_data=zstandard.ZstdCompressionDict(data))


_PLAIN = zstandard.ZstdDecompressor()


def unpack_blob(
    blob: bytes, dictionary: bytes | None
) -> tuple[list[dict[str, Any]], list[int] | None]:
    """A packed row's events and chips (``dictionary``: its dictionary's bytes, None for
    dictionary 0)."""
    try:
        body = memoryview(blob)[3:]
        decoder = _PLAIN if dictionary is None else _decompressor(dictionary)
        raw = decoder.decompress(body, max_output_size=64 * 1024 * 1024)
        return from_columns(msgpack.unpackb(raw, raw=False, strict_map_key=False))
    except (zstandard.ZstdError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise PackError(f"a packed row cannot be decoded ({exc})") from None


def dictionary_of(blob: bytes) -> int:
    if len(blob) < 3 or blob[0] != MAGIC:
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
        """A row's events and chips, from its ``data`` and ``chips`` columns, JSON or packed."""
        if isinstance(data, bytes):
            events, packed_chips = unpack_blob(data, self.dictionary(dictionary_of(data)))
            return events, packed_chips
        return json.loads(data), None if chips is None else json.loads(chips)


class Packer:
    """The writer's encoder: per game, its dictionary (trained on its first rows, see
    :data:`TRAIN_AT`) and a compressor; the dictionaries it trains go into the same
    transaction as the first row that uses them."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._compressors: dict[int, zstandard.ZstdCompressor] = {}
        self._current: dict[str, tuple[int, int]] = {}
        """Per game, its latest dictionary's id and how many rows it was trained on."""
        self._samples: dict[str, list[bytes | bytearray | memoryview]] = {}
        self._unsaved: dict[int, tuple[str, int, bytes]] = {}
        """Dictionaries trained but not yet committed."""
        self._next = 1
        try:
            rows = conn.execute(
                "SELECT id, game, samples, data FROM dictionaries ORDER BY id"
            ).fetchall()
        except sqlite3.OperationalError:
            rows = []
        for number, game, samples, data in rows:
            self._load(number, bytes(data))
            self._current[game] = (number, samples)
            self._next = number + 1

    def _load(self, number: int, data: bytes) -> None:
        self._compressors[number] = zstandard.ZstdCompressor(
            level=LEVEL,
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
        self._unsaved[number] = (game, count, data)
        return number

    def save(self, conn: sqlite3.Connection) -> None:
        """Insert the dictionaries trained since the last commit (inside its transaction)."""
        for number, (game, count, data) in self._unsaved.items():
            conn.execute(
                "INSERT OR REPLACE INTO dictionaries (id, game, samples, data) VALUES (?, ?, ?, ?)",
                (number, game, count, data),
            )

    def saved(self) -> None:
        """The transaction holding :meth:`save`'s rows committed."""
        self._unsaved.clear()
