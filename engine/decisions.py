"""A table's decision clock: each answer's time limit, shared by every game's table.

A player has ``decision_time`` seconds per answer, plus any time the event loop could not
run meanwhile (``stalls``, a server's watch): an answer that waited in a socket while the
server was busy is still in time. :meth:`DecisionClock.limit_decisions` bounds every
decision from now on *in all* (a shutdown's grace). A player that raises gets an
``("error", exception)``; one out of time a ``("timeout", reason)``; the table decides what
follows (the default, for the games here).

A player that answers without waiting (an in-process strategy) is asked with
:meth:`DecisionClock.answer_now`: a plain call, no task and no cancel scope (a synchronous
answer cannot be cancelled anyway). A player whose question is sent and answered elsewhere
(a remote bot: the request written, the answer set by the connection's reader) is asked
with :meth:`DecisionClock.answer_pending`: the table's own task waits for the answer under
the deadline, with no task and no nursery per decision.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

import trio

T = TypeVar("T")


class PendingAnswer(Protocol):
    """A question already put to a player (a remote bot's ``decide`` request written):
    ``done`` is set when its answer came, or when it never will (a closed connection)."""

    @property
    def done(self) -> trio.Event: ...

    def result(self) -> object:
        """The answer, once ``done``; raises what the player's failure was."""
        ...

    def close(self) -> None:
        """The question is over (answered or given up): a late answer is dropped."""
        ...


DECISION_TIME = 2.0
"""Seconds a player has for one answer, by default."""
ATTEMPTS = 3
"""Answers a player may give for one decision before it gets the default."""


class DecisionClock:
    """Times the answers of one table's players (see the module's text)."""

    def __init__(self, decision_time: float, stalls: Callable[[], float] | None = None) -> None:
        self.decision_time = decision_time
        self._pending: trio.CancelScope | None = None  # the decision being waited for
        self._cutoff = math.inf  # no decision waits past this time (trio's clock)
        self.stalls = stalls
        """Seconds the event loop has been unable to run so far (a server's watch), or
        None: a decision's time does not count time the table itself could not listen."""

    def limit_decisions(self, seconds: float) -> None:
        """Every decision from now on, the one being waited for included, ends within
        ``seconds`` from now *in all*: a shutdown's grace bounds the rest of the hand, not
        each of its decisions, and a table with no time limit (a person at the terminal)
        still finishes its hand."""
        self._cutoff = min(self._cutoff, trio.current_time() + seconds)
        if self._pending is not None:
            self._pending.deadline = min(self._pending.deadline, self._cutoff)

    def answer_now(self, call: Callable[[T], object], observation: T) -> tuple[str, object]:
        """:meth:`answer` for a player that answers at once (``call(observation)`` is
        synchronous): ``("answer", action)`` or ``("error", exception)``, with no task per
        decision. It never times out, even on a table out of time: an answer that takes no
        time is within any limit (through :meth:`answer`, it raced the expired deadline)."""
        try:
            return "answer", call(observation)
        except Exception as exc:  # a broken player never stops the table
            return "error", exc

    async def answer_pending(
        self, ask: Callable[[], Awaitable[PendingAnswer]]
    ) -> tuple[str, object]:
        """:meth:`answer` for a player whose question is answered elsewhere: ``ask()`` puts
        it (a request written, quickly) and returns the :class:`PendingAnswer`, whose
        ``done`` this waits for in the caller's own task, under the same deadline as
        :meth:`answer` (moved by ``stalls``, brought forward by :meth:`limit_decisions`):
        no task, no nursery per decision. Putting the question counts against the time
        too, but, cut short, it is not resumed (a peer that does not even read in time
        is out of time)."""
        stalled = self.stalls() if self.stalls is not None else 0.0
        deadline = min(trio.current_time() + self.decision_time, self._cutoff)
        pending: PendingAnswer | None = None
        try:
            # one cancel scope puts the question and waits (the usual case); another only
            # when time the loop could not run is given back
            while True:
                with trio.move_on_at(deadline) as wait:
                    self._pending = wait
                    try:
                        if pending is None:
                            try:
                                pending = await ask()
                            except Exception as exc:  # a broken player never stops the table
                                return "error", exc
                        done = pending.done
                        if not done.is_set():
                            await done.wait()
                    finally:
                        self._pending = None
                if pending is not None and pending.done.is_set():
                    try:
                        return "answer", pending.result()
                    except Exception as exc:
                        return "error", exc
                deadline = wait.deadline  # limit_decisions may have brought it forward
                if deadline >= self._cutoff:
                    return "timeout", "no time left: the table is stopping"
                now = self.stalls() if self.stalls is not None else stalled
                if pending is None or now <= stalled:
                    return "timeout", f"timeout after {self.decision_time:g}s"
                deadline = min(deadline + now - stalled, self._cutoff)  # the server's time
                stalled = now
        finally:
            if pending is not None:
                pending.close()

    async def answer(self, call: Callable[[], Awaitable[object]]) -> tuple[str, object]:
        """``("answer", action)``, ``("error", exception)`` or ``("timeout", reason)``.

        The player has ``decision_time`` seconds, plus any time the event loop could not run
        meanwhile (``stalls``): an answer that waited in a socket while the server was busy
        is still in time. The call goes on while the deadline moves, and is cancelled only
        once the time is up (or the table is stopping: see :meth:`limit_decisions`).
        """
        outcome: list[tuple[str, object]] = []
        done = trio.Event()

        async def ask() -> None:
            try:
                outcome.append(("answer", await call()))
            except Exception as exc:  # a broken player never stops the table
                outcome.append(("error", exc))
            done.set()

        stalled = self.stalls() if self.stalls is not None else 0.0
        deadline = min(trio.current_time() + self.decision_time, self._cutoff)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ask)
            while True:
                with trio.move_on_at(deadline) as wait:
                    self._pending = wait
                    try:
                        await done.wait()
                    finally:
                        self._pending = None
                if done.is_set():
                    return outcome[0]
                deadline = wait.deadline  # limit_decisions may have brought it forward
                if deadline >= self._cutoff:
                    nursery.cancel_scope.cancel()
                    return "timeout", "no time left: the table is stopping"
                now = self.stalls() if self.stalls is not None else stalled
                if now <= stalled:
                    nursery.cancel_scope.cancel()
                    return "timeout", f"timeout after {self.decision_time:g}s"
                deadline = min(deadline + now - stalled, self._cutoff)  # the server's time
                stalled = now
