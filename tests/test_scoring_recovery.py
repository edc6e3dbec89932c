"""A scored server table's scores are kept in the journal: ``history.table`` and
``history.scores`` show them, a server restarted on a journal a crash left behind shows the
rounds scored before it in ``table.info``, and the recovered table goes on scoring, to
exactly the scores of an uninterrupted run (blackjack's oracle counts the cards from the
table's events since the shuffle, so the replay must show it every event again)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.protocol import connect
from croupier.protocol.journal import Journal
from tests.test_recovery import crash_after, recover, serve, tables_of

SCORED = {
    "game": "baccarat",
    "seats": 2,
    "fill": ["banker", "tie"],  # the tie bet gives up far more than the banker's
    "rounds": 30,
    "seed": 8,
    "scored": True,
}


def score_rows(path: Path, table: int) -> tuple[list[Any], list[Any]]:
    with sqlite3.connect(path) as conn:
        decisions = conn.execute(
            "SELECT * FROM scores WHERE table_id = ? ORDER BY round, seat, position", (table,)
        ).fetchall()
        rounds = conn.execute(
            "SELECT * FROM score_rounds WHERE table_id = ? ORDER BY round, seat", (table,)
        ).fetchall()
    return decisions, rounds


BLACKJACK = {
    "seats": 2,
    "fill": ["lim17", "never-bust"],
    "options": {"decks": 1, "penetration": 0.9},
    "rounds": 14,
    "seed": 3,
    "scored": True,
}


async def scored_to_end(
    path: Path, nursery: trio.Nursery, create: dict[str, Any] = SCORED
) -> tuple[int, dict[str, Any]]:
    """Play the scored table to its end, every answer in; its id and table.info."""
    journal = Journal(str(path))
    server = await serve(nursery, journal)
    async with connect("127.0.0.1", server.port, name="c") as c:
        table = (await c.call_named("table.create", create))["table"]
        await tables_of(server).tables[table].scores_in.wait()
        info = await c.call("table.info", table)
    server.stop()
    await journal.aclose()
    return table, info


async def test_a_scored_tables_scores_are_in_the_journal_and_its_history(nursery, tmp_path):
    path = tmp_path / "j.db"
    table, info = await scored_to_end(path, nursery)
    decisions, rounds = score_rows(path, table)
    assert len(rounds) == 60 and len(decisions) == 60  # a bet a coup, each seat
    banker, tie = info["scores"]
    assert banker["rounds"] == tie["rounds"] == 30
    assert tie["loss_per_decision"][0] > banker["loss_per_decision"][0] >= 0
    worst = tie["costliest"][0]
    assert worst["table"] == table and 1 <= worst["round"] <= 30 and worst["taken"] == "tie"
    for row in decisions:  # loss = best value - value taken, as the oracle gave them
        assert row[9] == pytest.approx(row[8] - row[7])
    server = await serve(nursery, Journal(str(path)))
    async with connect("127.0.0.1", server.port, name="c") as c:
        record = await c.call_named("history.table", {"table": table})
        page = await c.call_named("history.scores", {"table": table, "offset": 58, "limit": 5})
        first = await c.call_named("history.scores", {"table": table, "limit": 1})
    server.stop()
    await server.journal.aclose()
    assert record["scores"] == info["scores"]  # rebuilt from the journal, exactly
    assert len(page) == 2 and page[-1]["round"] == 30 and page[-1]["seat"] == 2
    assert first[0]["round"] == 1 and first[0]["seat"] == 1 and first[0]["table"] == table


@pytest.mark.parametrize(
    ("create", "keep", "scored"),
    [(SCORED, 12, 12), (SCORED, 12, 7), (SCORED, 20, 0), (SCORED, 12, 6.5), (BLACKJACK, 9, 4)],
    ids=[
        "baccarat-all-in",
        "baccarat-lagging",
        "baccarat-none-in",
        "baccarat-cut-between-seats",
        "blackjack-lagging",
    ],
)
async def test_a_recovered_scored_table_shows_its_scores_and_goes_on_scoring(
    nursery, tmp_path, create, keep, scored
):
    """A crash right after round ``keep`` settled, with the answers of rounds up to
    ``scored`` in the journal (the oracle's answers lag the table): the recovered table
    scores the rounds after ``scored`` again from its replay, and ends with exactly the
    scores of a run that never stopped."""
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    table, info = await scored_to_end(whole, nursery, create)
    crash_after(whole, cut, {table: keep})
    cut_at = "round + (seat - 1) / 2.0 >= ? + 1"  # 6.5: round 7's seat 1 is in, seat 2 not
    with sqlite3.connect(cut) as conn:
        conn.execute(f"DELETE FROM scores WHERE {cut_at}", (scored,))
        conn.execute(f"DELETE FROM score_rounds WHERE {cut_at}", (scored,))
    server = await recover(cut, nursery)
    recovered = tables_of(server).tables[table]
    await recovered.scores_in.wait()
    async with connect("127.0.0.1", server.port, name="c") as c:
        after = await c.call("table.info", table)
        record = await c.call_named("history.table", {"table": table})
    server.stop()
    await server.journal.aclose()
    assert after["scores"] == info["scores"]
    assert record["scores"] == info["scores"]
    assert score_rows(cut, table) == score_rows(whole, table)


def test_croupier_history_scores_lists_a_tables_costliest_decisions(tmp_path, cli):
    """Offline, on the journal (the CLI runs its own trio loop: the server runs first)."""
    path = tmp_path / "j.db"

    async def play() -> tuple[int, dict[str, Any]]:
        async with trio.open_nursery() as nursery:
            return await scored_to_end(path, nursery)

    table, info = trio.run(play)
    status, out, err = cli("history", "scores", str(table), "--data", str(path), "--json")
    assert status == 0, err
    found = json.loads(out)
    assert len(found) == 10 and found[0]["loss"] >= found[-1]["loss"] > 0
    worst = info["scores"][1]["costliest"][0]  # the tie bettor's, as table.info had it
    assert found[0] == worst
    status, out, err = cli("history", "scores", str(table), "--data", str(path), "--top", "0")
    assert status == 0, err
    assert "costliest first" in out
    assert sum(1 for line in out.splitlines() if " tie " in f" {line} ") >= 30
    status, _, err = cli("history", "scores", "999", "--data", str(path))
    assert status != 0 and err.count("\n") == 1 and "no table 999" in err
