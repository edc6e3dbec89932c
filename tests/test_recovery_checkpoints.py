"""Recovery from checkpoints: a table playing writes its state every ``checkpoint_every``
rounds; a restarted server restores the latest checkpoint and replays only the rounds
after it, to exactly the rows and ledger of an uninterrupted run, for every built-in game.
A checkpoint that is corrupt, or that does not match the journal, is not used: the log
says why and the table is replayed whole, to the same end.

The journals are what a graceful stop (a reboot) leaves: the tables unfinished, their
settled rounds and their latest checkpoint kept (a crash leaves the same, less the rounds
not yet committed: ``tests/test_recovery.py``)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.protocol import connect
from croupier.protocol.journal import Journal
from croupier.protocol.journal.record import checkpoint_text
from tests.test_recovery import BACCARAT, BLACKJACK, finish, rows, run_to_end, serve, tables_of

POKER = {"game": "three-card-poker", "seats": 2, "fill": ["optimal", "pair-plus"], "seed": 3}
RICH = {"options": {"starting_chips": 10**9}}  # no seat goes broke: each table plays on
TABLES = [dict(t, rounds=2000, **RICH) for t in (BLACKJACK, BACCARAT, POKER)]
"""Rounds enough that none ends before the slowest has played 20, though each create waits
for its commit while the tables created before it play (every game is quick now: 400
blackjack rounds once ended first on a quiet machine)."""
EVERY = 7


Written = dict[int, list[tuple[int, int, str]]]
"""Per table, every checkpoint written: its round, the last event before it, its text."""


async def stopped_midway(
    path: Path, nursery: trio.Nursery, written: Written | None = None
) -> list[int]:
    """Play ``TABLES`` on a journal with a checkpoint every ``EVERY`` rounds and stop the
    server gracefully once each has played at least 20 rounds; their ids. ``written``
    gets every checkpoint the tables wrote."""
    journal = Journal(str(path))
    write = journal.table_checkpoint

    def table_checkpoint(table: int, round_: int, state: dict[str, Any]) -> None:
        write(table, round_, state)
        last = journal._seq[table]
        (written if written is not None else {}).setdefault(table, []).append(
            (round_, last, checkpoint_text(state))
        )

    journal.table_checkpoint = table_checkpoint  # type: ignore[method-assign]
    server = await serve(nursery, journal, max_tables=64, checkpoint_every=EVERY)
    async with connect("127.0.0.1", server.port, name="c") as c:
        ids = [(await c.call_named("table.create", p))["table"] for p in TABLES]
    running = [tables_of(server).tables[t] for t in ids]
    while min(t.played for t in running) < 20:  # between any two rounds
        await trio.sleep(0)
    server.stop()
    for table in running:
        await table.done.wait()
    await journal.aclose()
    return ids


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """``TABLES`` played to their end on a journal of their own, and their ids: the rows
    every test's interrupted run must end with (played once for the file's tests; a table's
    rows depend only on its parameters and its server's seed)."""
    path = tmp_path_factory.mktemp("whole") / "whole.db"

    async def play() -> list[int]:
        async with trio.open_nursery() as nursery:
            ids = await run_to_end(path, nursery, TABLES)
            nursery.cancel_scope.cancel()
        return ids

    return path, trio.run(play)


def checkpoints(path: Path) -> dict[int, tuple[int, int, str, str]]:
    with sqlite3.connect(path) as conn:
        return {
            t: (r, last, digest, data)
            for t, r, last, digest, data in conn.execute(
                "SELECT table_id, round, last, digest, data FROM checkpoints"
            )
        }


def settled(path: Path, table: int) -> int:
    _, events = rows(path, table)
    return max(r[2] for r in events if r[2] is not None)


