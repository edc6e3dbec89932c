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
share while the bots play is printed too: it shows where the server's capacity goes; the
process of its own that writes the browsers' frames (protocol/web/relay.py) is printed
beside it as ``relay``, not counted in it (it runs on another core than the tables).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import trio
import wsclient  # beside this script (first on sys.path)

from croupier.clients.bot import Bot, play
from croupier.plugins.blackjack.play import Observation
from croupier.protocol import connect

SEATS = 4
SEED = 2024
KEEP = 0.90
"""The bots' hands/s with watchers, at least this share of the same table's without."""
LAG = 1.0
"""Seconds a watcher may get the table's end after the table finished and still be fed."""
PIN: tuple[set[int], set[int]] | None = None
"""With ``--pin``: the CPUs of the server and the bots, and those of the browsers and the
server's frame relay (browsers come from other machines: here they must not take the
table's core)."""


def pin(pids: list[int], which: int) -> None:
    """Keep ``pids`` on the table's CPUs (``which`` 0) or the browsers' (1), with ``--pin``."""
    if PIN is not None:
        for pid in pids:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, PIN[which])


class Lim17(Bot):
    name = "lim17"

    def decide(self, observation: Observation) -> str:
        return "hit" if observation.total < 17 else "stand"


# -- the server ------------------------------------------------------------------------------
class Served:
    """``croupier serve --port 0 --http 0`` in its own process: its TCP and web ports."""

    def __init__(self, shim: Path | None = None) -> None:
        """``shim``: a ``croupier`` folder whose parts are another tree's, run instead."""
        argv = ["serve", "--port", "0", "--http", "0", "--data", ":memory:", "--seed", "1"]
        argv += ["--connections", "8192", "--http-connections", "4096"]
        env = dict(os.environ)
        if shim is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(shim.parent), env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "croupier.clients.cli", *argv],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env=env,
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

    def children(self) -> list[int]:
        """The server's own processes (the web page's frame relay): their CPU is reported
        beside the server's, not in it."""
        found: list[int] = []
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*"):  # any thread may fork
            with contextlib.suppress(OSError):
                found += [int(pid) for pid in (task / "children").read_text().split()]
        return found

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


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
    relay_cpu: float  # the server's own processes' (the frame relay)
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


