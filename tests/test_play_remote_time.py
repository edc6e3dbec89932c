"""``croupier play --connect`` at a table with a decision time: a short one is warned about,
each default the server plays for the person is said, and a new table can be given a
decision time a person can keep to (``--decision-time``, ``--seats``)."""

from __future__ import annotations

import re
from typing import Any

import trio

from croupier.protocol import connect
from tests.termkit import CROUPIER, Term


def rpc(port: int, method: str, params: Any) -> Any:
    async def ask() -> Any:
        async with connect("127.0.0.1", port, name="host") as client:
            if isinstance(params, dict):
                return await client.call_named(method, params)
            return await client.call(method, *params)

    return trio.run(ask)


def test_a_short_decision_time_is_warned_and_each_default_said(server):
    # the person never answers: the server plays the defaults; no key races its clock
    info = rpc(server.port, "table.create",
               {"seats": 2, "fill": ["lim17"], "seed": 9, "decision_time": 1.0})  # fmt: skip
    table = info["table"]
    where = f"127.0.0.1:{server.port}"
    shell = (
        f'trap : INT; {CROUPIER} play --connect {where} --table {table}; echo "status $?"; '
        "stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?echo\\|-\\?onlcr' | tr '\\n' ' '; "
        "echo '<modes'"
    )
    term = Term(shell=shell)
    warning = f"Only 1 s per decision at table {table}: then the dealer plays for you"
    screen = term.wait_for(warning, "Your bet (10-1000)")
    # the bet is defaulted: its prompt goes, and the next prompt says what was played
    term.wait_for("Time ran out: the dealer bet the minimum (10) for you", "[S] Stand")
    screen = term.wait_for("Time ran out: the dealer stood for you", "Your bet (10-")
    assert "[S] Stand" not in screen  # the stale prompt vanished with its decision
    term.press("\x03")
    assert term.finish() == 0
    out = term.output()
    assert "status 130" in out
    modes = re.search(r"(\S.*) <modes", out)
    assert modes is not None and sorted(modes.group(1).split()) == ["echo", "onlcr"]


def test_a_new_shared_table_with_a_decision_time(server):
    where = f"127.0.0.1:{server.port}"
    term = Term("play", "--connect", where, "--seed", "5", "--seats", "2", "--decision-time", "3")
    screen = term.wait_for("waits for 1 more player; a bot sits with", "Only 3 s per decision")
    waiting = re.search(r"Table (\d+) waits", screen)
    assert waiting is not None
    table = int(waiting.group(1))
    assert f"croupier bot NAME --connect {where} --table {table}" in screen
    assert f"Only 3 s per decision at table {table}: then the dealer plays for you" in screen
    info = rpc(server.port, "table.info", [table])
    assert info["decision_time"] == 3.0 and [s["kind"] for s in info["seats"]] == ["bot", "free"]
    assert "Your bet" not in screen  # waiting: no prompt, nothing at stake, Q quits
    term.press("q")
    assert term.finish() == 0
    term = Term("play", "--connect", where, "--seats", "2")
    waiting = re.search(r"Table (\d+) waits", term.wait_for("waits for 1 more player"))
    assert waiting is not None
    info = rpc(server.port, "table.info", [int(waiting.group(1))])
    assert info["decision_time"] == 10.0  # a shared table's default: what a person needs
    assert "per decision" not in term.text
    term.press("q")
    assert term.finish() == 0


def test_decision_time_and_seats_errors(cli, server):
    status, _, err = cli("play", "--decision-time", "5")
    assert status == 1 and "--decision-time S makes a table on a server" in err
    status, _, err = cli("play", "--seats", "2")
    assert status == 1 and "--seats N makes a table on a server" in err
    where = f"127.0.0.1:{server.port}"
    status, _, err = cli("play", "--connect", where, "--table", "1", "--decision-time", "5")
    assert status == 1 and "make a new table; not with --table" in err
    status, _, err = cli("play", "--connect", where, "--decision-time", "0")
    assert status == 2 and "expected a positive number of seconds, not '0'" in err
