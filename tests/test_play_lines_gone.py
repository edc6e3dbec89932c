"""Ctrl-C while ``croupier play --game NAME --connect`` waits for a server that went away:
the person gets the tally as last seen, not the error of the check the game makes on the
table afterwards (it connected to the vanished server, and the refusal was all that was
printed, exit status 1, no tally)."""

from __future__ import annotations

import threading
from typing import Any

from croupier.clients.play.lineplay import LinePerson, play_remote
from croupier.engine import PluginManager
from croupier.protocol import Server
from croupier.protocol.journal import Journal
from croupier.protocol.services import default_services
from croupier.protocol.tables import TableService


async def test_ctrl_c_while_the_server_is_away_ends_with_the_tally_as_last_seen(nursery, tmp_path):
    journal = Journal(str(tmp_path / "croupier.db"))  # a server that says it resumes
    services = [*default_services()[:-1], TableService(vacant_timeout=30, unclaimed_timeout=30)]
    manager = PluginManager(autoload=False)
    server = Server(manager, default_game="baccarat", seed=3, services=services, journal=journal)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    never = threading.Event()
    written: list[str] = []

    def write(text: str) -> None:
        written.append(text)
        if "trying to connect again" in text:
            raise KeyboardInterrupt  # the person presses Ctrl-C while the game waits

    person = LinePerson(manager.games.get("baccarat"), lambda: never.wait() and None, write)
    seats: list[dict[str, Any]] = []

    def seated(joined: dict[str, Any]) -> None:
        seats.append(joined)
        server.stop()  # the server goes away while the person sits

    create = {"game": "baccarat", "seed": 5, "seats": 1, "decision_time": None}
    end = await play_remote(person, "127.0.0.1", port, None, create, seated)
    never.set()
    assert end.ended == "interrupted" and not end.settled and not end.reached
    assert end.table == seats[0]["table"]
    assert (end.tally.rounds, end.tally.chips, end.tally.net) == (0, 2000, 0)
    await journal.aclose()
