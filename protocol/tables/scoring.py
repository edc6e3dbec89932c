"""A scored table's decisions (``table.create`` with ``scored``) valued against its game's
oracle off the table's path, and off the server's process.

The table's own path only hands over each decision as a plain record (the oracle's
:class:`~croupier.engine.oracle.Question`: the remaining shoe, the hand, the action taken).
The valuations, milliseconds of solving each for blackjack, run in worker processes
(``ServerLimits.scoring_workers`` of them server-wide, at a lower CPU priority than the
server's loop: :mod:`croupier.protocol.workers`), a batch at a time per table, while the
table plays on; ``table.info`` shows the scorecards as they fill, and the rounds whose
answers are all in go to the journal as they come. A scored tournament's tables are
valued by the same workers, each once it has played. With ``scoring_workers`` 0 they run in
a thread of the server's process instead, as they did first: the table then shares its CPU
and GIL with them (a scored blackjack table of 4 TCP bots played 2.2-2.7 times slower).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from croupier.engine.oracle import Question, Valuation
from croupier.protocol.valuing import value_questions

if TYPE_CHECKING:
    from croupier.protocol.tables.run import ServerTable

IDLE_POLL = 0.5
"""Seconds the scoring task waits for more decisions when none is open (the table's end
wakes it at once)."""


async def answer(table: ServerTable, questions: list[Question]) -> list[Valuation]:
    """``questions``' answers, for ``table`` (see :func:`value_questions`)."""
    return await value_questions(table.server, questions)


async def score_decisions(table: ServerTable) -> None:
    """Answer the oracle's questions a batch at a time, while the table plays on (the table
    never waits on scoring); the last after it has finished. The rounds whose answers are
    all in go to the journal as they come."""
    assert table.engine is not None and table.engine.scorer is not None
    scorer = table.engine.scorer
    while True:
        finished = table.done.is_set()
        handle, questions = scorer.take_open()
        if questions:
            scorer.answer(handle, await answer(table, questions))
            settled = scorer.take_settled()
            if settled:  # kept: table.info and the history show them after a restart
                table.server.journal.table_scores(table.id, settled)
        elif finished:  # every answer in: any subscriber still listening gets them
            table.broadcast_status()
            table.scores_in.set()
            return
        else:
            with trio.move_on_after(IDLE_POLL):
                await table.done.wait()
