"""Ctrl-C while ``croupier play --game NAME --connect`` waits for a server that went away:
the person gets the tally as last seen, not the error of the check the game makes on the
table afterwards (it connected to the vanished server, and the refusal was all that was
printed, exit status 1, no tally)."""

from __future__ import annotations

import threading
from typing import Any

from croupier.clients.play.lineplay import LinePerson
from croupier.clients.play.lineremote import play_remote
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


def test_the_rounds_as_last_seen_are_those_the_seat_played():
    """With the server away, the tally's rounds come from the events the person saw: the
    rounds the seat staked, as the game counts them (a coup passed is not one)."""
    manager = PluginManager(autoload=False)
    person = LinePerson(manager.games.get("baccarat"), lambda: None, lambda text: None)
    events = [
        {"kind": "bet", "round": 1, "seat": 1, "bets": {"banker": 20}, "text": "."},
        {"kind": "action", "round": 1, "seat": 1, "action": {"kind": "bet"}, "text": "."},
        {"kind": "bet", "round": 1, "seat": 2, "bets": {"tie": 20}, "text": "."},
        {"kind": "pass", "round": 2, "seat": 1, "text": "."},
        {"kind": "action", "round": 2, "seat": 1, "action": {"kind": "pass"}, "text": "."},
        {"kind": "bet", "round": 3, "seat": 1, "bets": {"player": 20}, "text": "."},
    ]
    for event in events:
        person.on_event(event)
    assert person.seen.hands[:2] == [2, 1]  # seat 1: rounds 1 and 3; seat 2: round 1
    blackjack = LinePerson(manager.games.get("blackjack"), lambda: None, lambda text: None)
    blackjack.on_event({"kind": "action", "round": 1, "seat": 1, "action": "bet", "amount": 10})
    blackjack.on_event({"kind": "settle", "round": 1, "seat": 1, "hand": 0, "outcome": "win"})
    blackjack.on_event({"kind": "action", "round": 2, "seat": 1, "action": "pass"})
    assert blackjack.seen.hands[0] == 1
