"""What the journal costs: hands/s and requests/s of servers with and without it, same run.

Run: ``.venv/bin/python benchmarks/journal.py [--rounds 2000] [--repeat 3]``

Three servers run side by side, each in its own subprocess, seed fixed: one without a
journal (``--data :memory:``), one with a SQLite journal in WAL mode with ``synchronous
= NORMAL`` (the default: no fsync per commit), and one with ``synchronous = FULL`` (an
fsync of the WAL at every commit). Each is measured in turn, the same work in the same
order, ``--repeat`` times:

- a table of 4 built-in strategies (lim17) playing ``--rounds`` rounds as fast as the
  server can deal them: every event is written to the journal, nothing waits on the
  network, so this is the journal's worst case (its time runs from the table's
  ``playing`` status to ``finished``);
- a table of 4 TCP bots (SDK lim17, as ``benchmarks/tables_tcp.py``): a ``decide`` round
  trip per decision, the events written as they come;
- ``ping`` requests/s from 10 closed-loop clients (``benchmarks/protocol.py``'s load
  generator) while a strategies table plays on that server: the journal's thread
  competes with the request path for the interpreter.

Every run of a table ends with the same chips on every server (checked). The figures are
printed as ratios to the server without a journal measured in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.protocol import RpcError, Server, ServerLimits, connect
from croupier.protocol.journal import Journal, NullJournal

HERE = Path(__file__).resolve().parent
SEATS = 4
SEED = 2024


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tables_tcp = _load("tables_tcp")
load_generator = _load("protocol")


async def serve(path: str, sync: str) -> None:
    journal = NullJournal() if path == ":memory:" else Journal(path, sync)
    unlimited = ServerLimits(request_rate=None, address_rate=None)  # pings as fast as they go
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=1,
        journal=journal,
        limits=unlimited,
    )
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        print(port, flush=True)


async def settled(port: int) -> None:
    """Wait until the server's journal has written everything queued (a history read comes
    after every queued write), so its CPU time includes the writer's work."""
    async with connect("127.0.0.1", port, name="bench-sync") as client:
        with contextlib.suppress(RpcError):  # no journal: nothing to wait for
            await client.call_named("history.tables", {"limit": 1})


def cpu_per_hand(pid: int, port: int, hands: int, work: Any, *args: Any) -> tuple[Any, float]:
    """``trio.run(work, *args)`` and the server's CPU microseconds per hand meanwhile."""
    before = load_generator.cpu_seconds(pid)
    result = trio.run(work, *args)
    trio.run(settled, port)
    return result, (load_generator.cpu_seconds(pid) - before) / hands * 1e6


async def strategies_table(port: int, rounds: int) -> tuple[float, list[int]]:
    marks: dict[str, float] = {}
    done = trio.Event()

    async def status(method: str, params: Any) -> None:
        if method == "table.status":
            marks[params[1]["state"]] = time.perf_counter()
            marks["cpu " + params[1]["state"]] = time.process_time()
            if params[1]["state"] == "finished":
                marks["chips"] = params[1]["chips"]
                done.set()

    async with connect("127.0.0.1", port, name="bench", on_notification=status) as client:
        params = {"seats": SEATS, "fill": ["lim17"] * SEATS, "rounds": rounds, "seed": SEED}
        info = await client.call_named("table.create", {**params, "autostart": False})
        await client.call("table.watch", info["table"])
        await client.call("table.start", info["table"])
        await done.wait()
    strategies_table.cpu_playing = marks["cpu playing"]  # type: ignore[attr-defined]
    return marks["finished"] - marks["playing"], marks["chips"]  # type: ignore[return-value]


async def cpu_in_process(journal: NullJournal, rounds: int) -> float:
    """The process CPU microseconds per hand of a strategies table played by a server in
    this process (with a watcher on the same loop), from its ``playing`` status to the
    journal written to the end: no other process's load inflates it, unlike the figures
    measured across processes."""
    server = Server(
        PluginManager(autoload=False), default_game="blackjack", seed=1, journal=journal
    )
    server.manager.load_all()  # not in the measurement: the plugins load once, at first use
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        await strategies_table(port, rounds)
        before = strategies_table.cpu_playing  # type: ignore[attr-defined]
        if journal.enabled:
            await journal.read(lambda conn: None)
        spent = time.process_time() - before
        server.stop()
    await journal.aclose()
    return spent / (SEATS * rounds) * 1e6


