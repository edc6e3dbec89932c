"""The compact encoding of settled rounds (schema 5; column-packed blocks of rounds, schema 7;
plain msgpack blocks, schema 9): every row and block decodes to exactly the events and chips
it was given, whatever their texts hold, with and without a trained dictionary; blocks of
the older encodings still read; a damaged row or a missing dictionary is one clear error."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import pytest
import zstandard

from croupier.protocol.journal.columns import block_payload, from_block, from_columns, to_columns
from croupier.protocol.journal.packing import (
    BLOCK,
    BLOCK_TRAIN_AT,
    RAW,
    RAW_BLOCKS,
    TRAIN_AT,
    Packed,
    Packer,
    PackError,
    Unpacker,
    dictionary_of,
)
from croupier.protocol.journal.schema import MIGRATIONS, migrate


def journal() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn, ":memory:", MIGRATIONS)
    return conn


def blackjack_like(round_: int) -> list[dict[str, Any]]:
    """A round's events shaped as blackjack's: texts repeating the events' values."""
    events: list[dict[str, Any]] = [
        {"kind": "round", "round": round_, "text": f"round {round_} begins"}
    ]
    for seat in range(1, 5):
        card = "A23456789TJQK"[(round_ * 7 + seat) % 13] + "SHDC"[(round_ + seat) % 4]
        total = (round_ * 3 + seat) % 21 + 1
        events.append(
            {
                "kind": "deal",
                "round": round_,
                "seat": seat,
                "hand": 0,
                "card": card,
                "total": total,
                "soft": seat % 2 == 0,
                "text": f"seat {seat} is dealt {card} ({total})",
            }
        )
        events.append(
            {
                "kind": "chips",
                "round": round_,
                "seat": seat,
                "amount": -10 * seat,
                "reason": "bet",
                "text": f"seat {seat} pays {10 * seat} chips (bet)",
            }
        )
    events.append({"kind": "end", "round": round_, "text": f"round {round_} is over"})
    return events


ODD_EVENTS: list[dict[str, Any]] = [
    {"kind": "x", "text": "seat \x01 holds a control character", "seat": 1},
    {"kind": "x", "text": "tab\there", "seat": 1},
    {"kind": "x", "text": None, "seat": 2},
    {"kind": "x", "text": ["not", "a", "string"]},
    {"kind": "x", "value": "", "text": "an empty value is no word"},
    {"kind": "x", "a": "1", "b": 11, "c": "111", "text": "1 11 111 1111 a1b"},
    {"kind": "x", "flag": True, "n": 1, "text": "True 1 true"},
    {"kind": "x", "card": "7\x02", "text": "7 and 7\x02"},
    {"text": "text first", "kind": "first", "round": 3},
    {"kind": "no text", "round": 3, "nested": {"a": [1, 2, {"b": None}]}, "f": 1.5},
    {"kind": "x", "round": -3, "text": "round -3 and 3 and --3"},
    {"kind": "x", **{f"k{i}": i for i in range(40)}, "text": " ".join(map(str, range(45)))},
]


@pytest.mark.parametrize("event", ODD_EVENTS, ids=range(len(ODD_EVENTS)))
def test_columns_give_back_exactly_each_event(event):
    events = [event, dict(event), blackjack_like(2)[1]]
    assert from_columns(to_columns(events, [1, 2])) == (events, [1, 2])


def test_rows_decode_exactly_before_and_after_the_dictionaries_are_trained():
    conn = journal()
    packer = Packer(conn)
    rounds = sum(TRAIN_AT) + 50
    packed = []
    for round_ in range(1, rounds + 1):
        chips = [10**12 - round_, round_, 0, -round_]
        packed.append((packer.pack("blackjack", blackjack_like(round_), chips), chips))
        if round_ % 100 == 0:
            conn.execute("BEGIN")
            packer.save(conn)
            conn.execute("COMMIT")
            packer.saved()
    numbers = [int.from_bytes(blob[1:3], "little") for blob, _ in packed]
    assert numbers[0] == 0 and numbers[TRAIN_AT[0]] == 1 and numbers[-1] == 2  # two stages
    assert conn.execute("SELECT id, game, samples FROM dictionaries").fetchall() == [
        (1, "blackjack", TRAIN_AT[0]),
        (2, "blackjack", TRAIN_AT[1]),
    ]
    unpacker = Unpacker(conn)
    for round_, (blob, chips) in enumerate(packed, 1):
        assert unpacker.row(blob, None) == (blackjack_like(round_), chips)
    # with a dictionary, a row is a small fraction of its JSON
    assert len(packed[-1][0]) < len(str(blackjack_like(rounds))) / 8
    # a packer opened later on the same journal goes on with its dictionaries
    again = Packer(conn).pack("blackjack", blackjack_like(5), [1])
    assert int.from_bytes(again[1:3], "little") == 2
    assert unpacker.row(again, None) == (blackjack_like(5), [1])


def test_json_rows_of_older_journals_are_read_as_before():
    unpacker = Unpacker(journal())
    assert unpacker.row('[{"kind": "end", "text": "x"}]', "[1, 2]") == (
        [{"kind": "end", "text": "x"}],
        [1, 2],
    )
    assert unpacker.row("[]", None) == ([], None)


