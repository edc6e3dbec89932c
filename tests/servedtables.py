"""Servers, recorders and replays shared by the tables-service tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.plugins.blackjack.tablelog import LOG_NAME, LOG_VERSION, replay
from croupier.protocol import Server
from croupier.protocol.services import default_services
from croupier.protocol.tables import TableService


def table_server(**timeouts: float) -> Server:
    """A server whose tables service has the given timeouts (``vacant_timeout``,
    ``unclaimed_timeout``); serve it with ``tests.memnet.serve``."""
    services = [*default_services()[:-1], TableService(**timeouts)]
    return Server(
        PluginManager(autoload=False), default_game="blackjack", seed=11, services=services
    )


async def start_table_server(nursery: trio.Nursery, **timeouts: float) -> Server:
    """:func:`table_server` on a free loopback port, ``server.port``."""
    server = table_server(**timeouts)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    server.port = port  # type: ignore[attr-defined]
    return server


class Recorder:
    """A notification callback keeping ``table.event`` maps and ``table.status`` infos."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.statuses: list[dict[str, Any]] = []
        self.finished = trio.Event()
        self._changed = trio.Event()

    async def __call__(self, method: str, params: Any) -> None:
        if method == "table.event":
            self.events.append(params[1])
        elif method == "table.status":
            self.statuses.append(params[1])
            if params[1]["state"] == "finished":
                self.finished.set()
        self._changed.set()
        self._changed = trio.Event()

    async def until(self, done: Callable[[], bool]) -> None:
        """Wait until ``done()`` holds, looked at after each notification (no polling: a
        table that plays without pause never lets virtual time pass)."""
        while not done():
            await self._changed.wait()

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["kind"] == kind]


def replayed_chips(info: dict[str, Any], events: list[dict[str, Any]]) -> list[int]:
    """Replay a server table locally from its seed and recorded events."""
    header = {
        "log": LOG_NAME,
        "version": LOG_VERSION,
        "seed": info["seed"],
        "rules": info["rules"],
        "chips": [info["rules"]["starting_chips"]] * len(info["seats"]),
    }
    lines = [json.dumps(header), *(json.dumps(e) for e in events)]
    core = replay(PluginManager(autoload=False), lines)
    return [core.ledger.balances[seat.account] for seat in core.seats]
