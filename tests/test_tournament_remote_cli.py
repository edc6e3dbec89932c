"""``croupier tournament --connect`` and ``croupier bot --tournament``, as a user runs them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.test_tournament_cli import GOLDEN

BOTS_DIR = os.path.join(os.path.dirname(__file__), "bots")


@pytest.fixture
def where(threaded_server: int) -> str:
    return f"127.0.0.1:{threaded_server}"


def test_a_tournament_of_strategies_on_the_server_has_the_local_standings(cli, where):
    argv = ("tournament", "lim17", "never-bust", "mimic-dealer", "--tourneys", "3")
    status, out, err = cli(*argv, "--rounds", "4", "--seed", "5", "--json", "--connect", where)
    assert status == 0, err
    data = json.loads(out)
    assert {s["name"]: s["scores"] for s in data["standings"]} == GOLDEN
    status, table, err = cli(*argv, "--rounds", "4", "--seed", "5", "--connect", where)
    assert status == 0 and "King of the Hill" in table and "lim17" in table


def test_a_tcp_seat_is_taken_by_croupier_bot(cli, where):
    argv = ["tournament", "tcp", "lim17", "--tourneys", "2", "--rounds", "3"]  # drawn seed
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", *argv, "--json", "--connect", where],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        found = re.search(r"waits 60 s for 1 tcp bot: croupier bot NAME --connect \S+ "
                          r"--tournament (\d+) --key (\S+)$", line)  # fmt: skip
        assert found, line
        tid, key = found[1], found[2]
        status, _, err = cli("bot", "lim17", "--connect", where, "--tournament", tid)
        assert status == 1 and "is not open: a tcp seat needs the join key" in err  # a stranger
        status, out, err = cli(
            "bot", "lim17", "--connect", where, "--tournament", tid, "--key", key
        )
        assert status == 0, err
        assert "lim17 takes entry 1 of tournament" in err
        assert re.match(r"tournament \d+: lim17 \(entry 1\) ranks [12] of 2 with", out)
        remote_out, remote_err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, remote_err
    remote = json.loads(remote_out)
    assert f"croupier: seed {remote['seed']} (rerun" in remote_err  # shown once finished
    seed = str(remote["seed"])  # the same tournament locally, from the revealed seed
    local = json.loads(cli(*argv[:1], "lim17", "lim17", *argv[3:], "--seed", seed, "--json")[1])
    # the bot called lim17 is told from the built-in lim17 beside it
    assert {s["name"] for s in remote["standings"]} == {"lim17 (tcp)", "lim17"}
    assert [s["scores"] for s in remote["standings"]] == [s["scores"] for s in local["standings"]]


def test_connect_errors_are_one_line(cli, where):
    status, _, err = cli("tournament", "tcp", "lim17")
    assert status == 1 and "run the tournament on that server with --connect" in err
    status, _, err = cli("tournament", os.path.join(BOTS_DIR, "lim15.sh"), "--connect", where)
    assert status == 1 and "executables play in local tournaments only" in err
    status, _, err = cli("tournament", "lim17", "--log", "x.jsonl", "--connect", where)
    assert status == 1 and "--log applies to local tournaments only" in err
    status, _, err = cli("tournament", "tcp", "--connect", where, "--join-time", "0.2")
    assert status == 1 and "did not finish: cancelled: 0 of 1 tcp bots joined" in err
    assert err.count("\n") == 3  # how to join, the seed (shown once finished), the error
    status, _, err = cli("tournament", "tcp", "lim17", "--seed", "3", "--connect", where)
    assert status == 1 and "a seed given needs the operator key" in err  # other bots' cards
    status, _, err = cli("tournament", "lim17", "--operator-key", "k")
    assert status == 1 and "--operator-key applies with --connect only" in err
    status, _, err = cli("bot", "lim17", "--connect", where, "--tournament", "99")
    assert status == 1 and "no tournament 99" in err


def test_an_unreachable_server_is_the_one_line(cli):
    """No tournament, no seed: the drawn seed is reported once the tournament finished."""
    status, _, err = cli("tournament", "tcp", "lim17", "--connect", "127.0.0.1:1")
    assert status == 1
    assert err == "croupier: error: cannot connect to 127.0.0.1:1: Connection refused\n"
