"""Fault tests: a real ``croupier serve --data`` is SIGKILLed at seeded moments and
restarted on the same journal, again and again, while a tournament of strategies and TCP
bots (or a table of TCP bots) plays; its bots reconnect and take their seats back with
their tokens (the bot SDK does it), and it ends exactly as an uninterrupted run with the
same seed ends: same standings, same chips, chips conserved, no round settled twice.

Nothing here races the clock: a kill waits until the journal holds the seeded number of
tables or rounds, a restart until the server says what it recovered (its log), the end until
the journal says finished. Timeouts only guard against a hang.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.clients.bot import join_tournament, play
from croupier.clients.bot.samples import Lim17
from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from tests.test_recovery import rows

pytestmark = pytest.mark.slow

GUARD = 120.0
"""Seconds any one wait may take before the test fails (a hang, not a timing)."""
POLL = 0.02
SERVE = [sys.executable, "-m", "croupier.clients.cli", "serve", "--seed", "1"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Served:
    """``croupier serve --data PATH`` on a fixed port, started and SIGKILLed at will; each
    run's log in a file of its own (a pipe nobody reads would stall the server)."""

    def __init__(self, path: Path, logs: Path) -> None:
        self.path, self.logs, self.port = path, logs, free_port()
        self.runs = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.runs += 1
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [*SERVE, "--port", str(self.port), "--data", str(self.path)],
                stdout=subprocess.DEVNULL,
                stderr=log,
                env={**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"},
            )

    @property
    def log(self) -> Path:
        return self.logs / f"serve-{self.runs}.log"

    async def operator_key(self) -> str:
        """This run's operator key, from its log."""
        found = re.search(r"operator key: (\S+)", await self.said("operator key: "))
        assert found is not None
        return found[1]

    async def said(self, text: str) -> str:
        """Wait until this run's log holds ``text``; the log so far."""
        with trio.fail_after(GUARD):
            while True:
                found = self.log.read_text()
                if text in found:
                    return found
                assert self.proc is not None and self.proc.poll() is None, found
                await trio.sleep(POLL)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def terminate(self) -> None:
        """A graceful stop (SIGTERM, as at a reboot): the round in progress ends first."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(GUARD)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(GUARD)


def query(path: Path, sql: str, *args: Any) -> Any:
    """One value from the journal, read-only (as ``croupier history --data`` reads it)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = conn.execute(sql, args).fetchone()
    except sqlite3.OperationalError:  # not created yet
        return None
    finally:
        conn.close()
    return None if row is None else row[0]


async def until(check: Callable[[], Any]) -> Any:
    with trio.fail_after(GUARD):
        while not (found := check()):
            await trio.sleep(POLL)
    return found


