"""``croupier play --connect`` across a graceful restart of its server: a real ``croupier
serve --data`` is stopped with SIGTERM while the person has a decision on screen and
started again on the same journal; the game tells the person, takes the seat back with its
token (the bot SDK's reconnect loop), plays the interrupted round again from its start with
the same cards, and ends with the tally of a game that never stopped. The same for the
line-by-line game of another game (``--game baccarat``).

Nothing races the clock: the stop waits until the journal holds the settled rounds, the
restart until the server says what it recovered, the game until the screen shows it; the
person's client keeps trying for as long as a server that said it resumes is away.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
import trio

from tests.termkit import CROUPIER, TIMEOUT, Term
from tests.test_recovery_sigkill import Served, query, until

pytestmark = pytest.mark.slow

ROUNDS = "SELECT max(round) FROM events"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A real ``croupier serve --data`` on a journal in ``tmp_path``, listening; stopped
    (SIGTERM) after the test."""
    server = Served(tmp_path / "j.db", tmp_path)
    server.start()
    try:
        trio.run(server.said, "listening on")
        yield server
    finally:
        server.stop()


def test_the_person_takes_the_seat_back_after_a_graceful_restart(served):
    term = Term("play", "--connect", f"127.0.0.1:{served.port}", "--seed", "5")
    term.wait_for("Your bet (1-100)")
    term.press("\r", "King of Spades, Seven of Hearts", "[H] Hit")  # round 1
    term.press("h", "You draw the Ace of Diamonds")
    term.press("s", "Round over: you lose 1 chip", "Your bet (1-99)")
    term.press("\r", "Round over: you win 1 chip", "Your bet (1-100)")  # round 2
    dealt = term.press("\r", "Your move (16 against the dealer's 6)")  # round 3
    assert "Eight of Hearts, Eight of Spades" in dealt and "Chips 99" in dealt
    trio.run(until, lambda: query(served.path, ROUNDS) == 2)  # rounds 1 and 2 are kept
    served.terminate()
    stopped = term.wait_for("The server is restarting: your seat is kept for you")
    assert "Your move" not in stopped  # the decision went with the connection
    served.start()
    said = trio.run(served.said, "resumes after round 2")
    assert "recovered from the journal: 0 tournaments, 1 tables" in said
    table = re.search(r"\(table (\d+), seed 5\)", dealt)
    assert table is not None
    back = term.wait_for(
        f"Back at table {table.group(1)}, seat 1",
        "Round 3 starts again from the beginning",
        "Your bet (1-100)",
    )
    assert "Round 3  Chips 100" in back  # the unsettled round's bet is back
    again = term.press("\r", "Your move (16 against the dealer's 6)")
    assert "Eight of Hearts, Eight of Spades" in again  # the same cards
    term.press("s", "Round over: you lose 1 chip", "Your bet (1-99)")
    term.press("q")
    assert term.finish() == 0
    # three hands, as in a game that never stopped: the replayed round counts once
    assert "Thanks for playing. 3 hands: 1 won, 2 lost, 0 pushed; net -1 chip" in term.output()


def test_q_quits_while_the_game_waits_for_the_server(served):
    """Mid-hand, Q asks first; while the game waits for a restarting server there is no
    table to answer for, and Q ends the game at once."""
    term = Term("play", "--connect", f"127.0.0.1:{served.port}", "--seed", "5")
    term.wait_for("Your bet (1-100)")
    term.press("\r", "[H] Hit")
    served.terminate()
    term.wait_for("Trying to connect again in", "(Q quits)")
    term.press("q")
    assert term.finish() == 0
    assert "Thanks for playing. 0 hands" in term.output()


def test_the_line_game_takes_the_seat_back_after_a_graceful_restart(served):
    """``croupier play --game baccarat --connect``: told once, back at the table, the
    round the server had not settled asked again."""
    env = dict(os.environ, CROUPIER_DISABLE_PLUGIN_AUTOLOAD="1")
    where = f"127.0.0.1:{served.port}"
    args = ["play", "--game", "baccarat", "--connect", where, "--seed", "3"]
    child = pexpect.spawn(CROUPIER, args, env=env, timeout=TIMEOUT, encoding="utf-8")
    child.expect("round 1 ")
    child.expect("> ")
    child.sendline("bet banker 20")
    child.expect("round 2 ")
    child.expect("> ")
    trio.run(until, lambda: query(served.path, ROUNDS) == 1)
    served.terminate()
    child.expect(r"The server is restarting: your seat is kept for you; trying to connect")
    served.start()
    trio.run(served.said, "resumes after round 1")
    child.expect(r"Back at table \d+, seat 1: the game goes on\.")
    child.expect("round 2 ")  # asked again
    child.expect("> ")
    child.sendline("pass")
    child.expect("round 3 ")
    child.expect("> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # round 1 played (across the restart, counted once), 2 passed, 3 left at its bet
    assert "Thanks for playing. 1 round played; " in child.before


def test_a_server_back_without_the_table_ends_the_game_with_one_line(served, tmp_path):
    """A server restarted on another journal has no such table: the game ends as a lost
    connection does, the tally printed and one line saying why (not a refusal without a
    tally)."""
    other = Served(tmp_path / "other.db", tmp_path / "other")
    other.logs.mkdir()
    other.port = served.port
    try:
        term = Term("play", "--connect", f"127.0.0.1:{served.port}", "--seed", "5")
        term.wait_for("Your bet (1-100)")
        served.terminate()
        term.wait_for("Trying to connect again in")
        other.start()
        trio.run(other.said, "listening on")
        assert term.finish() == 1
        out = term.output()
        assert "Thanks for playing. 0 hands" in out
        assert re.search(r"lost the connection to \S+ \(the server came back without table "
                         r"\d+: no table \d+\); the game is over", out)  # fmt: skip
    finally:
        other.stop()
