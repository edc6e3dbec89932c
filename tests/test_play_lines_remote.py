"""``croupier play --game NAME --connect HOST:PORT [--table T]`` end to end: the CLI, its
input a string, at tables of a server in a thread; the server's table checked afterwards
(chips conserved, the tally its own)."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
from typing import Any

import pytest
import trio

from croupier.protocol import connect
from croupier.protocol.commitment import verify
from tests.test_play_lines_cli import tally

AT = re.compile(r"at table (\d+) on 127\.0\.0\.1:\d+")


@pytest.fixture
def play(cli, monkeypatch):
    def run(text: str, *argv: str) -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        return cli("play", *argv)

    return run


async def _call(port: int, method: str, *params: Any, **named: Any) -> Any:
    async with connect("127.0.0.1", port, name="test") as client:
        if named:
            return await client.call_named(method, named)
        return await client.call(method, *params)


def call(port: int, method: str, *params: Any, **named: Any) -> Any:
    return trio.run(lambda: _call(port, method, *params, **named))


def table_of(out: str) -> int:
    found = AT.search(out)
    assert found, out
    return int(found.group(1))


def test_baccarat_at_a_new_server_table_with_a_strategy(play, threaded_server):
    where = f"127.0.0.1:{threaded_server}"
    lines = ["bet banker 20", "pass", "bet tie 5", "bet player=40 tie=20", "q"]
    status, out, err = play(
        "\n".join(lines) + "\n",
        "--game", "baccarat", "--connect", where, "--seats", "2", "--fill", "tie", "--seed", "7",
    )  # fmt: skip
    assert status == 0, err
    assert "Traceback" not in out + err
    table = table_of(out)
    assert f"baccarat (standard rules, seed 7) at table {table} on {where}: seat 1 you; " in out
    assert "seat 2 tie." in out and "per decision" not in out  # no time limit
    assert "Seat 1 bets 20 on banker." in out and "Seat 1 sits this coup out." in out
    assert "refused: a stake is from 20 to 2000 chips, not 5 on tie" in out
    assert "Seat 1 bets 40 on player, 20 on tie." in out
    assert f"You leave the table. Table {table} ends round 4 with your seat empty " in out
    assert "else it plays the default)." in out  # and the tally waited for that round
    info = call(threaded_server, "table.info", table)
    assert sum(info["chips"]) + info["house"] == 2 * 2000
    assert info["seats"][1] == {"seat": 2, "kind": "strategy", "player": "tie"}
    rounds, chips, net = tally(out)
    assert info["played"] == 4 and rounds == info["hands"][0] == 2  # passed 2, sat out 4
    assert chips == info["chips"][0] and net == chips - 2000
    # q at round 4's bet: the empty seat sat that coup out, its chips as round 3 left them
    assert re.findall(r"Seat 1 has (\d+) chips\.", out)[-1] == str(chips)


def test_the_game_ends_when_the_person_cannot_pay(play, threaded_server):
    where = f"127.0.0.1:{threaded_server}"
    status, out, err = play(
        "bet 10\nfold\n", "--game", "three-card-poker", "--connect", where, "--chips", "20"
    )
    assert status == 0, err
    commit = re.search(r"seed is drawn by the server .*its commitment: ([0-9a-f]{64})\n", err)
    assert commit, err  # drawn by the server: hidden while it plays, committed to
    table = table_of(out)
    assert "Seat 1 folds." in out and "and 10 chips." in out
    assert "You are out of chips: the game is over." in out  # seen in the result event
    assert tally(out) == (1, 10, -10)
    info = call(threaded_server, "table.info", table)
    assert info["played"] == 1 and info["chips"] == [10] and info["house"] == 10
    revealed = call(threaded_server, "table.seed", table)  # it finished: nobody can pay
    assert info["seed"] == revealed["seed"] and verify(revealed["seed"], info["salt"], commit[1])


def test_a_free_seat_of_table_t(play, threaded_server):
    made = call(
        threaded_server,
        "table.create",
        game="three-card-poker",
        seats=2,
        fill=["optimal"],
        rounds=3,
        decision_time=10,
    )
    table = made["table"]
    where = f"127.0.0.1:{threaded_server}"
    lines = ["bet ante 10 pair_plus 10", "play", "pass", "bet 20", "fold"]
    status, out, err = play(
        "\n".join(lines) + "\n",
        "--game", "three-card-poker", "--connect", where, "--table", str(table),
    )  # fmt: skip
    assert status == 0, err
    assert f"at table {table} on {where}: seat 1 optimal; seat 2 you." in out
    assert "10 s per decision: then the table plays for you." in out
    assert "Your turn, seat 2:" in out and "phase bet · round 1 · seat 2" in out
    assert "Seat 2 plays." in out and "Seat 2 sits this round out." in out
    assert f"Table {table} has finished: 3 rounds played." in out
    info = call(threaded_server, "table.info", table)
    assert sum(info["chips"]) + info["house"] == 2 * 1000
    assert tally(out) == (2, info["chips"][1], info["chips"][1] - 1000)  # round 2 sat out


def test_remote_refusals_are_one_line(play, threaded_server):
    where = f"127.0.0.1:{threaded_server}"
    status, _, err = play("", "--game", "baccarat", "--connect", where, "--table", "1",
                          "--seed", "3")  # fmt: skip
    assert status == 1 and "make a new table; not with --table" in err
    status, _, err = play("", "--game", "baccarat", "--connect", where, "--table", "99")
    assert status == 1 and err.startswith("croupier: error: the server refused: ")
    made = call(threaded_server, "table.create", game="baccarat", seats=2, fill=["banker"])
    status, _, err = play("", "--game", "three-card-poker", "--connect", where,
                          "--table", str(made["table"]))  # fmt: skip
    assert status == 1
    assert f"table {made['table']} plays baccarat: croupier play --game baccarat" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_seat_given_up_after_its_table_finished_is_no_error(threaded_server):
    """The SDK leaves a stopped bot's seat; when the table has just finished (its tokens
    are gone) the refusal is no error (it once came out wrapped in an exception group)."""
    from croupier.clients.bot.reconnect import leave_table

    token = "a token of a finished table"
    trio.run(leave_table, "127.0.0.1", threaded_server, "bot", token)


def test_seats_not_filled_wait_for_bots_as_at_blackjack(threaded_server):
    """Issue 34: ``--seats 2`` at a server table gave seat 2 to the game's first strategy
    here but to a bot at blackjack; both leave it to a bot now (``--fill`` names strategies).
    The table waits for that bot, so the person is asked nothing: Ctrl-C leaves."""
    where = f"127.0.0.1:{threaded_server}"
    argv = ["play", "--game", "baccarat", "--connect", where, "--seats", "2", "--seed", "3"]
    person = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as a person's shell delivers it, whatever this process ignores (a child
        # inherits an ignored SIGINT, and Python then never raises KeyboardInterrupt)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert person.stdout is not None
        lines = [person.stdout.readline() for _ in range(2)]  # the greeting, then the wait
        table = table_of(lines[0])
        assert "seat 1 you; seat 2 free." in lines[0]
        assert f"Table {table} waits for 1 more: croupier bot NAME --game baccarat" in lines[1]
        info = call(threaded_server, "table.info", table)
        assert info["seats"][1]["kind"] == "free" and info["decision_time"] == 10.0
    finally:
        person.send_signal(signal.SIGINT)
        person.communicate(timeout=60)


def test_q_while_the_table_waits_for_a_bot_gives_the_seat_up(play, threaded_server):
    """No decision asks the person anything while the table waits for its other seats, yet
    `q` must still quit (it was read only at a decision, so the person was stuck)."""
    where = f"127.0.0.1:{threaded_server}"
    status, out, err = play(
        "q\n", "--game", "baccarat", "--connect", where, "--seats", "2", "--seed", "3"
    )
    assert status == 0, err
    assert "Traceback" not in out + err
    table = table_of(out)
    assert f"Table {table} waits for 1 more" in out
    rounds, _, net = tally(out)
    assert rounds == 0 and net == 0
    info = call(threaded_server, "table.info", table)
    assert info["played"] == 0 and info["state"] == "waiting"
    assert info["seats"][0] == {"seat": 1, "kind": "free", "player": None}  # given up
