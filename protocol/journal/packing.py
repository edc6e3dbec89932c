"""The compact encoding of settled rounds: msgpack, column-packed, zstandard with a
dictionary trained on the journal's own rows (schema 5; blocks of rounds from schema 7).

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
through :class:`Unpacker`, which reads either. Nothing is lost: decoding gives the events
and chips exactly as they were sent (``tests/test_journal_packing.py``).

From schema 7 the writer packs a **block** (``BLOCK``, dictionary id, zstd frame) per
table per commit: the consecutive settled rounds of one table that one transaction
commits, in one row (:func:`block_payload`). A round is committed with its block exactly
as it was with its own row, so a crash loses no more; a block saves SQLite's cost per row
(30 to 40 bytes) on each round but one, and zstandard finds the repetition across its
rounds. The texts are templated column by column (each column whose value a text shows
replaces it there in every event of the column at once, one C call per event), half the
cost of :func:`_template`'s event by event.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import sqlite3
from typing import Any

import msgpack
import zstandard

from croupier.engine import CroupierError

MAGIC = 0xC5
"""The first byte of a packed row of one round (JSON text never starts with it)."""
BLOCK = 0xC6
"""The first byte of a packed block of rounds (schema 7)."""
MAX_BLOCK = 64
"""Rounds in one block at most (a history page decodes whole blocks: a bound on that)."""
LEVEL = 3
"""zstandard's level for rows of one round: higher levels save 10 to 20% more at 3 to 10
times the CPU."""
BLOCK_LEVEL = 6
"""zstandard's level for blocks: with a dictionary, 20% smaller than level 3 (205 against
258 bytes a 4-seat round in blocks of 5) for about 20 us more a round, a small part of the
packing (in C, without the interpreter lock)."""
DICTIONARY_SIZE = 64 * 1024
TRAIN_AT = (200, 1000)
"""A game's dictionary is trained on its first 200 rows the writer packs, and again, a
little better, on the next 1,000 (about 0.1 and 0.5 s of the writer thread, once per game
in a journal); rows before the first are compressed without one."""
BLOCK_TRAIN_AT = 200
"""A game's dictionary for blocks is trained once, on the blocks of its first 200 rounds
(trained on 1,500 it packs 2% smaller); blocks before it are compressed without one. The
training's parameters are fixed (``k=1024, d=8``): zstandard's search for them, on so few
samples, chose a dictionary 10% worse (222 against 201 bytes a round, blocks of 6)."""


class Packed:
    """A settled round's row waiting in the writer's queue: the writer packs the rounds of
    each table that one transaction commits into one block (with its game's dictionary)."""

    __slots__ = ("address", "chips", "counted", "events", "game")

    def __init__(
        self,
        game: str,
        events: list[dict[str, Any]],
        chips: list[int] | None,
        address: str = "",
    ) -> None:
        self.game, self.events, self.chips = game, events, chips
        self.address = address
        """Whose table's row (its creator's address; ``""``: unknown): counted against the
        journal quota."""
        self.counted = False
        """Its bytes are counted against ``address``."""


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


# -- blocks of rounds (schema 7) --------------------------------------------------------------
Round = tuple[int | None, list[dict[str, Any]], list[int] | None]
"""A round as a block holds it: its number (None: events after the last settled round), its
events, its chips once settled."""

_SAMPLE = 4
"""A column is templated in a block's texts when one of its first values is in its text."""


def block_payload(rounds: list[Round]) -> bytes:
    """Rounds as msgpack, before compression: ``[per round [round, events, chips], key
    lists, which list per event, per key list [templated columns, columns, verbatim]]``.

    ``columns`` are the events' values column by column; in the ``text`` column, each value
    of a templated column ``j`` (an int or a non-empty string) is replaced by the character
    ``j + 1`` (:func:`_fill_texts` puts it back); a text that is no printable string is kept
    as it is in ``verbatim`` (None in the column)."""
    schemas: dict[tuple[str, ...], int] = {}
    groups: list[list[tuple[Any, ...]]] = []
    shapes: list[int] = []
    meta: list[list[Any]] = []
    get, add = schemas.get, shapes.append
    for round_, events, chips in rounds:
        meta.append([round_, len(events), chips])
        for keys, values in zip(
            map(tuple, events), map(tuple, map(dict.values, events)), strict=True
        ):
            shape = get(keys)
            if shape is None:
                shape = schemas[keys] = len(groups)
                groups.append([])
            add(shape)
            groups[shape].append(values)
    packed = []
    for keys, rows in zip(schemas, groups, strict=True):
        columns = [list(column) for column in zip(*rows, strict=True)]
        marks: list[int] = []
        verbatim: list[Any] | None = None
        if "text" in keys:
            at = keys.index("text")
            columns[at], marks, verbatim = _template_texts(columns, at)
        packed.append([marks, columns, verbatim])
    data: bytes = msgpack.packb(
        [meta, [list(k) for k in schemas], shapes, packed], use_bin_type=True
    )
    return data


def _template_texts(columns: list[list[Any]], at: int) -> tuple[list[Any], list[int], Any]:
    texts = columns[at]
    verbatim: list[Any] | None = None
    if set(map(type, texts)) != {str} or not all(map(str.isprintable, texts)):
        for i, text in enumerate(texts):
            if text.__class__ is not str or not text.isprintable():
                if verbatim is None:
                    verbatim = [None] * len(texts)
                verbatim[i], texts[i] = text, None
    marks = []
    for j, column in enumerate(columns[:_FIELDS]):
        if j == at or not any(
            text is not None and value.__class__ in _TEMPLATED and str(value) in text
            for value, text in zip(column[:_SAMPLE], texts[:_SAMPLE], strict=True)
        ):
            continue
        marks.append(j)
        char = _CHARS[j + 1]
        kinds = set(map(type, column))
        if verbatim is None and (kinds == {int} or (kinds == {str} and "" not in column)):
            words = column if kinds == {str} else list(map(str, column))
            texts = list(map(str.replace, texts, words, itertools.repeat(char)))
        else:  # some values are no words (an empty string, None, a list) or some texts None
            texts = [
                text
                if text is None or value.__class__ not in _TEMPLATED or value == ""
                else text.replace(str(value), char)
                for value, text in zip(column, texts, strict=True)
            ]
    return texts, marks, verbatim


def _fill_texts(columns: list[list[Any]], at: int, marks: list[int], verbatim: Any) -> None:
    texts = columns[at]
    if marks:
        marked = [(j + 1, columns[j]) for j in marks]
        for i, text in enumerate(texts):
            if text is not None:
                texts[i] = text.translate({c: str(column[i]) for c, column in marked})
    if verbatim is not None:
        for i, text in enumerate(verbatim):
            if text is not None or texts[i] is None:
                texts[i] = text


def from_block(raw: bytes) -> list[Round]:
    """:func:`block_payload`'s rounds again."""
    meta, schemas, shapes, packed = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    rows = []
    for keys, (marks, columns, verbatim) in zip(schemas, packed, strict=True):
        if "text" in keys:
            _fill_texts(columns, keys.index("text"), marks, verbatim)
        rows.append(iter(zip(*columns, strict=True)))
    found: list[Round] = []
    at = 0
    for round_, count, chips in meta:
        found.append(
            (
                round_,
                [
                    dict(zip(schemas[s], next(rows[s]), strict=True))
                    for s in shapes[at : at + count]
                ],
                chips,
            )
        )
        at += count
    return found


# -- compression ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=32)
def _decompressor(data: bytes) -> zstandard.ZstdDecompressor:
    return zstandard.ZstdDecompressor(dict_data=zstandard.ZstdCompressionDict(data))


_PLAIN = zstandard.ZstdDecompressor()


def unpack_blob(
    blob: bytes, dictionary: bytes | None
) -> tuple[list[dict[str, Any]], list[int] | None]:
    """A packed row's events and chips (``dictionary``: its dictionary's bytes, None for
    dictionary 0); a block's events, all its rounds', and its last settled round's chips."""
    if blob[0] == BLOCK:
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
        return from_block(_raw(blob, dictionary))
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
    if len(blob) < 3 or blob[0] not in (MAGIC, BLOCK):
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
        if isinstance(data, bytes) and data[:1] == bytes([BLOCK]):
            return unpack_block(data, self.dictionary(dictionary_of(data)))
        events, chips = self.row(data, chips)
        return [(round_, events, chips)]


class Packer:
    """The writer's encoder: per game, its dictionary (trained on its first rows, see
    :data:`TRAIN_AT`; for blocks, on its first :data:`BLOCK_TRAIN_AT` rounds) and a
    compressor; the dictionaries it trains go into the same transaction as the first row
    that uses them."""

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
            self._load(number, bytes(data), BLOCK_LEVEL if blocks else LEVEL)
            (self._blocks if blocks else self._current)[game] = (number, samples)
            self._next = number + 1

    def pack_block(self, game: str, rounds: list[Round]) -> bytes:
        """A block's ``data`` (TypeError, ValueError, OverflowError if it cannot be packed,
        e.g. an integer beyond 64 bits)."""
        raw = block_payload(rounds)
        number, seen = self._blocks.get(game, (0, 0))
        if number == 0 and self._next < 2**16:
            samples = self._block_samples.setdefault(game, [])
            samples.append(raw)
            seen += len(rounds)
            self._blocks[game] = (0, seen)
            if seen >= BLOCK_TRAIN_AT and len(samples) >= 8:
                number = self._train_blocks(game, samples, seen)
        try:
            compressor = self._untrained if number == 0 else self._compressors[number]
            frame = compressor.compress(raw)
        except zstandard.ZstdError as exc:  # the writer keeps its rounds as JSON instead
            raise ValueError(f"a block cannot be compressed ({exc})") from None
        return bytes([BLOCK]) + number.to_bytes(2, "little") + frame

    def _train_blocks(
        self, game: str, samples: list[bytes | bytearray | memoryview], seen: int
    ) -> int:
        self._block_samples[game] = []
        try:
            trained = zstandard.train_dictionary(
                DICTIONARY_SIZE, samples, level=BLOCK_LEVEL, k=1024, d=8
            )
        except zstandard.ZstdError:  # too little to learn from: on without a dictionary
            self._blocks[game] = (0, 0)  # try again on the next rounds
            return 0
        number = self._next
        self._next += 1
        data = trained.as_bytes()
        self._load(number, data, BLOCK_LEVEL)
        self._blocks[game] = (number, seen)
        self._unsaved[number] = (game, seen, data, 1)
        return number

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
