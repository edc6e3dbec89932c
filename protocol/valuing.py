"""Oracle valuations off the server's event loop: in scoring worker processes
(``ServerLimits.scoring_workers`` of them server-wide, at a lower CPU priority than the
loop: :mod:`croupier.protocol.workers`), or in a thread when there are none. Shared by the
tables service (a scored table as it plays) and the tournaments service (a scored
tournament's tables once each has played), so neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio
import trio_parallel

from croupier.engine.oracle import Question, Valuation
from croupier.protocol.workers import lower_priority

if TYPE_CHECKING:
    from croupier.protocol.transport.server import RpcServer


def _answer_all(questions: list[Question]) -> list[Valuation]:
    return [q.valuation() for q in questions]


def _answer_in_worker(questions: list[Question]) -> list[Valuation]:
    lower_priority()
    return _answer_all(questions)


async def value_questions(server: RpcServer, questions: list[Question]) -> list[Valuation]:
    """``questions``' answers, in order, from a scoring worker process (or a thread: see
    the module's text): a scored table's as it plays, a scored tournament table's once it
    has played. A worker still valuing when the server stops is killed."""
    if server.limits.scoring_workers == 0:
        return await trio.to_thread.run_sync(_answer_all, questions, abandon_on_cancel=True)
    valued: list[Valuation] = await trio_parallel.run_sync(
        _answer_in_worker, questions, limiter=server.scoring_limiter, kill_on_cancel=True
    )
    return valued
