"""Requests/s and p50/p99 latency of a trivial method (``ping``) at 1, 10 and 100 clients.

Run: ``.venv/bin/python benchmarks/protocol.py [--duration 3]``

In the same run the same load goes to a bare trio + msgpack echo server (the physical
limit of this machine for one Python process answering msgpack over TCP), and the ratios
are printed. Both servers run in their own subprocess; one load process drives both with
the same raw-msgpack client (each connection: send a request, wait for its answer, repeat),
so whatever the load generator costs, it costs both alike.
Targets (issue 5): at least half the echo server's throughput, p99 under 10 ms at 100 clients.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from typing import Any

import msgpack
import trio

CLIENTS = (1, 10, 100)


# -- the echo server ------------------------------------------------------------------------
async def echo_connection(stream: trio.SocketStream) -> None:
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=1 << 20)
    try:
        while data := await stream.receive_some(65536):
            unpacker.feed(data)
            for message in unpacker:
                await stream.send_all(msgpack.packb([1, message[1], None, message[3]]))
    except trio.BrokenResourceError:
        pass


async def echo_server() -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(f"listening on 127.0.0.1:{listeners[0].socket.getsockname()[1]}", file=sys.stderr)
    sys.stderr.flush()
    await trio.serve_listeners(echo_connection, listeners)


# -- the load -------------------------------------------------------------------------------
async def client(port: int, hello: bool, until: list[float], latencies: list[float]) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    unpacker = msgpack.Unpacker(raw=False)

    async def call(msgid: int, method: str, params: list[Any]) -> Any:
        await stream.send_all(msgpack.packb([0, msgid, method, params]))
        while True:
            for reply in unpacker:
                return reply
            unpacker.feed(await stream.receive_some(65536))

    if hello:
        await call(0, "hello", [1, "bench", "client"])
    msgid = 1
    warm_end, end = until
    now = time.perf_counter()
    while now < end:
        start = now
        await call(msgid, "ping", [])
        now = time.perf_counter()
        if now >= warm_end:
            latencies.append(now - start)
        msgid += 1
    await stream.aclose()


async def load(port: int, clients: int, hello: bool, duration: float) -> tuple[float, float, float]:
    latencies: list[float] = []
    start = time.perf_counter()
    until = [start + 0.5, start + 0.5 + duration]
    async with trio.open_nursery() as nursery:
        for _ in range(clients):
            nursery.start_soon(client, port, hello, until, latencies)
    latencies.sort()
    n = len(latencies)
    return n / duration, latencies[n // 2] * 1e3, latencies[min(n - 1, int(n * 0.99))] * 1e3


def start(argv: list[str]) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            return proc, int(found.group(1))
    raise SystemExit(f"{argv} did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        trio.run(echo_server)
        return
    croupier, croupier_port = start(
        [sys.executable, "-m", "croupier.clients.cli", "serve", "--port", "0", "--seed", "1"]
    )
    echo, echo_port = start([sys.executable, __file__, "--echo-server"])
    try:
        print(f"ping over loopback TCP, {args.duration:g} s per row, {os.cpu_count()} CPUs")
        print(
            f"{'clients':>7} | {'croupier req/s':>14} {'p50 ms':>7} {'p99 ms':>7} | "
            f"{'echo req/s':>10} {'p50 ms':>7} {'p99 ms':>7} | {'throughput ratio':>16}"
        )
        for clients in CLIENTS:
            rate, p50, p99 = trio.run(load, croupier_port, clients, True, args.duration)
            e_rate, e_p50, e_p99 = trio.run(load, echo_port, clients, False, args.duration)
            print(
                f"{clients:>7} | {rate:>14,.0f} {p50:>7.2f} {p99:>7.2f} | "
                f"{e_rate:>10,.0f} {e_p50:>7.2f} {e_p99:>7.2f} | {rate / e_rate:>16.2f}"
            )
    finally:
        for proc in (croupier, echo):
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
