"""How many watching browsers one server feeds while 4 TCP bots play, with the bots' hands/s
unchanged within 10%.

Run: ``.venv/bin/python benchmarks/watchers.py [--rounds 300] [--repeats 3] [--max 1024]``

The server is ``croupier serve --http`` in its own process (no journal, seed fixed). Each
measurement is one vegas-s17 table of 4 seats and ``--rounds`` rounds, created over TCP by
this process and played by 4 SDK bots playing lim17 from this process, each on its own TCP
connection, as in benchmarks/tables_tcp.py; the time runs from the bots' start to the last
one's end, and nothing else watches (the events a table sends are counted once, first, by
a TCP watcher of a table not timed). The watching browsers are simulated in a second process
(benchmarks/wsclient.py): each opens the page's WebSocket ``/rpc``, says ``hello`` as a
``watcher``, watches the table before it starts and decodes every notification, as the live
table page does; each comes from its own loopback address, as browsers come from theirs.

Watchers go 1, 2, 4, 8, ... and each count is measured against the same table with no
watcher in the same run: ``--repeats`` pairs of tables, with and without, in ABBA order (so
a machine that slows down meanwhile is not blamed on the watchers), compared by their
median hands/s. A count passes when the bots' hands/s with it are at least 90% of those
without and every watcher was fed: it got every event the table sent, and the table's end
within a second of the table. Past the first failing count, the gap between it and the
last pass is halved ``--bisect`` times. Every table plays the same cards the same way (the
chips are checked to be equal), so they differ only in the watchers. The server's CPU
share while the bots play is printed too: it shows where the server's capacity goes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import trio
from wsclient import TcpWatcher, Watcher  # beside this script (first on sys.path)

from croupier.clients.bot import Bot, play
from croupier.plugins.blackjack.play import Observation
from croupier.protocol import connect

SEATS = 4
SEED = 2024
KEEP = 0.90
"""The bots' hands/s with watchers, at least this share of the same table's without."""
LAG = 1.0
"""Seconds a watcher may get the table's end after the table finished and still be fed."""


class Lim17(Bot):
    name = "lim17"

    def decide(self, observation: Observation) -> str:
        return "hit" if observation.total < 17 else "stand"


# -- the server ------------------------------------------------------------------------------
class Served:
    """``croupier serve --port 0 --http 0`` in its own process: its TCP and web ports."""

    def __init__(self) -> None:
        argv = ["serve", "--port", "0", "--http", "0", "--data", ":memory:", "--seed", "1"]
        argv += ["--connections", "8192", "--http-connections", "4096"]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "croupier.clients.cli", *argv],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stderr is not None
        self.port = self.http = 0
        for line in self.proc.stderr:
            if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                self.port = int(found.group(1))
            if found := re.search(r"web page on http://127\.0\.0\.1:(\d+)/", line):
                self.http = int(found.group(1))
                break
        if not (self.port and self.http):
            self.stop()
            raise SystemExit("watchers.py: the server did not start")
        # its log is read from here on by nobody: send it where it cannot fill a pipe
        self.proc.stderr.close()

    def cpu(self) -> float:
        """The server's CPU seconds so far."""
        return cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait()


