"""Hands/s of a 2-bot table with and without a flooding client, in the same run.

Run: ``.venv/bin/python benchmarks/fairness.py [--rounds 300] [--flood ping] [--repeat 2]``

The server runs in its own subprocess (``croupier serve``'s Server, no journal, seed
fixed), once with its default request budgets and once without any (``--request-rate 0
--address-rate 0``: what the play lane alone does). Two SDK bots playing lim17 sit at one
vegas-s17 table for ``--rounds`` rounds; its time runs from ``playing`` to ``finished``.
Each table is played alone, then again while a flooder (another subprocess, plain
non-blocking sockets, as fast as it can) keeps ``--connections`` connections from
127.0.0.1 busy:

- ``ping``: each connection pipelines pings without waiting for their answers;
- ``draw``: each connection pipelines ``randomizer.draw`` calls of 100,000 symbols.

Printed: hands/s alone and flooded, their ratio (issue 34, item 13: at least 0.8), what
the flooder got answered, and the machine's load average beside them (on a loaded machine
the ratio is noisier; the flooder's own CPU counts against the table as any process's).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import socket
import statistics
import subprocess
import sys
import threading
import time
from functools import partial
from typing import Any

import msgpack
import trio

from croupier.clients.bot import Bot, play
from croupier.plugins.blackjack.play import Observation
from croupier.protocol import connect

SEATS = 2
SEED = 2024
UNLIMITED = ["--request-rate", "0", "--address-rate", "0"]


class Lim17(Bot):
    name = "lim17"

    def decide(self, observation: Observation) -> str:
        return "hit" if observation.total < 17 else "stand"


async def table(port: int, rounds: int) -> float:
    """Seconds a 2-bot table of ``rounds`` rounds plays on the server at ``port``."""
    marks: dict[str, float] = {}
    finished = trio.Event()

    async def status(method: str, params: Any) -> None:
        if method == "table.status":
            marks[params[1]["state"]] = time.perf_counter()
            if params[1]["state"] == "finished":
                finished.set()

    async with connect("127.0.0.1", port, name="bench", on_notification=status) as client:
        info = await client.call_named(
            "table.create", {"seats": SEATS, "rounds": rounds, "seed": SEED}
        )
        await client.call("table.watch", info["table"])
        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(
                    partial(play, Lim17(), "127.0.0.1", port, table=info["table"], name="b")
                )
        await finished.wait()  # the bots may be done before the watcher hears it
    return marks["finished"] - marks["playing"]


def flood(port: int, connections: int, kind: str) -> None:
    """Keep ``connections`` connections busy with ``kind`` requests until killed; print how
    many answers came, once a second, on stdout."""
    socks = []
    for _ in range(connections):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(msgpack.packb([0, 0, "hello", [1, "flood", "client"]]))
        if kind == "draw":
            sock.sendall(msgpack.packb([0, 1, "randomizer.open", ["tetromino", 1]]))
        sock.setblocking(False)
        socks.append(sock)
    if kind == "ping":
        chunk = b"".join(msgpack.packb([0, 2 + i, "ping", []]) for i in range(4096))
    else:
        draw = [1, 100_000]
        chunk = b"".join(msgpack.packb([0, 2 + i, "randomizer.draw", draw]) for i in range(8))
    unpackers = {s.fileno(): msgpack.Unpacker(raw=False, max_buffer_size=64 << 20) for s in socks}
    pending = {s.fileno(): memoryview(b"") for s in socks}
    """What is left to send of each connection's chunk (a message is never cut)."""
    answers, said = 0, time.monotonic()
    while True:
        readable, writable, _ = select.select(socks, socks, [], 1.0)
        for sock in writable:
            left = pending[sock.fileno()] or memoryview(chunk)
            with contextlib.suppress(BlockingIOError):
                left = left[sock.send(left) :]
            pending[sock.fileno()] = left
        for sock in readable:
            data = sock.recv(1 << 20)
            if not data:
                return
            unpacker = unpackers[sock.fileno()]
            unpacker.feed(data)
            answers += sum(1 for _ in unpacker)
        if time.monotonic() - said >= 1.0:
            print(answers, flush=True)
            said = time.monotonic()


def start_server(limited: bool) -> tuple[subprocess.Popen[str], int]:
    argv = ["serve", "--port", "0", "--seed", "1", "--data", ":memory:"]
    if not limited:
        argv += UNLIMITED
    env = {**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", *argv],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if "listening on" in line:
            port = int(line.rsplit(":", 1)[1].split()[0])
            # its log is read on (and dropped): a full pipe would stop the server
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, port
    raise RuntimeError("the server did not start")


def measure(limited: bool, args: argparse.Namespace) -> tuple[list[float], list[float], int]:
    """Seconds of the table alone and flooded (``--repeat`` each, alternating), and the
    answers the flooder got per second."""
    server, port = start_server(limited)
    alone, flooded, rates = [], [], []
    try:
        trio.run(table, port, 20)  # warm up: plugins loaded, the bots' path taken once
        for _ in range(args.repeat):
            alone.append(trio.run(table, port, args.rounds))
            flooder = subprocess.Popen(
                [sys.executable, __file__, "--flooder", str(port), str(args.connections),
                 args.flood],
                stdout=subprocess.PIPE,
                text=True,
            )  # fmt: skip
            try:
                time.sleep(1.0)  # the flood under way
                flooded.append(trio.run(table, port, args.rounds))
            finally:
                flooder.kill()
                out, _ = flooder.communicate()
            counts = [int(n) for n in out.split()]  # answers so far, once a second
            if len(counts) > 1:
                rates.append((counts[-1] - counts[0]) / (len(counts) - 1))
    finally:
        server.terminate()
        server.wait()
    return alone, flooded, int(statistics.median(rates)) if rates else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--flood", choices=("ping", "draw"), default="ping")
    parser.add_argument(
        "--budgets-only", action="store_true", help="skip the server without budgets"
    )
    parser.add_argument("--flooder", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.repeat, args.connections = 20, 1, 2
    if args.flooder:
        port, connections, kind = args.flooder
        flood(int(port), int(connections), kind)
        return
    print(
        f"2-bot table, vegas-s17, lim17, {args.rounds} rounds, seed {SEED}; flood: "
        f"{args.connections} connections of {args.flood} from one address; "
        f"{os.cpu_count()} cores"
    )
    modes = ((True, "default budgets"), (False, "no budgets (lane only)"))
    for limited, label in modes[:1] if args.budgets_only else modes:
        load = os.getloadavg()[0]
        alone, flooded, rate = measure(limited, args)
        a, f = statistics.median(alone), statistics.median(flooded)
        hands = SEATS * args.rounds
        print(
            f"  {label:24} alone {hands / a:7.0f} hands/s  flooded {hands / f:7.0f} hands/s  "
            f"ratio {a / f:.3f}  (flooder answered {rate}/s; load average {load:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after)"
        )


if __name__ == "__main__":
    main()
