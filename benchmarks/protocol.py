"""Requests/s and p50/p99 latency of a trivial method (``ping``) at 1, 10 and 100 clients.

Run: ``.venv/bin/python benchmarks/protocol.py [--duration 3] [--repeat 1]``

In the same run the same load goes to a bare trio + msgpack echo server (the physical
limit of this machine for one Python process answering msgpack over TCP), and the ratios
are printed. Each server runs in its own subprocess.

The load generator must measure the server, not itself. On a 2-core machine a trio client
with one task per connection costs about as much CPU as the server it loads, so it takes
half the machine and its own scheduling shows up as server latency. This one is a single
plain-Python loop over non-blocking sockets and ``select.epoll``:

- every connection is a closed-loop client: send one request, wait for its answer, repeat
  (so N connections keep exactly N requests in flight);
- requests are packed before the run (256 msgids per connection, used in turn), and so are
  the expected responses: a complete answer is recognised, and checked, by comparing bytes;
  no msgpack work happens while measuring;
- a request's latency runs from just before its ``send`` to the return of the ``epoll``
  wait that reported its answer.

The same generator, with the same requests, drives both servers (croupier's connections
say ``hello`` first, outside the measurement). Each row warms up for 0.5 s, then counts
the answers received during ``--duration`` seconds. The CPU time the generator and the
server spend per request (from ``/proc``) is printed too: it shows the generator costs a
small fraction of what the servers cost.

By Little's law a closed loop of N clients has latency ~ N / throughput, so the p99 target
at 100 clients (under 10 ms) needs more than ~10,000 requests/s in the first place.
Targets (issue 5): at least half the echo server's throughput, p99 under 10 ms at 100 clients.

``--journal``: a third server runs, with a SQLite journal (``--data`` a temporary file)
instead of none, and gets the same load; its throughput is printed as a ratio to the
server without a journal, measured in the same run (issue 19: at most 15% less). ``ping``
writes nothing, so this shows what the journal's writer thread costs a server that is
only answering requests; ``benchmarks/journal.py`` measures pings while a table writes.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import attrs
import msgpack
import trio

CLIENTS = (1, 10, 100)
MSGIDS = 256
WARMUP = 0.5


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
def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@attrs.frozen
class Row:
    """One measurement: requests/s, latencies (ms), CPU per request (us) of server and load."""

    rate: float
    p50: float
    p99: float
    server_us: float
    load_us: float


def open_client(port: int, hello: bool) -> socket.socket:
    """A connected socket (introduced to croupier when ``hello``), switched to non-blocking."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if hello:
        sock.sendall(msgpack.packb([0, MSGIDS, "hello", [1, "bench", "client"]]))
        unpacker = msgpack.Unpacker(raw=False)
        while True:
            unpacker.feed(sock.recv(65536))
            for reply in unpacker:
                if reply[2] is not None:
                    raise SystemExit(f"hello refused: {reply[2]}")
                break
            else:
                continue
            break
    sock.setblocking(False)
    return sock