async def measure(
    served: Served, rounds: int, watchers: int, events: int, kind: str, procs: int
) -> Run:
    """One table played by the bots with ``watchers`` browsers (``kind`` web) or TCP
    watchers (tcp) watching, none other, from ``procs`` processes; the time runs from the
    bots' start to the last one's end."""
    async with connect("127.0.0.1", served.port, name="bench") as client:
        table = await new_table(client, rounds)
        processes: list[trio.Process] = []
        if watchers:
            port = served.http if kind == "web" else served.port
            share = -(-watchers // procs)
            for first in range(0, watchers, share):
                count = min(share, watchers - first)
                argv = [kind, str(port), str(table), str(first), str(count)]
                processes.append(
                    await trio.lowlevel.open_process(
                        [sys.executable, __file__, "--watch", *argv],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                    )
                )
            for process in processes:
                out = await wsclient.read_line(process)
                if out != "ready":
                    raise SystemExit(f"watchers.py: the watchers did not start: {out}")
        finals: list[dict[str, Any]] = []

        async def bot() -> None:
            finals.append(await play(Lim17(), "127.0.0.1", served.port, table=table, name="b"))

        relay = served.children()
        pin([*relay, *(p.pid for p in processes)], 1)
        pids = [served.proc.pid, os.getpid(), *relay, *(p.pid for p in processes)]
        cpu, start = [cpu_seconds(pid) for pid in pids], time.monotonic()
        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(bot)
        finished = time.monotonic()
        elapsed = finished - start
        cpu = [(cpu_seconds(pid) - was) / elapsed for pid, was in zip(pids, cpu, strict=True)]
        report: dict[str, list[Any]] = {"events": [], "digests": [], "ends": [], "errors": []}
        for process in processes:
            assert process.stdin is not None
            await process.stdin.aclose()  # the table has finished: GRACE for the stragglers
        for process in processes:
            for key, values in json.loads(await wsclient.read_line(process)).items():
                report[key] += values
            await process.wait()
    ends = [end for end in report["ends"] if end is not None]
    # the digest of every message after table.watch's answer, as a browser that counted
    # every event got them: a browser with the same digest got the same
    counted = report["events"]
    whole = {d for d, n in zip(report["digests"], counted, strict=True) if n == events and d}
    fed = sum(
        1
        for got, digest, end in zip(counted, report["digests"], report["ends"], strict=True)
        if (got == events if got is not None else digest in whole)
        and end is not None
        and end - finished <= LAG
    )
    return Run(
        watchers,
        SEATS * rounds / elapsed,
        finals[0]["chips"],
        cpu[0],
        cpu[1],
        sum(cpu[2 + len(relay) :]),
        sum(cpu[2 : 2 + len(relay)]),
        fed,
        max([0.0, *(end - finished for end in ends)]),
        report["errors"],
    )


# -- the search ------------------------------------------------------------------------------
@attrs.frozen
class Level:
    """A count of watchers measured against no watcher, ``repeats`` pairs played ABBA."""

    watchers: int
    base: list[Run]
    watched: list[Run]
    label: str = ""

    @property
    def ratio(self) -> float:
        """The bots' median hands/s with the watchers over their median without."""
        return statistics.median(r.hands_per_s for r in self.watched) / statistics.median(
            r.hands_per_s for r in self.base
        )

    @property
    def cpu_share(self) -> float:
        """The server's extra CPU a hand with the watchers over its CPU a hand without."""
        without = self.cpu_per_hand(self.base)
        return (self.cpu_per_hand(self.watched) - without) / without

    @property
    def passes(self) -> bool:
        return self.cpu_share <= 1 - KEEP and all(r.all_fed for r in self.watched)

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
            f"{self.label}{self.watchers:5d} watcher(s)  server CPU +{self.cpu_share:6.3f} of "
            f"the unwatched table's: {1000 * with_n:5.2f} ms a hand (without: "
            f"{1000 * without:4.2f}; {1e6 * (with_n - without) / self.watchers:5.1f} us more a "
            f"watcher); {median(self.watched, 'hands_per_s'):5.0f} hands/s"
            f" (without: {median(self.base, 'hands_per_s'):4.0f}, ratio {self.ratio:5.3f}), "
            f"{100 * median(self.watched, 'server_cpu'):3.0f}% busy "
            f"({100 * median(self.base, 'server_cpu'):2.0f}%); bots "
            f"{100 * median(self.watched, 'bots_cpu'):3.0f}% busy "
            f"({100 * median(self.base, 'bots_cpu'):2.0f}%), watchers "
            f"{100 * median(self.watched, 'watchers_cpu'):3.0f}%, relay "
            f"{100 * median(self.watched, 'relay_cpu'):3.0f}%; fed "
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
    parser.add_argument(
        "--procs", type=int, default=2, help="processes the simulated browsers run in"
    )
    parser.add_argument(
        "--base",
        metavar="TREE",
        help="also measure a server from this source tree (a clone of the code before), in turns",
    )
    parser.add_argument(
        "--pin",
        metavar="CPUS:CPUS",
        help="the server and bots on these CPUs, the browsers and the relay on those (0:1)",
    )
    parser.add_argument("--watch", nargs=5, help=argparse.SUPPRESS)
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
        trio.run(wsclient.watch_many, kind, *map(int, numbers))
        return
    with contextlib.ExitStack() as stack:
        servers = [("", stack.enter_context(Served()))]
        if args.base:
            shim = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "croupier"
            shim.mkdir()
            for part in ("engine", "protocol", "plugins", "clients"):
                (shim / part).symlink_to(Path(args.base).resolve() / part)
            servers = [("new  ", servers[0][1]), ("base ", stack.enter_context(Served(shim)))]
        if args.pin:
            global PIN
            table, browsers = ({int(c) for c in cpus.split(",")} for cpus in args.pin.split(":"))
            PIN = (table, browsers)
            pin([os.getpid(), *(served.proc.pid for _, served in servers)], 0)
        search(servers, args)


def search(servers: list[tuple[str, Served]], args: argparse.Namespace) -> None:
    print(
        f"a table of {SEATS} TCP bots (lim17, vegas-s17, {args.rounds} rounds, seed {SEED}), "
        f"{args.repeats} pair(s) of tables per count, with and without watchers (ABBA); a count "
        f"passes when the server's CPU a hand with them is at most {1 - KEEP:.0%} more than "
        f"without, every watcher with every event and the end within {LAG:g} s "
        f"(the browsers run in {args.procs} process(es) of their own)",
        flush=True,
    )
    chips: list[int] = []
    events = trio.run(count_events, servers[0][1], args.rounds)
    print(f"the table sends {events} events", flush=True)

    def run(served: Served, n: int) -> Run:
        got = trio.run(measure, served, args.rounds, n, events, args.kind, args.procs)
        chips.append(got.chips)
        assert got.chips == chips[0], (got.chips, chips[0])  # the same play every time
        return got

    def level(n: int) -> Level:
        runs: dict[str, tuple[list[Run], list[Run]]] = {label: ([], []) for label, _ in servers}
        for i in range(args.repeats):
            turn = servers if i % 2 == 0 else servers[::-1]
            for label, served in turn:
                base, watched = runs[label]
                for k in (0, n) if i % 2 == 0 else (n, 0):
                    (watched if k else base).append(run(served, k))
        levels = [Level(n, *runs[label], label) for label, _ in servers]
        for measured in levels:
            print(measured, flush=True)
        return levels[0]

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
    share = f" (+{best.cpu_share:.3f})" if best else ""
    limit = f"; {failed} do not" if failed else f", the most tried (--max {args.max})"
    what = "watching browsers" if args.kind == "web" else "TCP watchers"
    print(
        f"one server feeds {passed} {what}{share} within {1 - KEEP:.0%} of the unwatched "
        f"table's CPU a hand{limit}"
    )


if __name__ == "__main__":
    main()
