"""The kill benchmark's clock of settled rounds: when this process saw each round settle on
the server running now, and so how old the first round a kill lost was
(``benchmarks/durability.py --kills``)."""

from __future__ import annotations

import time
from typing import NamedTuple


class Window(NamedTuple):
    """A kill's loss at one table: the rounds settled on the killed server and not in its
    journal, and how long before the kill the first of them settled. ``exact``: that round
    was seen settle (``age`` is at most its true age); otherwise it settled before a watch
    began, and its age lies between ``low`` and ``age``."""

    age: float
    table: int
    lost: int
    rate: float
    exact: bool
    low: float


NONE = Window(0.0, 0, 0, 0.0, True, 0.0)


class Stamps:
    """When this process first saw each table's rounds settle (its ``end`` event, from a
    watcher or a bot) on the server running now, on the monotonic clock the kills are timed
    by: a round is seen after it settled, so the time from its stamp to a kill is at most its
    true age then. Each server run starts afresh (:meth:`new_run`): a round lost at one kill
    and killed again before it was dealt again is not counted twice, nor timed from the first.

    The rounds a table settled before a watch of it began are not seen: a fresh table deals
    while its creator asks to watch it, a recovered one as soon as it is rebuilt, before the
    watcher is back. The watch's answer says how many rounds it had settled (``played``):
    those settled after the earliest moment they could (the create sent, the server's
    process started) and before the answer (:meth:`watched`), which bounds their age."""

    def __init__(self) -> None:
        self.run = -1
        """The server run (each kill starts the next): a connection notes the one it was
        made to, and what comes on it later (read after the kill) is stale."""
        self.new_run(time.monotonic())

    def new_run(self, since: float) -> None:
        """A new server, started (its process) at ``since``."""
        self.run += 1
        self.since = since
        self.at: dict[int, dict[int, float]] = {}
        self.last: dict[int, int] = {}
        """Per table, the last round known settled on this server."""
        self.unseen: dict[int, tuple[int, float, float]] = {}
        """Per table: rounds up to this one settled unseen, not before and not after these
        two times."""

    def saw(self, table: int, round_: int) -> None:
        self.at.setdefault(table, {}).setdefault(round_, time.monotonic())
        self.last[table] = max(self.last.get(table, 0), round_)

    def watched(self, table: int, played: int, since: float | None = None) -> None:
        """A watch of ``table`` was answered now, the table having settled ``played`` rounds
        (those after the journal's were settled on this server, after ``since``: by default
        the server's start)."""
        now = time.monotonic()
        earliest = self.since if since is None else max(since, self.since)
        if played > self.unseen.get(table, (0, 0.0, 0.0))[0]:
            self.unseen[table] = (played, earliest, now)
        self.last[table] = max(self.last.get(table, 0), played)

    def window(self, committed: dict[int, int], killed: float) -> Window:
        """The kill's largest loss: per table the rounds after the journal's last, timed
        from the first of them; the oldest (an unseen one by its upper bound) wins."""
        worst = NONE
        for table, last in self.last.items():
            first_lost = committed.get(table, 0) + 1
            if last < first_lost:
                continue
            lost = last - first_lost + 1
            rate = self.rate(table, killed)
            when = self.at.get(table, {}).get(first_lost)
            if when is not None:
                found = Window(killed - when, table, lost, rate, True, killed - when)
            else:
                upto, earliest, latest = self.unseen.get(table, (0, killed, killed))
                if first_lost > upto:  # seen after it settled, the stamp missed: not timed
                    continue
                found = Window(killed - earliest, table, lost, rate, False, killed - latest)
            if (found.age, found.lost) > (worst.age, worst.lost):
                worst = found
        return worst

    def rate(self, table: int, until: float, span: float = 1.0) -> float:
        """The rounds/s this process saw ``table`` settle in the ``span`` s before ``until``."""
        return sum(until - span <= t <= until for t in self.at.get(table, {}).values()) / span
