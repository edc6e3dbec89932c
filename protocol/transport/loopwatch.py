"""How long the server's event loop has been unable to run: a watch on its own heartbeat.

A task sleeps :data:`TICK` seconds over and over; when it wakes late by more than
:data:`SLACK`, the loop was busy (a long computation, a huge message to decode, the machine
swapping) and nobody's bytes were read meanwhile. A table gives a bot that much more time
(``GameTable(stalls=...)``): an answer that arrived in time but waited in a socket while the
server was not listening must not be a timeout, and a wrong game result.
"""

from __future__ import annotations

import trio

TICK = 0.05
SLACK = 0.05


class LoopWatch:
    """:meth:`run` is the heartbeat; :meth:`stalled` the seconds lost so far."""

    def __init__(self) -> None:
        self._lost = 0.0
        self._last: float | None = None

    async def run(self) -> None:
        self._last = trio.current_time()
        while True:
            await trio.sleep(TICK)
            now = trio.current_time()
            self._lost += self._late(now)
            self._last = now

    def _late(self, now: float) -> float:
        assert self._last is not None
        late = now - self._last - TICK
        return late if late > SLACK else 0.0

    def stalled(self) -> float:
        """Seconds the loop could not run, the stall going on now included (the heartbeat
        may not have woken yet when a decision's deadline is looked at)."""
        if self._last is None:
            return self._lost
        return self._lost + self._late(trio.current_time())
