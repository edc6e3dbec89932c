"""The column encodings of settled rounds that croupier wrote before schema 9: a round's row
(``MAGIC``, schema 5) and a block of rounds (``BLOCK``, schema 7), both msgpack of the events
column by column with their texts templated. The writer now packs plain msgpack blocks
(:mod:`croupier.protocol.journal.packing`, a tenth of the interpreter's time); these stay
to read older journals (:mod:`croupier.protocol.journal.unpacking`) and to write them in
tests.

A blackjack round of 4 seats is about 30 events and 4.3 kB of JSON, nearly all of it the
same keys and phrases round after round. Its row is encoded as:

1. **columns**: the events' key lists (each distinct list once), which list each event has,
   and one column of values per key, so that values of one kind sit together;
2. **templated text**: in an event's ``text``, each word that is one of the event's other
   values (``seat 3 pays 10 chips (bet)``) is replaced by a reference to that field, so
   the texts of a game repeat exactly and compress to almost nothing; decoding puts the
   values back, giving the very same text;
3. **msgpack** (compressed by the caller).

A block templates its texts column by column (each column whose value a text shows replaces
it there in every event of the column at once, one C call per event).
"""

from __future__ import annotations

import itertools
from typing import Any

import msgpack

Round = tuple[int | None, list[dict[str, Any]], list[int] | None]
"""A round as a block holds it: its number (None: events after the last settled round), its
events, its chips once settled."""

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