def load(port: int, clients: int, hello: bool, result: Any, duration: float, pid: int) -> Row:
    """Drive ``clients`` closed-loop connections for warm-up + ``duration`` seconds."""
    requests = [msgpack.packb([0, i, "ping", []]) for i in range(MSGIDS)]
    answers = [msgpack.packb([1, i, None, result]) for i in range(MSGIDS)]
    socks = [open_client(port, hello) for _ in range(clients)]
    poller = select.epoll()
    # per connection: [socket, next msgid index, send time, partial answer]
    state: dict[int, list[Any]] = {}
    for sock in socks:
        poller.register(sock.fileno(), select.EPOLLIN)
        state[sock.fileno()] = [sock, 0, 0.0, b""]
    latencies: list[float] = []
    record = latencies.append
    clock = time.perf_counter
    poll = poller.poll
    start = clock()
    warm_end, end = start + WARMUP, start + WARMUP + duration
    for entry in state.values():
        entry[2] = clock()
        entry[0].send(requests[0])
    cpu_start = (0.0, 0.0)
    measuring = False
    count = 0
    while True:
        events = poll()
        now = clock()
        if now >= end:
            break
        if not measuring and now >= warm_end:
            measuring = True
            cpu_start = (time.process_time(), cpu_seconds(pid))
            count = 0
            latencies.clear()
        for fd, _ in events:
            entry = state[fd]
            sock, i = entry[0], entry[1]
            data = sock.recv(65536)
            expected = answers[i]
            if entry[3]:
                data = entry[3] + data
            if len(data) < len(expected):
                if not data:
                    raise SystemExit("the server closed a connection")
                entry[3] = data
                continue
            if data != expected:
                raise SystemExit(f"unexpected answer {data!r}, expected {expected!r}")
            entry[3] = b""
            record(now - entry[2])
            count += 1
            i = (i + 1) % MSGIDS
            entry[1] = i
            entry[2] = clock()
            sock.send(requests[i])
    elapsed = now - warm_end
    own_cpu, server_cpu = time.process_time() - cpu_start[0], cpu_seconds(pid) - cpu_start[1]
    poller.close()
    for sock in socks:
        sock.close()
    latencies.sort()
    n = len(latencies)
    return Row(
        rate=count / elapsed,
        p50=latencies[n // 2] * 1e3,
        p99=latencies[min(n - 1, int(n * 0.99))] * 1e3,
        server_us=server_cpu / count * 1e6,
        load_us=own_cpu / count * 1e6,
    )


def _drain(lines: Any) -> None:
    for _ in lines:
        pass


def start(argv: list[str]) -> tuple[subprocess.Popen[str], int]:
    """Start a server and return it with its port. Its log (a line per connection opened
    and closed) is read to the end by a thread: a pipe left full would stop the server in
    its next write, and the run with it, after a few hundred connections."""
    env = {**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            threading.Thread(target=_drain, args=(proc.stderr,), daemon=True).start()
            return proc, int(found.group(1))
    raise SystemExit(f"{argv} did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--repeat", type=int, default=1, help="measure every row this often")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--journal", action="store_true", help="also a server with a journal, same load"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.duration = 0.2
    if args.echo_server:
        trio.run(echo_server)
        return
    # no request budgets (this measures how fast pings can be answered, not how they are
    # shared: benchmarks/fairness.py does), and no journal
    unlimited = ["--request-rate", "0", "--address-rate", "0"]
    serve = ["serve", "--port", "0", "--seed", "1", *unlimited, "--data", ":memory:"]
    croupier, croupier_port = start([sys.executable, "-m", "croupier.clients.cli", *serve])
    echo, echo_port = start([sys.executable, __file__, "--echo-server"])
    folder = tempfile.TemporaryDirectory()
    journaled, journaled_port = None, 0
    if args.journal:
        data = ["--data", os.path.join(folder.name, "journal.db")]
        journaled, journaled_port = start(
            [sys.executable, "-m", "croupier.clients.cli", *serve[:-2], *data]
        )
    journal_ratios: dict[int, list[float]] = {n: [] for n in CLIENTS}
    try:
        print(
            f"ping over loopback TCP, {args.duration:g} s per row, {os.cpu_count()} CPUs; "
            "cpu = CPU us per request of the server / of the load generator"
        )
        print(
            f"{'clients':>7} | {'croupier req/s':>14} {'p50 ms':>6} {'p99 ms':>6} {'cpu':>9} | "
            f"{'echo req/s':>10} {'p50 ms':>6} {'p99 ms':>6} {'cpu':>9} | {'ratio':>5}"
        )
        ratios: dict[int, list[float]] = {n: [] for n in CLIENTS}
        p99s: list[float] = []
        for _ in range(args.repeat):
            for clients in CLIENTS:
                c = load(croupier_port, clients, True, "pong", args.duration, croupier.pid)
                e = load(echo_port, clients, False, [], args.duration, echo.pid)
                ratios[clients].append(c.rate / e.rate)
                if clients == CLIENTS[-1]:
                    p99s.append(c.p99)
                print(
                    f"{clients:>7} | {c.rate:>14,.0f} {c.p50:>6.2f} {c.p99:>6.2f} "
                    f"{c.server_us:>4.0f}/{c.load_us:<4.0f} | {e.rate:>10,.0f} {e.p50:>6.2f} "
                    f"{e.p99:>6.2f} {e.server_us:>4.0f}/{e.load_us:<4.0f} | "
                    f"{c.rate / e.rate:>5.2f}"
                )
                if journaled is not None:
                    j = load(journaled_port, clients, True, "pong", args.duration, journaled.pid)
                    journal_ratios[clients].append(j.rate / c.rate)
                    print(
                        f"{'':>7} | journal: {j.rate:>8,.0f} req/s  p99 {j.p99:.2f} ms  "
                        f"server {j.server_us:.0f} us/req  ratio to no journal "
                        f"{j.rate / c.rate:.3f}"
                    )
        if args.repeat > 1:
            spread = ", ".join(
                f"{n}: {min(r):.2f}-{max(r):.2f} (median {statistics.median(r):.2f})"
                for n, r in ratios.items()
            )
            print(f"throughput ratio by clients over {args.repeat} runs: {spread}")
            print(f"croupier p99 at {CLIENTS[-1]} clients: {min(p99s):.2f}-{max(p99s):.2f} ms")
        print(
            f"Little's law: N closed-loop clients wait ~ N / throughput, so p99 < 10 ms at "
            f"{CLIENTS[-1]} clients needs > ~{CLIENTS[-1] / 0.010:,.0f} req/s"
        )
        if journaled is not None:
            spread = ", ".join(
                f"{n}: {statistics.median(r):.3f}" for n, r in journal_ratios.items()
            )
            print(f"with a journal / without, req/s by clients (median): {spread}")
    finally:
        for proc in (croupier, echo, journaled):
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=20)
        folder.cleanup()


if __name__ == "__main__":
    main()
