"""A fair, bounded pool of worker slots shared by every connection.

Solves, strategy charts and large randomizer draws are CPU work that runs outside the event
loop, a few at a time. A plain capacity limiter serves callers first come, first served, so
one client that queues many jobs starves everybody behind it. :class:`FairPool` hands a
freed slot to the *owners* (connections) in turn: each waiting owner gets the next slot
before any owner gets a second one, however many jobs it queued. The queue is bounded (in
all and per owner) and so is the time a job may wait: a job that cannot be queued, or
waits too long, is refused at once with ``busy``, which says that it never ran.

Owners may belong to a *group* (the connections of one peer address): a group runs at most
``per_group_running`` jobs at once, so one client with many connections cannot hold every
worker either.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

import trio

from croupier.protocol.errors import Code, RpcError


class FairPool:
    """``slots`` jobs at once, at most ``per_owner_running`` of one owner and
    ``per_group_running`` of one group; at most ``max_waiting`` jobs wait (``per_owner`` of
    one owner), each for at most ``max_wait`` seconds."""

    def __init__(
        self,
        name: str,
        slots: int,
        *,
        max_waiting: int,
        per_owner: int,
        max_wait: float,
        per_owner_running: int | None = None,
        per_group_running: int | None = None,
    ) -> None:
        if slots < 1 or max_waiting < 0 or per_owner < 0 or max_wait <= 0:
            raise ValueError("a pool needs a slot, and non-negative bounds")
        self.name = name
        self.slots = slots
        self.max_waiting = max_waiting
        self.per_owner = per_owner
        self.max_wait = max_wait
        self.per_owner_running = slots if per_owner_running is None else per_owner_running
        self.per_group_running = slots if per_group_running is None else per_group_running
        self.running = 0
        self._running_by: dict[Hashable, int] = {}
        self._group_of: dict[Hashable, Hashable] = {}
        """The group of each owner running or waiting (owners with no group are absent)."""
        self._running_in: dict[Hashable, int] = {}
        self._queues: dict[Hashable, deque[trio.Event]] = {}
        """Waiting jobs by owner; the dict's order is the order owners are served in."""

    @property
    def waiting(self) -> int:
        return sum(len(q) for q in self._queues.values())

    def _may_run(self, owner: Hashable) -> bool:
        if self.running >= self.slots or self._running_by.get(owner, 0) >= self.per_owner_running:
            return False
        group = self._group_of.get(owner)
        return group is None or self._running_in.get(group, 0) < self.per_group_running

    @asynccontextmanager
    async def turn(self, owner: Hashable, group: Hashable = None) -> AsyncIterator[None]:
        """Hold a slot for the body; wait for one fairly, or raise ``busy``. ``group``:
        the owner's group (None: none); an owner keeps one group while it holds or waits."""
        if group is not None:
            self._group_of[owner] = group
        try:
            if self._may_run(owner) and owner not in self._queues:
                self._start(owner)
            else:
                await self._wait(owner)
        except BaseException:
            self._forget_group(owner)
            raise
        try:
            yield
        finally:
            self._release(owner)

    def _forget_group(self, owner: Hashable) -> None:
        if owner not in self._running_by and owner not in self._queues:
            self._group_of.pop(owner, None)

    def _start(self, owner: Hashable) -> None:
        self.running += 1
        self._running_by[owner] = self._running_by.get(owner, 0) + 1
        group = self._group_of.get(owner)
        if group is not None:
            self._running_in[group] = self._running_in.get(group, 0) + 1

    async def _wait(self, owner: Hashable) -> None:
        waiting = self.waiting
        queue = self._queues.get(owner)
        if waiting >= self.max_waiting or (queue is not None and len(queue) >= self.per_owner):
            mine = 0 if queue is None else len(queue)
            raise RpcError(
                Code.BUSY,
                f"the server is busy: {waiting} {self.name} jobs are waiting ({mine} of yours); "
                "nothing was run, try again later",
            )
        ready = trio.Event()
        self._queues.setdefault(owner, deque()).append(ready)
        try:
            with trio.move_on_after(self.max_wait):
                await ready.wait()
        except BaseException:
            if ready.is_set():  # handed a slot just as we were cancelled: pass it on
                self._release(owner)
            else:
                self._forget(owner, ready)
            raise
        if not ready.is_set():
            self._forget(owner, ready)
            raise RpcError(
                Code.BUSY,
                f"the server is busy: no {self.name} worker was free within "
                f"{self.max_wait:g} s; nothing was run, try again later",
            )

    def _forget(self, owner: Hashable, ready: trio.Event) -> None:
        queue = self._queues[owner]
        queue.remove(ready)
        if not queue:
            del self._queues[owner]

    def _release(self, owner: Hashable) -> None:
        """Free the owner's slot, then hand free slots to waiting owners in turn."""
        self.running -= 1
        left = self._running_by[owner] - 1
        if left:
            self._running_by[owner] = left
        else:
            del self._running_by[owner]
        group = self._group_of.get(owner)
        if group is not None:
            in_group = self._running_in[group] - 1
            if in_group:
                self._running_in[group] = in_group
            else:
                del self._running_in[group]
        self._forget_group(owner)
        while self.running < self.slots:
            found = next((o for o in self._queues if self._may_run(o)), None)
            if found is None:
                return
            queue = self._queues.pop(found)
            ready = queue.popleft()
            if queue:  # the owner's next job waits behind every other owner's
                self._queues[found] = queue
            self._start(found)
            ready.set()