def kill_points(seed: int, total: int, kills: int) -> list[int]:
    """``kills`` seeded moments, as counts of what the journal holds (tables, rounds), in
    the first three quarters of the run (so that it is still playing when it is killed)."""
    return sorted(random.Random(seed).sample(range(2, total * 3 // 4), kills))


# -- a tournament ----------------------------------------------------------------------------
BOTS = ["tcp", "lim17", "tcp", "never-bust", "mimic-dealer", "lim17"]
TOURNAMENT = {"bots": BOTS, "seed": 99, "tourneys": 10, "rounds": 20, "hands": 5}
TOURNAMENT_SETTINGS = {**TOURNAMENT, "decision_time": 10.0, "join_time": 120.0}
NAMES = ["bot-a", "bot-b"]


async def tcp_bots(port: int, info: dict[str, Any], nursery: trio.Nursery) -> list[Any]:
    """Seat the tournament's tcp bots in order (Lim17, reconnecting as long as it takes):
    entry 1 is bot-a's, entry 3 bot-b's, as in every run."""
    finals: list[Any] = []
    for name in NAMES:
        seated = trio.Event()

        async def one(name: str = name, seated: trio.Event = seated) -> None:
            final = await join_tournament(
                Lim17(),
                "127.0.0.1",
                port,
                tournament=info["tournament"],
                key=info["join_key"],
                name=name,
                reconnect=10_000,
                on_seated=lambda joined: seated.set(),
            )
            finals.append(final)

        nursery.start_soon(one)
        await seated.wait()
    return finals


async def uninterrupted_tournament(nursery: trio.Nursery) -> dict[str, Any]:
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    async with connect("127.0.0.1", port, name="c") as c:
        settings = {**TOURNAMENT_SETTINGS, "operator_key": server.operator_key}  # the seed
        info = await c.call_named("tournament.start", settings)
        async with trio.open_nursery() as bots:
            finals = await tcp_bots(port, info, bots)
    server.stop()
    assert finals[0]["result"] == finals[1]["result"]
    result: dict[str, Any] = finals[0]["result"]
    return result


@pytest.mark.parametrize("stop", ["kill", "terminate"])
async def test_a_tournament_survives_sigkills_with_the_same_standings(nursery, tmp_path, stop):
    """Killed (SIGKILL), or stopped gracefully (SIGTERM), three times: the standings of an
    uninterrupted run, each table booked once."""
    want = await uninterrupted_tournament(nursery)
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    await served.said("listening on")
    kills = kill_points(19, want["tables"], 3)
    async with trio.open_nursery() as inner:
        async with connect("127.0.0.1", served.port, name="c") as c:
            key = await served.operator_key()  # a tournament with tcp seats: the seed
            settings = {**TOURNAMENT_SETTINGS, "operator_key": key}
            info = await c.call_named("tournament.start", settings)
        tid = info["tournament"]
        finals = await tcp_bots(served.port, info, inner)
        booked = "SELECT count(*) FROM tournament_tables WHERE tournament_id = ?"
        for k in kills:
            await until(lambda k=k: (query(served.path, booked, tid) or 0) >= k)
            served.kill() if stop == "kill" else served.terminate()
            assert query(served.path, "SELECT state FROM tournaments") == "playing"
            served.start()
            await served.said("recovered from the journal: 1 tournaments")
        state = "SELECT state FROM tournaments WHERE id = ?"
        await until(lambda: query(served.path, state, tid) == "finished")
    served.stop()
    got = json.loads(query(served.path, "SELECT result FROM tournaments WHERE id = ?", tid))
    assert got["standings"] == want["standings"]
    assert got == want and got["conserved"]
    assert [f["result"] for f in finals] == [want, want]
    assert query(served.path, booked, tid) == want["tables"]  # each table booked once


# -- a table -----------------------------------------------------------------------------------
TABLE = {"seats": 3, "fill": [None, "never-bust", None], "rounds": 150, "seed": 123}
TABLE_SETTINGS = {**TABLE, "decision_time": 10.0}


async def table_with_bots(port: int) -> list[dict[str, Any]]:
    """Two Lim17 bots at a table one of them creates (seats 1 and 3); their final infos."""
    finals: list[dict[str, Any]] = []
    made = trio.Event()
    table: list[int] = []

    def seated(info: dict[str, Any]) -> None:
        table.append(info["table"])
        made.set()

    async with trio.open_nursery() as bots:

        async def creator() -> None:
            finals.append(
                await play(
                    Lim17(), "127.0.0.1", port, create=TABLE_SETTINGS, seat=1, name="bot-a",
                    reconnect=10_000, on_seated=seated,
                )
            )  # fmt: skip

        async def joiner() -> None:
            await made.wait()
            finals.append(
                await play(
                    Lim17(), "127.0.0.1", port, table=table[0], seat=3, name="bot-b",
                    reconnect=10_000,
                )
            )  # fmt: skip

        bots.start_soon(creator)
        bots.start_soon(joiner)
    return finals


@pytest.mark.parametrize("stop", ["kill", "terminate"])
async def test_a_table_survives_sigkills_and_its_bots_rejoin(nursery, tmp_path, stop):
    """Killed (SIGKILL), or stopped gracefully (SIGTERM: the bots are told the table
    resumes), three times: the same chips as an uninterrupted run, each round once."""
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    want = await table_with_bots(port)
    server.stop()
    assert want[0]["played"] == TABLE["rounds"]
    served = Served(tmp_path / "j.db", tmp_path)
    served.start()
    await served.said("listening on")
    rounds = "SELECT max(round) FROM events"
    got: list[dict[str, Any]] = []

    async def bots() -> None:
        got.extend(await table_with_bots(served.port))

    async with trio.open_nursery() as inner:
        inner.start_soon(bots)
        for k in kill_points(23, TABLE["rounds"], 3):
            await until(lambda k=k: (query(served.path, rounds) or 0) >= k)
            served.kill() if stop == "kill" else served.terminate()
            assert query(served.path, "SELECT state FROM tables") == "playing"
            served.start()
            await served.said("recovered from the journal: 0 tournaments, 1 tables")
    served.stop()
    assert [(g["chips"], g["house"], g["played"]) for g in got] == [
        (w["chips"], w["house"], w["played"]) for w in want
    ]
    assert sum(got[0]["chips"]) + got[0]["house"] == 3 * got[0]["rules"]["starting_chips"]
    # each round once, whatever blocks of rounds the rows hold
    (table,) = sqlite3.connect(served.path).execute("SELECT id FROM tables").fetchone()
    numbers = [number for _, _, number, _, _ in rows(served.path, table)[1] if number is not None]
    assert numbers == list(range(1, TABLE["rounds"] + 1))
