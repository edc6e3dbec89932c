"""A scored table's decisions (``table.create`` with ``scored``) valued against its game's
oracle off the table's path: the questions are answered in a thread, a batch at a time,
while the table plays on, and ``table.info`` shows the scorecards as they fill."""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from croupier.engine.oracle import Question, Valuation

if TYPE_CHECKING:
    from croupier.protocol.tables.run import ServerTable


def _answer_all(questions: list[Question]) -> list[Valuation]:
    return [q.valuation() for q in questions]


async def score_decisions(table: ServerTable) -> None:
    """Answer the oracle's questions in a thread, a batch at a time, while the table
    plays on (the table never waits on scoring); the last after it has finished. The
    rounds whose answers are all in go to the journal as they come."""
    assert table.engine is not None and table.engine.scorer is not None
    scorer = table.engine.scorer
    while True:
        finished = table.done.is_set()
        handle, questions = scorer.take_open()
        if questions:
            answers = await trio.to_thread.run_sync(_answer_all, questions)
            scorer.answer(handle, answers)
            settled = scorer.take_settled()
            if settled:  # kept: table.info and the history show them after a restart
                table.server.journal.table_scores(table.id, settled)
        elif finished:  # every answer in: any subscriber still listening gets them
            table.broadcast_status()
            table.scores_in.set()
            return
        else:
            with trio.move_on_after(0.5):
                await table.done.wait()
