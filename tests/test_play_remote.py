"""``croupier play --connect`` as a person plays it: a real ``croupier serve`` on loopback,
the game in a pseudo-terminal, the screen read as it is shown. Same seed, same cards as the
local game."""

from __future__ import annotations

import re
import signal
from typing import Any

import pytest
import trio

from croupier.protocol import RpcError, connect
from tests.termkit import CROUPIER, Term

pytestmark = pytest.mark.slow  # a real server and a terminal each: 5-15 s a test under load


def table_info(port: int, table: int) -> dict[str, Any]:
    async def ask() -> dict[str, Any]:
        async with connect("127.0.0.1", port, name="test") as client:
            info: dict[str, Any] = await client.call("table.info", table)
            return info

    return trio.run(ask)


def table_list(port: int) -> list[Any]:
    async def ask() -> list[Any]:
        async with connect("127.0.0.1", port, name="test") as client:
            tables: list[Any] = await client.call("table.list")
            return tables

    return trio.run(ask)


def test_a_server_table_deals_what_the_local_game_deals(server):
    where = f"127.0.0.1:{server.port}"
    term = Term("play", "--connect", where, "--rules", "classic", "--seed", "5")
    screen = term.wait_for("Your bet (1-100): 1_", "[Enter] Deal", "Shuffling...")
    shown = re.search(r"classic \(table (\d+), seed 5\)", screen)
    assert shown and "Chips 100" in screen
    table = int(shown.group(1))
    screen = term.press("\r", "King of Spades, Seven of Hearts", "[H] Hit")
    assert "Five of Spades, ?" in screen and "You: 17  ·  bet 1" in screen
    keys = re.findall(r"\[(\w)\] (\w+)", screen.splitlines()[-1])
    assert keys == [("H", "Hit"), ("S", "Stand"), ("Q", "Quit")]
    term.press("h", "You draw the Ace of Diamonds", "You: 18")
    term.press("s", "Round over: you lose 1 chip", "Play again? Your bet (1-99)")
    term.press("20\r", "Round over: you win 20 chips")
    info = table_info(server.port, table)
    assert info["decision_time"] is None and info["seats"][0]["kind"] == "bot"
    term.press("q")
    assert term.finish() == 0
    assert "Thanks for playing. 2 hands: 1 won, 1 lost, 0 pushed; net +19 chips" in term.output()
    info = _finished(server.port, table)
    assert info["seats"][0]["kind"] == "free"  # the seat was given up
    # and it sat out the round it was left at: nobody bet the minimum for the person
    assert info["chips"] == [119] and info["hands"] == [2] and info["house"] == -19


def _finished(port: int, table: int) -> dict[str, Any]:
    """The table's info once it has finished (a table whose bots all left ends)."""

    async def ask() -> dict[str, Any]:
        async with connect("127.0.0.1", port, name="test") as client:
            with trio.fail_after(30):  # a hang guard only
                while (info := await client.call("table.info", table))["state"] != "finished":
                    await trio.sleep(0.05)
            return dict(info)

    return trio.run(ask)


