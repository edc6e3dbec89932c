"""Hands/s of a server table with 4 TCP bots, against the same table with 4 in-process
strategies (the engine's GameTable, the limit the network path is measured against).

Run: ``.venv/bin/python benchmarks/tables_tcp.py [--rounds 2000]``

The server runs in its own subprocess (``croupier serve``'s Server, seed fixed); the four
bots are SDK bots playing lim17 in this process, each on its own TCP connection, seated
at one vegas-s17 table; the table's time runs from its ``playing`` status to ``finished``
(the ``table.status`` the first bot is told: no watcher is needed, and none runs, since one
would cost the server and this process every event; ``--watcher`` adds one, as earlier runs
had), in wall-clock time and in CPU time: the server's (from /proc) and the bots' (this
process's), printed apart. The in-process run plays the same seed and rounds with the
game's ``lim17`` strategy in every seat (asked directly, as ``table.create`` with strategies
plays), with one listener keeping every event (what the server does to notify), so the
ratio is the cost of the wire: a ``decide`` round trip per decision.

The TCP run is made twice: as the SDK plays now (lim17 asks for no events and leaves the
bet, insurance and surrender phases to the server: ``events: false`` and ``auto`` at
``table.join``), and as every bot played before those options (every event sent to every
bot, a round trip for every decision, bets included), the "before" figure.
Every run ends with the same chips (checked), since they play the same cards the same way.

What limits the ratio is printed beside it: the SDK bots count their ``decide`` round
trips, and a bare ping-pong of as many round trips (plain trio sockets and msgpack, no
session, no table: a subprocess answering each request at once, the last observation a bot
was sent as the request) is timed in the same run; the in-process table's time plus that
floor bounds what any TCP table with one round trip per move can reach at this load.

``--journal``: a second server runs, with a SQLite journal (a temporary file) instead of
none, and the SDK bots play the same table on both in turn (``--repeat`` times); its
hands/s is printed as a ratio to the server without a journal (issue 19: at most 15% less).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, ClassVar

import msgpack
import trio

from croupier.clients.bot import Bot, play
from croupier.engine import PluginManager, seat_account
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.plugins.blackjack.play import Observation
from croupier.protocol import Server, connect
from croupier.protocol.journal import open_journal

SEATS = 4
SEED = 2024


def lim17(observation: Observation) -> str:
    return "hit" if observation.total < 17 else "stand"


class Lim17(Bot):
    name = "lim17"
    decisions = 0
    """``decide`` round trips of every bot of this class (it still answers on its
    connection's reader: only ``decide`` is written here)."""
    last: ClassVar[Observation | None] = None

    def decide(self, observation: Observation) -> str:
        Lim17.decisions += 1
        Lim17.last = observation
        return lim17(observation)


class EveryEvent(Lim17):
    """lim17 as bots played before the join options: every event, every decision asked."""

    def join_options(self) -> tuple[bool, list[str]]:
        return True, []


async def serve(data: str) -> None:
    server = Server(
        PluginManager(autoload=False), default_game="blackjack", seed=1, journal=open_journal(data)
    )
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        print(port, flush=True)


async def answer_at_once() -> None:
    """The ping-pong's far end: answers every request with an action map, at once."""
    listener = trio.socket.socket()
    await listener.bind(("127.0.0.1", 0))
    listener.listen()
    print(listener.getsockname()[1], flush=True)
    conn, _ = await listener.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    unpacker, packer = msgpack.Unpacker(raw=False), msgpack.Packer()
    while True:
        await trio.lowlevel.wait_readable(conn)
        data = os.read(conn.fileno(), 65536)
        if not data:
            return
        unpacker.feed(data)
        os.write(
            conn.fileno(),
            b"".join(packer.pack([1, m[1], None, {"kind": "stand"}]) for m in unpacker),
        )


async def ping_pong(port: int, trips: int, observation: dict[str, Any]) -> None:
    """``trips`` requests, each sent when the last was answered (one round trip a move)."""
    conn = trio.socket.socket()
    await conn.connect(("127.0.0.1", port))
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    unpacker, packer = msgpack.Unpacker(raw=False), msgpack.Packer()
    for msgid in range(trips):
        os.write(conn.fileno(), packer.pack([0, msgid, "decide", [1, observation]]))
        while True:
            await trio.lowlevel.wait_readable(conn)
            unpacker.feed(os.read(conn.fileno(), 65536))
            if any(True for _ in unpacker):
                break
    conn.close()


def floor(trips: int, observation: dict[str, Any]) -> tuple[float, float, float]:
    """Wall-clock seconds of ``trips`` bare round trips, the far end's CPU and ours."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--answer-at-once"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        far, near, start = process_cpu(child.pid), process_cpu(None), time.perf_counter()
        trio.run(ping_pong, port, trips, observation)
        elapsed = time.perf_counter() - start
        return elapsed, process_cpu(child.pid) - far, process_cpu(None) - near
    finally:
        child.wait(timeout=10)


def process_cpu(pid: int | None) -> float:
    """Seconds of CPU process ``pid`` has used (user and system; this process's when None),
    or NaN where /proc cannot tell."""
    if pid is None:
        return time.process_time()
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return math.nan


Run = tuple[float, float, float, list[int]]
"""A table's wall-clock seconds, the CPU seconds it cost the server and the bots (the
in-process table's in both), and the seats' final chips."""

Marks = dict[str, tuple[float, float, float]]
"""When the table was told ``playing`` and ``finished``: wall clock, the server's CPU, the
bots' CPU."""


def marking(make: type[Bot], marks: Marks, server: int | None) -> Bot:
    """A ``make`` bot that marks the table's ``playing`` and ``finished`` (the first of the
    bots to be told): the table's own ``table.status``, which a seated bot gets anyway, so
    the run needs no watcher (one would cost the server and this process every event)."""
    bot = make()

    def on_table(info: dict[str, Any]) -> None:
        state = info.get("state")
        if state in ("playing", "finished") and state not in marks:
            marks[state] = (time.perf_counter(), process_cpu(server), process_cpu(None))

    bot.on_table = on_table  # type: ignore[method-assign]
    return bot


async def over_tcp(
    port: int, rounds: int, make: type[Bot], server: int | None = None, watch: bool = False
) -> Run:
    """The table played by 4 ``make`` bots over TCP; ``watch``: with a watcher too (this
    process's connection that made the table, getting every event)."""
    marks: Marks = {}
    async with connect("127.0.0.1", port, name="bench") as client:
        info = await client.call_named(
            "table.create", {"seats": SEATS, "rounds": rounds, "seed": SEED}
        )
        if watch:
            await client.call("table.watch", info["table"])
        finals: list[dict[str, Any]] = []

        async def bot() -> None:
            finals.append(
                await play(marking(make, marks, server), "127.0.0.1", port, table=info["table"])
            )

        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(bot)
    (start, served, bots), (end, served_end, bots_end) = marks["playing"], marks["finished"]
    return end - start, served_end - served, bots_end - bots, finals[0]["chips"]


async def in_process(rounds: int) -> Run:
    manager = PluginManager(autoload=False)
    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17")
    lim17 = game.strategy("lim17").at(options)
    sink: list[dict[str, Any]] = []

    def listener(event: dict[str, Any]) -> None:  # a server's table keeps its events
        sink.append(event)
        if len(sink) > 10_000:
            sink.clear()

    players = [GameStrategyPlayer(lim17) for _ in range(SEATS)]
    table = GameTable(game, options, SEED, players, listeners=[listener])
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        await table.play_round()
        await trio.sleep(0)  # as the server's table does between rounds
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    balances = table.ledger.balances
    return elapsed, cpu, 0.0, [balances[seat_account(seat)] for seat in range(1, SEATS + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--answer-at-once", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--journal", action="store_true", help="also a server with a journal, same tables"
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --journal: runs of each")
    parser.add_argument(
        "--watcher",
        action="store_true",
        help="the TCP tables watched too (every event to one more connection), as measured "
        "before the runs went without",
    )
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 30
    if args.serve:
        trio.run(serve, args.serve)
        return
    if args.answer_at_once:
        trio.run(answer_at_once)
        return
    folder = tempfile.TemporaryDirectory()
    child, port = start(":memory:")
    journaled, journaled_port = (
        start(os.path.join(folder.name, "j.db"))
        if args.journal
        else (
            None,
            0,
        )
    )
    try:
        tcp, tcp_server, tcp_bots, tcp_chips = trio.run(
            over_tcp, port, args.rounds, Lim17, child.pid, args.watcher
        )
        trips = Lim17.decisions
        old, old_server, old_bots, old_chips = trio.run(
            over_tcp, port, args.rounds, EveryEvent, child.pid, args.watcher
        )
        pairs = []
        for _ in range(args.repeat if journaled is not None else 0):
            plain, _, _, _ = trio.run(over_tcp, port, args.rounds, Lim17)
            kept, _, _, kept_chips = trio.run(over_tcp, journaled_port, args.rounds, Lim17)
            assert kept_chips == tcp_chips, (kept_chips, tcp_chips)
            pairs.append((plain, kept))
    finally:
        for proc in (child, journaled):
            if proc is not None:
                proc.terminate()
                proc.wait()
        folder.cleanup()
    local, local_cpu, _, local_chips = trio.run(in_process, args.rounds)
    assert Lim17.last is not None
    bare, bare_far, bare_near = floor(trips, Lim17.last.to_dict())
    assert tcp_chips == local_chips == old_chips, (tcp_chips, local_chips, old_chips)
    ms = 1000 / args.rounds
    tcp_cpu, old_cpu = tcp_server + tcp_bots, old_server + old_bots
    if args.json:
        figures = {
            "rounds": args.rounds,
            "load": os.getloadavg()[0],
            "watcher": args.watcher,
            "hands_per_s": {
                "tcp": SEATS * args.rounds / tcp,
                "tcp_all_events": SEATS * args.rounds / old,
                "in_process": SEATS * args.rounds / local,
            },
            "ratio": local / tcp,
            "decisions_per_round": trips / args.rounds,
            "ping_pong_ms_per_round": bare * ms,
            "ping_pong_cpu_ms_per_round": (bare_far + bare_near) * ms,
            "ratio_bound": local / (local + bare),
            "ratio_all_events": local / old,
            "cpu_ms_per_round": {
                "tcp_server": tcp_server * ms,
                "tcp_bots": tcp_bots * ms,
                "all_events_server": old_server * ms,
                "all_events_bots": old_bots * ms,
                "in_process": local_cpu * ms,
            },
        }
        print(json.dumps(figures))
        return
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    watched = ", watched by one more connection" if args.watcher else ""
    print(f"table of {SEATS} seats, vegas-s17, lim17 everywhere, {args.rounds} rounds, "
          f"seed {SEED}{watched}")  # fmt: skip
    print(f"  (load average {load} on {os.cpu_count()} cores: wall-clock figures wait for them)")
    print(f"  4 TCP bots (SDK)          {args.rounds / tcp:9.0f} rounds/s  "
          f"{SEATS * args.rounds / tcp:9.0f} hands/s")  # fmt: skip
    print(f"  4 TCP bots, before (all)  {args.rounds / old:9.0f} rounds/s  "
          f"{SEATS * args.rounds / old:9.0f} hands/s")  # fmt: skip
    print(f"  4 in-process strategies   {args.rounds / local:9.0f} rounds/s  "
          f"{SEATS * args.rounds / local:9.0f} hands/s")  # fmt: skip
    print(f"  ratio TCP / in-process    {local / tcp:9.3f}   (before: {local / old:.3f})")
    print(f"  speed-up over before      {old / tcp:9.2f}x")
    print(f"  same chips both ways: {tcp_chips}")
    print(f"  CPU per round: TCP {tcp_cpu * ms:.2f} ms (server {tcp_server * ms:.2f}, bots "
          f"{tcp_bots * ms:.2f}; before: {old_cpu * ms:.2f}, server {old_server * ms:.2f}, "
          f"bots {old_bots * ms:.2f}), in-process {local_cpu * ms:.2f} ms")  # fmt: skip
    print(f"  ratio in CPU time             {local_cpu / tcp_cpu:9.3f}   (before: "
          f"{local_cpu / old_cpu:.3f}: the wire's cost, less the waits for a core)")  # fmt: skip
    print(f"  one round trip a move: {trips / args.rounds:.2f} decide round trips a round; as "
          f"many bare ones (trio sockets, msgpack, nothing else) take {bare * ms:.2f} ms a round "
          f"({(bare_far + bare_near) * ms:.2f} ms of CPU, both ends): at this load no TCP table "
          f"exceeds {local / (local + bare):.3f} of in-process")  # fmt: skip
    for plain, kept in pairs:
        print(
            f"  journal: {SEATS * args.rounds / kept:9.0f} hands/s, without "
            f"{SEATS * args.rounds / plain:9.0f}: ratio {plain / kept:.3f}"
        )
    if pairs:
        ratios = [plain / kept for plain, kept in pairs]
        print(f"  with a journal / without, hands/s (median): {statistics.median(ratios):.3f}")


def start(data: str) -> tuple[subprocess.Popen[str], int]:
    """A server subprocess with the journal ``data`` (``:memory:``: none); its port."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", data], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    return child, int(child.stdout.readline())


if __name__ == "__main__":
    main()