async def test_tables_resume_from_their_checkpoints_to_an_uninterrupted_runs_rows(
    nursery, tmp_path, caplog, whole
):
    (whole, ids), stopped = whole, tmp_path / "stopped.db"
    assert await stopped_midway(stopped, nursery) == ids
    assert checkpoints(whole) == {}  # a finished table keeps none
    saved = checkpoints(stopped)
    assert sorted(saved) == ids
    for table in ids:  # the latest whole multiple of EVERY, after that round's last event
        round_, last, digest, data = saved[table]
        assert round_ == settled(stopped, table) // EVERY * EVERY >= 14
        _, events = rows(stopped, table)
        assert any(r[1] == last and r[2] == round_ for r in events)
        assert hashlib.sha256(data.encode()).hexdigest() == digest
    caplog.set_level("INFO", "croupier")
    done = {table: settled(stopped, table) for table in ids}
    server = await serve(nursery, Journal(str(stopped)), max_tables=64)
    await server.recovered.wait()
    for table in ids:
        round_ = saved[table][0]
        said = f"table {table}: restored from its checkpoint after round {round_}; "
        assert f"{said}{done[table] - round_} rounds to replay" in caplog.text
    assert "is not used" not in caplog.text
    await finish(server, ids)
    for table in ids:
        assert rows(stopped, table) == rows(whole, table)  # every round once, same ledger
    assert checkpoints(stopped) == {}


def edit(change: Callable[[dict[str, Any]], None]) -> Callable[[str], tuple[str, str]]:
    """A corruption: ``change`` made to the saved state, with its digest made to match, so
    that only the checks against the journal can find it."""

    def apply(data: str) -> tuple[str, str]:
        state = json.loads(data)
        change(state)
        text = json.dumps(state)
        return text, hashlib.sha256(text.encode()).hexdigest()

    return apply


def seat_chips(state: dict[str, Any]) -> None:
    balances = state["core"]["ledger"]["balances"]
    balances["seat-1"] += 1
    balances["house"] -= 1


def next_cards(state: dict[str, Any]) -> None:
    """The next cards (a casino shoe's), or the stream the next shuffle draws from (a pack
    shuffled every round): found by the rounds after the checkpoint, which deal them."""
    shoe = state["core"].get("shoe") or state["core"]["deck"]
    cards, dealt = shoe["cards"], shoe["dealt"]
    if shoe["kind"] == "fresh-pack" or dealt >= shoe["cut"]:  # shuffled before the next deal
        shoe["stream"] += 8
    else:  # the next card and the next one unlike it (a shoe holds copies) change places
        other = next(j for j in range(dealt + 1, len(cards)) if cards[j] != cards[dealt])
        cards[dealt], cards[other] = cards[other], cards[dealt]


CORRUPTIONS = {
    "bytes flipped": lambda data: (data.replace('"', "'", 3), "0" * 64),
    "not json": lambda data: ("{not json", hashlib.sha256(b"{not json").hexdigest()),
    "chips": edit(seat_chips),
    "next cards": edit(next_cards),  # found by the rounds after it
    "round": edit(lambda state: state.update(round=state["round"] + 1)),
    "no such round": lambda data: (data, hashlib.sha256(data.encode()).hexdigest()),
}


@pytest.mark.parametrize(
    "corruption",
    [  # each plays a table of 2,000 rounds twice: "not json" alone in the fast tier
        c if c == "not json" else pytest.param(c, marks=pytest.mark.slow)
        for c in sorted(CORRUPTIONS)
    ],
)
async def test_a_corrupt_checkpoint_falls_back_to_a_full_replay_and_recovers(
    nursery, tmp_path, caplog, corruption, whole
):
    (whole, ids), stopped = whole, tmp_path / "stopped.db"
    written: Written = {}
    assert await stopped_midway(stopped, nursery, written) == ids
    done = {table: settled(stopped, table) for table in ids}
    with sqlite3.connect(stopped) as conn:
        for table in ids:  # the latest checkpoint with rounds after it to check it by
            round_, last, data = [w for w in written[table] if w[0] < done[table]][-1]
            text, digest = CORRUPTIONS[corruption](data)
            if corruption == "no such round":
                last += 1
            conn.execute(
                "UPDATE checkpoints SET round = ?, data = ?, digest = ?, last = ?"
                " WHERE table_id = ?",
                (round_, text, digest, last, table),
            )
    caplog.set_level("INFO", "croupier")
    server = await serve(nursery, Journal(str(stopped)), max_tables=64)
    await server.recovered.wait()
    for table in ids:
        assert f"table {table}: its checkpoint after round " in caplog.text
    assert caplog.text.count("is not used") == len(ids)
    assert "replaying all" in caplog.text
    await finish(server, ids)
    for table in ids:
        assert rows(stopped, table) == rows(whole, table)