def test_the_hint_key_works_at_a_server_table(server, manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    solution = manager.solvers.get("blackjack").solve(
        {"rules": rules.to_dict(), "hand": "A,4", "upcard": "5"}
    )
    double = solution["hand"]["actions"]["double"]["ev"]
    term = Term("play", "--connect", f"127.0.0.1:{server.port}", "--rules", "vegas-s17",
                "--seed", "36")  # fmt: skip
    term.wait_for("Your bet (10-1000)")
    term.press("\r", "You: Soft 15", "[?] Hint")
    term.press("?", "Exact EV per unit bet", f"Double {double:+.4f}")
    term.press("q", "forfeit")
    term.press("y")
    assert term.finish() == 0


def test_joining_a_table_by_number_and_ctrl_c_leaves_the_seat(server):
    where = f"127.0.0.1:{server.port}"

    async def create() -> dict[str, Any]:
        async with connect("127.0.0.1", server.port, name="host") as client:
            info: dict[str, Any] = await client.call_named(
                "table.create",
                {"seats": 2, "fill": ["lim17"], "seed": 9, "decision_time": 10.0},
            )
            return info

    info = trio.run(create)
    table = info["table"]
    shell = f'trap : INT; {CROUPIER} play --connect {where} --table {table}; echo "status $?"'
    term = Term(shell=shell)
    screen = term.wait_for("Your bet (10-1000)")
    assert f"vegas-s17 (table {info['table']}, seed hidden)" in screen  # another's table
    assert table_info(server.port, info["table"])["seats"][1]["kind"] == "bot"
    term.press("\x03")
    assert term.finish() == 0
    out = term.output()
    assert "croupier: interrupted" in out and "status 130" in out
    assert table_info(server.port, info["table"])["seats"][1]["kind"] == "free"


def test_a_lost_connection_restores_the_terminal_with_one_line(server):
    where = f"127.0.0.1:{server.port}"
    shell = (
        f'{CROUPIER} play --connect {where} --seed 5; echo "status $?"; '
        "stty -a | grep -o -- '-\\?icanon'"
    )
    term = Term(shell=shell)
    term.wait_for("Your bet")
    term.press("\r", "[H] Hit")
    server.send_signal(signal.SIGKILL)  # the server dies mid-hand
    assert term.finish() == 0
    out = term.output()
    assert re.search(
        rf"croupier: error: lost the connection to {where} \([^)\n]+\); the game is over", out
    )
    assert "status 1" in out and "Thanks for playing. 0 hands" in out
    assert re.search(r"(?<!-)icanon", out[out.index("status 1") :])  # line editing is back


def test_play_connect_errors_are_one_line(cli, server):
    status, _, err = cli("play", "--table", "3")
    assert status == 1 and "give --connect HOST:PORT" in err
    where = f"127.0.0.1:{server.port}"
    status, _, err = cli("play", "--connect", where, "--table", "1", "--seed", "4")
    assert status == 1 and "not with --table" in err
    status, _, err = cli("play", "--connect", where)  # checked before a table is made
    assert status == 1 and "croupier play needs a terminal" in err
    term = Term("play", "--connect", "127.0.0.1:1")
    assert term.finish() == 1 and "cannot connect to 127.0.0.1:1" in term.output()
    assert "croupier: seed" not in term.output()  # no run, no seed: the error is the line
    term = Term("play", "--connect", where, "--table", "42")
    assert term.finish() == 1
    assert "croupier: error: the server refused: no table 42" in term.output()
    assert table_list(server.port) == []  # no table was made by any of these


def test_no_time_limit_only_for_a_table_with_one_bot_seat(server):
    async def create(params: dict[str, Any]) -> Any:
        async with connect("127.0.0.1", server.port, name="host") as client:
            try:
                return await client.call_named("table.create", params)
            except RpcError as exc:
                return exc.message

    nil = {"decision_time": None, "rounds": 1}
    assert trio.run(create, {"seats": 2, **nil}) == (
        "decision_time nil (no limit) needs exactly one bot seat"
    )
    assert trio.run(create, {"seats": 1, "fill": ["lim17"], **nil}).endswith("one bot seat")
    info = trio.run(create, {"seats": 2, "fill": [None, "lim17"], **nil})
    assert info["decision_time"] is None and info["state"] == "waiting"


def test_a_drawn_seed_is_reported_once_the_table_exists(server):
    term = Term("play", "--connect", f"127.0.0.1:{server.port}", "--rules", "classic")
    screen = term.wait_for("Your bet (1-100)")
    term.press("q")
    assert term.finish() == 0
    drawn = re.search(r"croupier: seed (\d+) \(rerun with --seed \1 to reproduce\)", term.output())
    assert drawn and f"seed {drawn.group(1)[:6]}" in screen  # the table's own (title cut at 80)


def test_seats_and_fill_at_a_new_table_are_those_of_every_game(server, cli):
    """Issue 34: ``--seats`` left blackjack's other seats to bots while other games filled
    them with strategies, and blackjack refused ``--fill``. Now, whatever the game, the
    seats --fill names play those strategies and the others wait for bots."""
    where = f"127.0.0.1:{server.port}"
    term = Term("play", "--connect", where, "--seats", "3", "--fill", "lim17", "--seed", "4")
    screen = term.wait_for("waits for 1 more player")
    table = int(re.search(r"\(table (\d+), seed 4\)", screen).group(1))
    info = table_info(server.port, table)
    assert [(s["kind"], s["player"]) for s in info["seats"][1:]] == [
        ("strategy", "lim17"),
        ("free", None),
    ]
    assert info["decision_time"] == 10.0  # a seat waits for a bot: a person's limit
    term.press("q")
    assert term.finish() == 0
    term = Term("play", "--connect", where, "--seats", "2", "--fill", "lim17", "--seed", "4")
    table = int(re.search(r"\(table (\d+), seed 4\)", term.wait_for("Your bet (")).group(1))
    assert table_info(server.port, table)["decision_time"] is None  # strategies only
    term.press("q")
    assert term.finish() == 0
    status, _, err = cli("play", "--fill", "lim17")
    assert status == 1 and "give --connect HOST:PORT and --seats N" in err
    status, _, err = cli("play", "--connect", where, "--seats", "2", "--fill", "a", "b")
    assert status == 1 and "at most 1, not 2" in err
