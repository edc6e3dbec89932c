"""``croupier tournament --connect`` across a graceful restart of its server: the command
that started the tournament reconnects, watches it again (``tournament.watch``) and prints
the standings of a run that never stopped, instead of ending with "the server went away".

Nothing races the clock: the tournament cannot start before its ``tcp`` bot joins, so it is
stopped while it waits; the restart waits for the server's log, the bot joins after it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from tests.test_recovery_sigkill import Served, until

pytestmark = pytest.mark.slow

ARGV = ["--tourneys", "2", "--rounds", "3", "--seed", "8", "--json"]


def test_the_tournament_command_follows_its_tournament_across_a_restart(cli, tmp_path):
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    errors = tmp_path / "tournament.err"
    try:
        trio.run(served.said, "listening on")
        where = f"127.0.0.1:{served.port}"
        operator = trio.run(served.operator_key)  # lets a tournament with tcp seats take --seed
        with open(errors, "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "croupier.clients.cli", "tournament", "tcp", "lim17",
                 *ARGV, "--connect", where, "--operator-key", operator],
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                env={**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"},
            )  # fmt: skip
        try:
            said = trio.run(until, lambda: said_by(errors, r"--tournament (\d+) --key (\S+)"))
            tid, key = said[1], said[2]
            served.terminate()  # while it waits for its tcp bot
            trio.run(until, lambda: said_by(errors, "the server is restarting"))
            served.start()
            trio.run(served.said, "recovered from the journal: 1 tournaments")
            status, _, err = cli(
                "bot", "lim17", "--connect", where, "--tournament", tid, "--key", key
            )
            assert status == 0, err
            remote_out, _ = proc.communicate(timeout=120)
        finally:
            proc.kill()
    finally:
        served.stop()
    assert proc.returncode == 0, errors.read_text()
    remote = json.loads(remote_out)
    local = json.loads(cli("tournament", "lim17", "lim17", *ARGV)[1])
    assert [s["scores"] for s in remote["standings"]] == [s["scores"] for s in local["standings"]]


def said_by(path: Path, pattern: str) -> re.Match[str] | None:
    return re.search(pattern, path.read_text())