def pings_while_playing(port: int, pid: int, rounds: int, duration: float) -> float:
    """Requests/s of 10 ping clients while a strategies table plays on the server."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--play", str(port), str(rounds)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdout.readline()  # the table is playing
        row = load_generator.load(port, 10, True, "pong", duration, pid)
        child.stdin.write("stop\n")  # the table stops after its hand in progress
        child.stdin.flush()
        if child.stdout.readline().strip() != "stopped":
            raise SystemExit("the table played out before the pings were done: more --rounds")
    finally:
        child.wait()
    return float(row.rate)


async def play_until_told(port: int, rounds: int) -> None:
    """A strategies table playing until a line on stdin; says "playing", then "stopped"."""
    async with connect("127.0.0.1", port, name="bench-load") as client:
        params = {"seats": SEATS, "fill": ["lim17"] * SEATS, "rounds": rounds, "seed": SEED}
        info = await client.call_named("table.create", params)
        print("playing", flush=True)
        await trio.to_thread.run_sync(sys.stdin.readline)
        final = await client.call("table.stop", info["table"])
        print("stopped" if final["played"] < rounds else "played out", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duration", type=float, default=2.0, help="seconds of pings")
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--play", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.repeat, args.duration = 30, 1, 0.2
    if args.serve:
        trio.run(serve, *args.serve)
        return
    if args.play:
        trio.run(play_until_told, *args.play)
        return
    folder = tempfile.mkdtemp(prefix="croupier-journal-bench-")
    in_process: dict[str, list[float]] = {"no journal": [], "NORMAL": [], "FULL": []}
    for i in range(args.repeat):
        for name in in_process:
            journal = (
                NullJournal()
                if name == "no journal"
                else Journal(os.path.join(folder, f"in-process-{i}-{name}.db"), name)
            )
            in_process[name].append(trio.run(cpu_in_process, journal, args.rounds))
    kinds = {
        "no journal": (":memory:", "NORMAL"),
        "journal, NORMAL": (os.path.join(folder, "normal.db"), "NORMAL"),
        "journal, FULL": (os.path.join(folder, "full.db"), "FULL"),
    }
    servers: dict[str, tuple[subprocess.Popen[str], int]] = {}
    try:
        for name, (path, sync) in kinds.items():
            proc = subprocess.Popen(
                [sys.executable, __file__, "--serve", path, sync], stdout=subprocess.PIPE, text=True
            )
            assert proc.stdout is not None
            servers[name] = proc, int(proc.stdout.readline())
        figures: dict[str, dict[str, list[float]]] = {
            name: {"strategies": [], "bots": [], "pings": [], "cpu": [], "bots cpu": []}
            for name in kinds
        }
        chips: set[tuple[int, ...]] = set()
        for _ in range(args.repeat):
            for name, (proc, port) in servers.items():
                hands = SEATS * args.rounds
                (took, final), cpu = cpu_per_hand(
                    proc.pid, port, hands, strategies_table, port, args.rounds
                )
                chips.add(tuple(final))
                figures[name]["strategies"].append(hands / took)
                figures[name]["cpu"].append(cpu)
                (took, _, _, final), cpu = cpu_per_hand(
                    proc.pid, port, hands, tables_tcp.over_tcp, port, args.rounds, tables_tcp.Lim17
                )
                chips.add(tuple(final))
                figures[name]["bots"].append(hands / took)
                figures[name]["bots cpu"].append(cpu)
                figures[name]["pings"].append(
                    pings_while_playing(port, proc.pid, 1_000_000, args.duration)
                )
        assert len(chips) == 1, chips
        sizes = {
            name: os.path.getsize(path) + _size(path + "-wal")
            for name, (path, _) in kinds.items()
            if path != ":memory:"
        }
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"tables of {SEATS} seats, vegas-s17, lim17, {args.rounds} rounds, seed {SEED}; "
        f"median of {args.repeat}; {os.cpu_count()} CPUs"
    )
    base = {k: statistics.median(v) for k, v in figures["no journal"].items()}
    print(
        "hands/s and req/s: wall clock (the ratio to 'no journal' is the journal's cost); "
        "cpu: the server's CPU us per hand (writer thread included), less sensitive to a busy "
        "machine"
    )
    print(
        f"{'server':<16} | {'strategies hands/s':>18} {'ratio':>5} {'cpu':>5} {'ratio':>5} | "
        f"{'4 TCP bots hands/s':>18} {'ratio':>5} {'cpu':>5} {'ratio':>5} | "
        f"{'pings req/s':>11} {'ratio':>5}"
    )
    for name, measured in figures.items():
        m = {k: statistics.median(v) for k, v in measured.items()}
        print(
            f"{name:<16} | {m['strategies']:>18,.0f} {m['strategies'] / base['strategies']:>5.2f} "
            f"{m['cpu']:>5.0f} {m['cpu'] / base['cpu']:>5.2f} "
            f"| {m['bots']:>18,.0f} {m['bots'] / base['bots']:>5.2f} "
            f"{m['bots cpu']:>5.0f} {m['bots cpu'] / base['bots cpu']:>5.2f} "
            f"| {m['pings']:>11,.0f} {m['pings'] / base['pings']:>5.2f}"
        )
    cpu = {name: statistics.median(v) for name, v in in_process.items()}
    print(
        "in one process (server, watcher): CPU us per hand of a strategies table: "
        + ", ".join(f"{name} {v:.1f} ({v / cpu['no journal']:.2f})" for name, v in cpu.items())
    )
    for name, size in sizes.items():
        print(f"{name}: journal file {size / 1e6:.1f} MB")
    print(f"same chips on every server: {list(chips.pop())}")


def _size(path: str) -> int:
    return os.path.getsize(path) if os.path.exists(path) else 0


if __name__ == "__main__":
    main()