def test_a_damaged_row_or_a_missing_dictionary_is_one_clear_error():
    conn = journal()
    packer = Packer(conn)
    for round_ in range(1, TRAIN_AT[0] + 2):
        blob = packer.pack("blackjack", blackjack_like(round_), [1])
    unpacker = Unpacker(conn)  # the dictionary was never saved
    with pytest.raises(PackError, match="needs dictionary 1, not in the journal"):
        unpacker.row(blob, None)
    plain = Packer(journal()).pack("coin", blackjack_like(1), [1])
    with pytest.raises(PackError, match="cannot be decoded"):
        unpacker.row(plain[:-5], None)
    with pytest.raises(PackError, match="neither JSON nor a packed row"):
        unpacker.row(b"\x01\x02\x03\x04", None)


def test_values_msgpack_cannot_carry_are_refused_for_the_writer_to_keep_json():
    with pytest.raises((OverflowError, TypeError, ValueError)):
        Packer(journal()).pack("g", [{"kind": "x", "big": 2**70, "text": "x"}], [1])


# -- blocks of rounds (schema 7: column-packed; schema 9: plain msgpack) -------------------------
SAME_KEYS = [  # one column of every kind of value, some no words of the text
    {"kind": "x", "seat": value, "text": f"seat {value} and {value}{value}"}
    for value in (1, 11, "", None, [1], True, "1", 1, "\x03", 2.5, -4)
]


@pytest.mark.parametrize("event", ODD_EVENTS, ids=range(len(ODD_EVENTS)))
def test_blocks_give_back_exactly_each_round(event):
    rounds = [
        (1, [event, dict(event), blackjack_like(2)[1]], [1, 2]),
        (2, blackjack_like(2), [3, 4]),
        (None, [event], None),
    ]
    assert from_block(block_payload(rounds)) == rounds


@pytest.mark.parametrize("event", ODD_EVENTS, ids=range(len(ODD_EVENTS)))
def test_the_writers_blocks_give_back_exactly_each_round(event):
    rounds = [
        (1, [event, dict(event), blackjack_like(2)[1]], [1, 2]),
        (2, blackjack_like(2), [3, 4]),
        (None, [event], None),
    ]
    conn = journal()
    blob = Packer(conn).pack_block("x", rounds)
    assert blob[0] == RAW and Unpacker(conn).rounds(blob, None, None) == rounds


@pytest.mark.parametrize("event", ODD_EVENTS, ids=range(len(ODD_EVENTS)))
def test_rounds_encoded_by_the_loop_make_the_very_block_of_the_rounds(event):
    """The event loop encodes each round as it queues it (:meth:`Packed.of`); the writer's
    block of those bytes is byte for byte the block of the rounds themselves."""
    rounds = [(1, [event, blackjack_like(1)[2]], [1, 2]), (2, blackjack_like(2), [3, 4])]
    queued = [Packed.of("x", *round_) for round_ in rounds]
    assert all(p.raw is not None and p.events is None for p in queued)
    assert [p.plain() for p in queued] == [events for _, events, _ in rounds]
    conn = journal()
    blob = Packer(conn).pack_encoded("x", [p.raw for p in queued if p.raw is not None])
    assert blob == Packer(journal()).pack_block("x", rounds)
    assert Unpacker(conn).rounds(blob, None, None) == rounds


def test_a_round_msgpack_cannot_hold_keeps_its_events():
    events = [{"kind": "chips", "amount": 2**70}]
    packed = Packed.of("x", 1, events, [1])
    events.clear()  # the table's list of the round's events is emptied once queued
    assert packed.raw is None and packed.plain() == [{"kind": "chips", "amount": 2**70}]


def test_column_packed_blocks_of_older_journals_still_read(tmp_path):
    """A schema 7 block (the column encoder kept for it), with its trained dictionary, reads
    exactly; a packer opened on that journal trains a dictionary of its own for its blocks."""
    conn = journal()
    rounds = [[(r, blackjack_like(r), [r, -r]) for r in range(s, s + 5)] for s in range(1, 300, 5)]
    samples = [block_payload(block) for block in rounds[:40]]
    trained = zstandard.train_dictionary(64 * 1024, samples, level=6, k=1024, d=8).as_bytes()
    conn.execute(
        "INSERT INTO dictionaries (id, game, samples, data, blocks) VALUES (1, 'blackjack', 200,"
        " ?, 1)",
        (trained,),
    )
    old = zstandard.ZstdCompressor(
        level=6, dict_data=zstandard.ZstdCompressionDict(trained), write_content_size=False
    )
    plain = zstandard.ZstdCompressor(level=6, write_content_size=False)
    unpacker = Unpacker(conn)
    for number, compressor in ((1, old), (0, plain)):
        for block in rounds[-3:]:
            head = bytes([BLOCK]) + number.to_bytes(2, "little")
            blob = head + compressor.compress(block_payload(block))
            assert unpacker.rounds(blob, None, None) == block
            assert unpacker.row(blob, None) == ([e for _, es, _ in block for e in es], block[-1][2])
    packer = Packer(conn)
    fresh = [packer.pack_block("blackjack", block) for block in rounds]
    packer.finish_training()
    fresh.append(packer.pack_block("blackjack", rounds[0]))
    rounds.append(rounds[0])
    assert dictionary_of(fresh[-1]) == 2  # never the column dictionary
    assert {dictionary_of(blob) for blob in fresh} <= {0, 2}
    conn.execute("BEGIN")
    packer.save(conn)
    conn.execute("COMMIT")
    assert [unpacker.rounds(blob, None, None) for blob in fresh] == rounds


