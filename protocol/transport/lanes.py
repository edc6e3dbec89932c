"""Bots' answers ahead of bulk requests: the play lane.

A table of bots is a chain of round trips: the server calls a bot's ``decide`` and the
table waits for the answer. Each wakeup of the table (the bot's connection reading the
answer, then the table's task) waits its turn in trio's run queue behind every busy
connection, and a connection whose read holds many requests handles up to
``DISPATCH_TURN`` of them per turn: with a few such connections a table slowed to a
hundredth of its speed. So the server counts the calls it has made to clients and not yet
had answered (:attr:`PlayLane.waiting`); while any is waiting, a connection handles one
request per turn instead (answers to the server's calls never end a turn), and the
table's wakeups come after a request of each busy connection rather than after a read's
worth.
"""

from __future__ import annotations


class PlayLane:
    """Server-wide count of calls to clients (``decide``) waiting for their answer."""

    def __init__(self) -> None:
        self.waiting = 0