def cpu_seconds(pid: int) -> float:
    """A process's CPU seconds so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- one measurement -------------------------------------------------------------------------
@attrs.frozen
class Run:
    watchers: int
    hands_per_s: float
    chips: list[int]
    server_cpu: float  # the server's CPU seconds per second of play
    bots_cpu: float  # the bots' process's
    watchers_cpu: float  # the simulated browsers' process's
    fed: int  # watchers that got every event and the end in time
    lag: float  # the last watcher's end after the table's, in seconds
    dropped: list[str]

    @property
    def all_fed(self) -> bool:
        return self.fed == self.watchers


async def count_events(served: Served, rounds: int) -> int:
    """How many events the table sends (watched over TCP, not timed): what a fed watcher
    gets, since every table plays the same cards the same way."""
    events = 0

    def heard(method: str, params: Any) -> None:
        nonlocal events
        events += method == "table.event"

    async with connect("127.0.0.1", served.port, name="bench", on_notification=heard) as client:
        table = await new_table(client, rounds)
        await client.call("table.watch", table)
        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(partial(play, Lim17(), "127.0.0.1", served.port, table=table))
    return events


async def new_table(client: Any, rounds: int) -> int:
    info = await client.call_named("table.create", {"seats": SEATS, "rounds": rounds, "seed": SEED})
    return int(info["table"])


async def measure(served: Served, rounds: int, watchers: int, events: int, kind: str) -> Run:
    """One table played by the bots with ``watchers`` browsers (``kind`` web) or TCP
    watchers (tcp) watching, none other; the time runs from the bots' start to the last
    one's end."""
    async with connect("127.0.0.1", served.port, name="bench") as client:
        table = await new_table(client, rounds)
        browsers = None
        if watchers:
            port = served.http if kind == "web" else served.port
            browsers = await trio.lowlevel.open_process(
                [sys.executable, __file__, "--watch", kind, str(port), str(table), str(watchers)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            out = await _line(browsers)
            if out != "ready":
                raise SystemExit(f"watchers.py: the watchers did not start: {out}")
        finals: list[dict[str, Any]] = []

        async def bot() -> None:
            finals.append(await play(Lim17(), "127.0.0.1", served.port, table=table, name="b"))

        pids = [served.proc.pid, os.getpid(), *([browsers.pid] if browsers else [])]
        cpu, start = [cpu_seconds(pid) for pid in pids], time.monotonic()
        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(bot)
        finished = time.monotonic()
        elapsed = finished - start
        cpu = [(cpu_seconds(pid) - was) / elapsed for pid, was in zip(pids, cpu, strict=True)]
        report: dict[str, Any] = {"events": [], "ends": [], "errors": []}
        if browsers is not None:
            assert browsers.stdin is not None
            await browsers.stdin.aclose()  # the table has finished: GRACE for the stragglers
            report = json.loads(await _line(browsers))
            await browsers.wait()
    ends = [end for end in report["ends"] if end is not None]
    fed = sum(
        1
        for got, end in zip(report["events"], report["ends"], strict=True)
        if got == events and end is not None and end - finished <= LAG
    )
    return Run(
        watchers,
        SEATS * rounds / elapsed,
        finals[0]["chips"],
        cpu[0],
        cpu[1],
        cpu[2] if browsers else 0.0,
        fed,
        max([0.0, *(end - finished for end in ends)]),
        report["errors"],
    )


async def _line(proc: trio.Process) -> str:
    """The next line the watchers' process writes."""
    assert proc.stdout is not None
    line = bytearray()
    while not line.endswith(b"\n"):
        chunk = await proc.stdout.receive_some(1)
        if not chunk:
            break
        line += chunk
    return line.decode().strip()


# -- the watchers' process -------------------------------------------------------------------
GRACE = 30.0
"""Seconds the watchers may still take once the table has finished (then they are stopped:
a watcher the server dropped as too slow hears no end)."""


async def watch(kind: str, port: int, table: int, count: int) -> None:
    """``count`` simulated browsers (``kind`` web, on the web port) or TCP watchers (tcp)
    watching ``table``: "ready" once all watch, then (when every one has the table's end,
    or GRACE seconds after stdin closes) a JSON line of what each got: its events, when the
    end came, errors."""
    browsers = [(Watcher if kind == "web" else TcpWatcher)() for _ in range(count)]
    limit = trio.Semaphore(32)  # connections opening at once (the listen backlog is 100)

    async def stragglers(scope: trio.CancelScope) -> None:
        stdin = trio.lowlevel.FdStream(os.dup(0))
        while await stdin.receive_some():
            pass
        scope.deadline = trio.current_time() + GRACE

    async with trio.open_nursery() as outer:
        outer.start_soon(stragglers, outer.cancel_scope)
        async with trio.open_nursery() as running:

            async def one(i: int, browser: Watcher) -> None:
                local = f"127.1.{i // 250}.{i % 250 + 1}"  # a browser's own address
                async with limit:
                    await running.start(browser.watch, "127.0.0.1", port, table, local)

            async with trio.open_nursery() as opening:
                for i, browser in enumerate(browsers):
                    opening.start_soon(one, i, browser)
            print("ready", flush=True)
        outer.cancel_scope.cancel()
    errors = sorted({b.error for b in browsers if b.error})
    ends = [b.ended for b in browsers]
    print(json.dumps({"events": [b.events for b in browsers], "ends": ends, "errors": errors}))


# -- the search ------------------------------------------------------------------------------
@attrs.frozen
class Level:
    """A count of watchers measured against no watcher, ``repeats`` pairs played ABBA."""

    watchers: int
    base: list[Run]
    watched: list[Run]

    @property
    def ratio(self) -> float:
        """The bots' median hands/s with the watchers over their median without."""
        return statistics.median(r.hands_per_s for r in self.watched) / statistics.median(
            r.hands_per_s for r in self.base
        )

    @property
    def passes(self) -> bool:
        return self.ratio >= KEEP and all(r.all_fed for r in self.watched)

    def cpu_per_hand(self, runs: list[Run]) -> float:
        """The server's CPU seconds per hand (median): what the machine's load does not
        change, unlike hands/s on a shared machine."""
        return statistics.median(r.server_cpu / r.hands_per_s for r in runs)

    def __str__(self) -> str:
        def median(runs: list[Run], of: str) -> float:
            return statistics.median(getattr(r, of) for r in runs)

        fed = sum(r.fed for r in self.watched)
        dropped = sorted({d for r in self.watched for d in r.dropped})
        with_n, without = self.cpu_per_hand(self.watched), self.cpu_per_hand(self.base)
        return (
            f"{self.watchers:5d} watcher(s)  {median(self.watched, 'hands_per_s'):5.0f} hands/s"
            f" (without: {median(self.base, 'hands_per_s'):4.0f})  ratio {self.ratio:5.3f}  "
            f"server {1000 * with_n:5.2f} ms CPU a hand (without: {1000 * without:4.2f}; "
            f"{1e6 * (with_n - without) / self.watchers:4.0f} us more a watcher), "
            f"{100 * median(self.watched, 'server_cpu'):3.0f}% busy "
            f"({100 * median(self.base, 'server_cpu'):2.0f}%); bots "
            f"{100 * median(self.watched, 'bots_cpu'):3.0f}% busy "
            f"({100 * median(self.base, 'bots_cpu'):2.0f}%), watchers "
            f"{100 * median(self.watched, 'watchers_cpu'):3.0f}%; fed "
            f"{fed}/{self.watchers * len(self.watched)}, last end "
            f"+{max(r.lag for r in self.watched):.2f} s"
            + (f"  ({'; '.join(dropped)})" if dropped else "")
            + ("" if self.passes else "  <- fails")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds of each table")
    parser.add_argument("--repeats", type=int, default=3, help="pairs of tables per count")
    parser.add_argument("--max", type=int, default=1024, help="the most watchers tried")
    parser.add_argument("--bisect", type=int, default=2, help="halvings past the first failure")
    parser.add_argument(
        "--counts", help="measure these counts only (e.g. 1,4,16), no search: a curve"
    )
    parser.add_argument(
        "--kind", choices=("web", "tcp"), default="web", help="browsers, or TCP watchers"
    )
    parser.add_argument("--watch", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.repeats, args.max = 20, 1, 2
    if args.watch:
        kind, *numbers = args.watch
        trio.run(watch, kind, *map(int, numbers))
        return
    served = Served()
    try:
        search(served, args)
    finally:
        served.stop()


def search(served: Served, args: argparse.Namespace) -> None:
    print(
        f"a table of {SEATS} TCP bots (lim17, vegas-s17, {args.rounds} rounds, seed {SEED}), "
        f"{args.repeats} pair(s) of tables per count, with and without watchers (ABBA); a count "
        f"passes at >= {KEEP:.0%} of the median hands/s without, every watcher with every "
        f"event and the end within {LAG:g} s",
        flush=True,
    )
    chips: list[int] = []
    events = trio.run(count_events, served, args.rounds)
    print(f"the table sends {events} events", flush=True)

    def run(n: int) -> Run:
        got = trio.run(measure, served, args.rounds, n, events, args.kind)
        chips.append(got.chips)
        assert got.chips == chips[0], (got.chips, chips[0])  # the same play every time
        return got

    def level(n: int) -> Level:
        base: list[Run] = []
        watched: list[Run] = []
        for i in range(args.repeats):
            for k in (0, n) if i % 2 == 0 else (n, 0):
                (watched if k else base).append(run(k))
        measured = Level(n, base, watched)
        print(measured, flush=True)
        return measured

    if args.counts:
        for n in map(int, args.counts.split(",")):
            level(n)
        return
    passed, failed, best = 0, 0, None
    n = 1
    while n <= args.max:
        if not (measured := level(n)).passes:
            failed = n
            break
        passed, best, n = n, measured, n * 2
    for _ in range(args.bisect if failed else 0):
        middle = (passed + failed) // 2
        if middle in (passed, failed):
            break
        if (measured := level(middle)).passes:
            passed, best = middle, measured
        else:
            failed = middle
    ratio = f" (ratio {best.ratio:.3f})" if best else ""
    limit = f"; {failed} do not" if failed else f", the most tried (--max {args.max})"
    what = "watching browsers" if args.kind == "web" else "TCP watchers"
    print(f"one server feeds {passed} {what}{ratio} with the bots' hands/s within 10%{limit}")


if __name__ == "__main__":
    main()