def test_a_column_of_mixed_values_and_texts_decodes_exactly():
    for at in range(len(SAME_KEYS)):  # each value first: the sample that marks a column
        events = SAME_KEYS[at:] + SAME_KEYS[:at]
        rounds = [(7, events, [1]), (8, [*events, {"kind": "x", "seat": 3, "text": None}], [2])]
        assert from_block(block_payload(rounds)) == rounds


def test_blocks_decode_exactly_before_and_after_their_dictionary_is_trained():
    conn = journal()
    packer = Packer(conn)
    blobs = []
    for start in range(1, BLOCK_TRAIN_AT + 60, 5):
        rounds = [(r, blackjack_like(r), [10**12 - r, r]) for r in range(start, start + 5)]
        blobs.append((packer.pack_block("blackjack", rounds), rounds))
    packer.finish_training()  # trained in a thread: the next block uses it
    blobs.append((packer.pack_block("blackjack", rounds), rounds))
    conn.execute("BEGIN")
    packer.save(conn)
    conn.execute("COMMIT")
    packer.saved()
    numbers = [dictionary_of(blob) for blob, _ in blobs]
    assert numbers[0] == 0 and numbers[-1] == 1
    assert conn.execute("SELECT id, game, samples, blocks FROM dictionaries").fetchall() == [
        (1, "blackjack", BLOCK_TRAIN_AT, RAW_BLOCKS)
    ]
    assert {blob[0] for blob, _ in blobs} == {RAW}
    unpacker = Unpacker(conn)
    for blob, rounds in blobs:
        assert unpacker.rounds(blob, None, None) == rounds
        events, chips = unpacker.row(blob, None)  # a block as one row: all events, last chips
        assert events == [e for _, found, _ in rounds for e in found] and chips == rounds[-1][2]
    assert len(blobs[-1][0]) < len(str(blobs[-1][1])) / 10  # 5 rounds with a dictionary
    again = Packer(conn).pack_block("blackjack", blobs[0][1])  # goes on with it
    assert dictionary_of(again) == 1 and unpacker.rounds(again, None, None) == blobs[0][1]


def test_a_row_of_one_round_reads_as_one_round():
    unpacker = Unpacker(journal())
    assert unpacker.rounds('[{"kind": "end"}]', "[1, 2]", 4) == [(4, [{"kind": "end"}], [1, 2])]


def test_a_damaged_block_is_one_clear_error():
    conn = journal()
    blob = Packer(conn).pack_block("coin", [(1, blackjack_like(1), [1])])
    unpacker = Unpacker(conn)
    for damaged in (blob[:-5], blob[:3] + b"\x28\xb5\x2f\xfd" + bytes(20)):
        with pytest.raises(PackError, match="cannot be decoded"):
            unpacker.rounds(damaged, None, None)
        with pytest.raises(PackError, match="cannot be decoded"):
            unpacker.row(damaged, None)


def test_a_dictionary_for_blocks_is_trained_off_the_writer_thread(monkeypatch):
    """The commit that reaches BLOCK_TRAIN_AT rounds does not wait for the training (185 ms
    of a 207 ms commit before): blocks go on without a dictionary until it is ready."""
    release, writer = threading.Event(), threading.get_ident()
    trained_on: list[int] = []
    train = zstandard.train_dictionary

    def slow_train(*args: Any, **kwargs: Any) -> zstandard.ZstdCompressionDict:
        trained_on.append(threading.get_ident())
        release.wait(60)  # the writer packs on meanwhile (before: it waited here itself)
        return train(*args, **kwargs)

    monkeypatch.setattr(zstandard, "train_dictionary", slow_train)
    conn = journal()
    packer = Packer(conn)
    blocks = [
        [(r, blackjack_like(r), [r]) for r in range(start, start + 5)]
        for start in range(1, BLOCK_TRAIN_AT + 50, 5)
    ]
    blobs = [packer.pack_block("blackjack", block) for block in blocks]
    assert not release.is_set() and trained_on and writer not in trained_on
    assert {dictionary_of(blob) for blob in blobs} == {0}  # none while it trains
    release.set()
    packer.finish_training()
    blobs.append(packer.pack_block("blackjack", blocks[0]))
    assert dictionary_of(blobs[-1]) == 1
    conn.execute("BEGIN")
    packer.save(conn)  # the dictionary is committed with the first block that uses it
    conn.execute("COMMIT")
    unpacker = Unpacker(conn)
    assert [unpacker.rounds(blob, None, None) for blob in blobs] == [*blocks, blocks[0]]
