"""Virtual time for tests whose server does work in threads or worker processes.

trio's autojump MockClock leaps to the next deadline as soon as every task waits. A task
waiting for a thread (a randomizer draw, the journal's commit before an answer) or a worker
process (a solve, a strategy chart) waits too, so the clock would race through every timeout
while the work runs, more the slower the machine. :func:`hold_during_work` turns autojump
off while any such call is out: work takes no virtual time at all, and the timeouts a test
looks at are exact.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio
import trio_parallel
from trio.testing import MockClock

from croupier.protocol.journal.writer import JournalWriter


def hold_during_work(clock: MockClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ``clock``'s autojump while ``trio.to_thread.run_sync`` or
    ``trio_parallel.run_sync`` calls are out (both are how the server runs work), and while
    the journal's writer thread commits what an answer waits for (``durable``; a patient
    wait for a failed journal to write again does take virtual time)."""
    out = 0
    threshold = clock.autojump_threshold

    def held(run: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def run_held(*args: Any, **kwargs: Any) -> Any:
            nonlocal out
            out += 1
            clock.autojump_threshold = math.inf
            try:
                return await run(*args, **kwargs)
            finally:
                out -= 1
                if not out:
                    clock.autojump_threshold = threshold

        return run_held

    monkeypatch.setattr(trio.to_thread, "run_sync", held(trio.to_thread.run_sync))
    monkeypatch.setattr(trio_parallel, "run_sync", held(trio_parallel.run_sync))
    durable = JournalWriter.durable
    durable_held = held(durable)

    async def durable_unless_patient(self: JournalWriter, patient: bool = False) -> None:
        await (durable(self, patient) if patient else durable_held(self, patient))

    monkeypatch.setattr(JournalWriter, "durable", durable_unless_patient)


async def pass_time(clock: MockClock, seconds: float, *, step: float = 0.01) -> None:
    """Move ``clock`` on by ``seconds`` in steps, the other tasks taking a turn after each.

    For a server that never waits (a table playing as fast as it can): autojump only comes
    when every task waits, so without this no time would pass at all. Its timers then fire
    as they would while it computes, at most a step late."""
    for _ in range(round(seconds / step)):
        clock.jump(step)
        await trio.sleep(0)
