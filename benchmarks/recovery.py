"""Time to recover a journal of 10,000 tables, against playing the same tables live; and
the time to recover one long table with and without its checkpoints.

Run: ``.venv/bin/python benchmarks/recovery.py [--tables 10000] [--rounds 5] [--game blackjack]
[--chips N]`` (``--chips``: each seat's starting chips, so long tables play every round), or
``.venv/bin/python benchmarks/recovery.py --long 100000 [--game blackjack]
[--checkpoint-every 1000]`` for one long table (see "One long table" below).

In one process, on one journal file (WAL, ``synchronous = NORMAL``):

1. **live**: a server with a journal plays ``--tables`` tables of two built-in strategies
   (``--rounds`` rounds each, seeds 1, 2, ...), all created at once over one TCP
   connection; timed from the first ``table.create`` to the last table's end. This is the
   peer: the same rounds, dealt and decided and recorded.
2. The journal is then made what a crash after every table's last round leaves: the
   tables ``playing``, their results gone, every settled round kept.
3. **recovery**: a new server opens that journal and starts; timed from its start to
   listening, which is after it has read every unfinished table and replayed every
   settled round through the game (:mod:`croupier.protocol.tables.recovery`). Each table
   then ends at once (its rounds are played); every table's result (chips and house) is
   checked against the live run's.

Printed: both times, per table and per round, and recovery / live; and the process's peak
resident memory after each phase (recovery reads and replays a page of rounds at a time, so
a long table should not raise it: ``--tables 1 --rounds 50000`` shows it).

**One long table** (``--long N``): a server plays one table of two strategies (chips enough
to play every round) writing a checkpoint every ``--checkpoint-every`` rounds, and is
stopped gracefully once it has settled N rounds (a reboot: the table stays unfinished, its
latest checkpoint kept). Two servers then recover copies of that journal, in the same run:
one with the checkpoint, one with it deleted (a full replay, as before checkpoints). For
each: the time from the server's start to the first answered ``ping`` (it serves while it
rebuilds), to the table rebuilt, and the slowest of the pings sent every 0.1 s meanwhile;
both must end at the same chips (its rounds capped at those it settled, it ends once rebuilt).
"""

from __future__ import annotations

import argparse
import json
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.journal import Journal
from croupier.protocol.tables import TableService
from croupier.protocol.transport.limits import ServerLimits

Times = tuple[float, float]
"""Wall-clock and CPU seconds (this process: the server, its journal thread, the client)."""
FILL = {"blackjack": ["lim17", "never-bust"], "baccarat": ["banker", "player"]}


def server_with(path: Path, tables: int) -> Server:
    limits = ServerLimits(max_tables=tables, tables_per_connection=tables, max_pending=1024)
    return Server(PluginManager(autoload=False), seed=1, limits=limits, journal=Journal(str(path)))


def table_service(server: Server) -> TableService:
    (found,) = [s for s in server.services if isinstance(s, TableService)]
    return found


async def live(
    path: Path, tables: int, rounds: int, game: str, chips: int | None
) -> tuple[Times, dict[int, Any]]:
    server = server_with(path, tables)
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        start, cpu = time.perf_counter(), time.process_time()
        async with connect("127.0.0.1", port, name="bench") as client:
            params = {"game": game, "seats": 2, "fill": FILL[game], "rounds": rounds}
            if chips is not None:
                params["options"] = {"starting_chips": chips}
            # created 64 at a time: each create is answered once committed, and concurrent
            # ones share a commit (one at a time, 10,000 took as many commits)
            limit = trio.CapacityLimiter(64)

            async def create(seed: int) -> None:
                async with limit:
                    await client.call_named("table.create", {**params, "seed": seed})

            async with trio.open_nursery() as creates:
                for seed in range(1, tables + 1):
                    creates.start_soon(create, seed)
            for table in list(table_service(server).tables.values()):
                await table.done.wait()
        elapsed = time.perf_counter() - start, time.process_time() - cpu
        server.stop()
    await server.journal.aclose()
    return elapsed, results(path)


def results(path: Path) -> dict[int, Any]:
    """Every table's result, as the journal has it."""
    with sqlite3.connect(path) as conn:
        return {i: json.loads(r) for i, r in conn.execute("SELECT id, result FROM tables")}


def crash(path: Path) -> int:
    """Every table back to ``playing`` with its settled rounds; how many rounds (the rows
    of events hold blocks of them: counted from the tables' own counts)."""
    with sqlite3.connect(path) as conn:
        (rounds,) = conn.execute("SELECT sum(played) FROM tables").fetchone()
        conn.execute("DELETE FROM events WHERE round IS NULL")
        conn.execute(
            "UPDATE tables SET state = 'playing', reason = NULL, played = 0, events = 0,"
            " finished = NULL, result = NULL"
        )
        return int(rounds)


async def recover(path: Path, tables: int) -> tuple[Times, Pings, dict[int, Any]]:
    server = server_with(path, tables)
    async with trio.open_nursery() as nursery:
        start, cpu = time.perf_counter(), time.process_time()
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        pings = await ping_until_recovered(server, port, start)  # every table rebuilt
        elapsed = time.perf_counter() - start, time.process_time() - cpu
        for table in list(table_service(server).tables.values()):
            await table.done.wait()
        server.stop()
    await server.journal.aclose()
    return elapsed, pings, results(path)


Pings = tuple[float, float]
"""Seconds from the server's start to its first answered ``ping``, and the slowest of the
pings sent every 0.1 s until every table was rebuilt."""


async def ping_until_recovered(server: Server, port: int, start: float) -> Pings:
    """Ping a starting server (it serves while it rebuilds) until it has rebuilt every
    table, one ping every 0.1 s."""
    slowest = 0.0
    async with connect("127.0.0.1", port, name="bench") as client:
        await client.call("ping")
        pinged = time.perf_counter() - start
        while not server.recovered.is_set():
            asked = time.perf_counter()
            await client.call("ping")
            slowest = max(slowest, time.perf_counter() - asked)
            with trio.move_on_after(0.1):
                await server.recovered.wait()
    return pinged, slowest


async def long_live(path: Path, rounds: int, game: str, every: int) -> tuple[float, int]:
    """Play one table until it has settled ``rounds`` rounds, then stop the server
    gracefully; the wall seconds it played and the rounds it settled."""
    limits = ServerLimits(checkpoint_every=every)
    server = Server(
        PluginManager(autoload=False), seed=1, limits=limits, journal=Journal(str(path))
    )
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        start = time.perf_counter()
        async with connect("127.0.0.1", port, name="bench") as client:
            # the table's end is beyond N (a table holds 10^6 rounds at most: --long 990000)
            most = min(rounds + 10_000, 1_000_000)
            params = {"game": game, "seats": 2, "fill": FILL[game], "rounds": most}
            params["options"] = {"starting_chips": 10**9}
            info = await client.call_named("table.create", {**params, "seed": 1})
            table = table_service(server).tables[info["table"]]
            while table.played < rounds:  # its creator stays (a table left is abandoned)
                await client.call("ping")  # and is not idle (idle_timeout closes it)
                await trio.sleep(0.2)
            if table.played >= most:
                sys.exit(f"the table finished before the stop: --long {rounds:,} is too close")
            server.stop()
        await table.done.wait()
        played = time.perf_counter() - start
    await server.journal.aclose()
    return played, table.played


async def long_recover(path: Path) -> tuple[float, float, float, int, list[int]]:
    """Start a server on ``path``: seconds to the first answered ping, seconds to the table
    rebuilt, the slowest ping answered meanwhile (one every 0.1 s), the rounds it had
    settled, and its chips then."""
    start = time.perf_counter()
    server = Server(PluginManager(autoload=False), seed=1, journal=Journal(str(path)))
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        pinged, slowest = await ping_until_recovered(server, port, start)
        rebuilt = time.perf_counter() - start
        (table,) = table_service(server).tables.values()
        await table.done.wait()  # at once: its rounds are capped at those it settled
        played, chips = table.played, table.info()["chips"]
        server.stop()
    await server.journal.aclose()
    return pinged, rebuilt, slowest, played, chips


def cap_rounds(path: Path, settled: int) -> None:
    """Cap the stopped table's rounds at those it settled, so that once rebuilt it ends at
    once, at the chips both recoveries must reach (it would otherwise play on, and its
    chips be read at a moment that differs between the two runs)."""
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tables SET settings = json_set(settings, '$.rounds', ?)", (settled,))


def long_table(rounds: int, game: str, every: int, full_replay: bool = True) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.db"
        played, settled = trio.run(long_live, path, rounds, game, every)
        cap_rounds(path, settled)
        full = Path(folder) / "full.db"
        with sqlite3.connect(path) as a, sqlite3.connect(full) as b:
            a.backup(b)
            (saved,) = a.execute("SELECT round FROM checkpoints").fetchone()
            b.execute("DELETE FROM checkpoints")
        size = path.stat().st_size + Path(f"{path}-wal").stat().st_size
        with_cp = trio.run(long_recover, path)
        runs = [("checkpoint", with_cp)]
        if full_replay:
            runs.append(("full replay", trio.run(long_recover, full)))
    if full_replay and with_cp[3:] != runs[1][1][3:]:
        sys.exit("the table recovered from its checkpoint differs from its full replay")
    print(
        f"one {game} table of 2 strategies, {with_cp[3]:,} settled rounds (played in "
        f"{played:.1f} s; journal {size / 1e6:.1f} MB), checkpoint after round {saved:,}"
    )
    for what, (ping, rebuilt, slowest, *_) in runs:
        print(
            f"  {what:<12} first ping answered {ping:7.3f} s   table rebuilt {rebuilt:8.2f} s"
            f"   slowest ping meanwhile {slowest * 1e3:6.1f} ms"
        )
    if full_replay:
        ratio = runs[1][1][1] / with_cp[1]
        print(f"  full replay / checkpoint: {ratio:.1f}x; both end at the same chips")
    else:  # the rounds and chips match those of the table when the server stopped
        print(f"  (no full replay: --no-full-replay); chips {with_cp[4]}")


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", choices=sorted(FILL), default="blackjack")
    parser.add_argument("--chips", type=int, help="each seat's starting chips")
    parser.add_argument("--long", type=int, metavar="N", help="one table of N rounds instead")
    parser.add_argument(
        "--no-full-replay",
        action="store_true",
        help="with --long: recover from the checkpoint only (a full replay of a million rounds"
        " takes tens of minutes)",
    )
    parser.add_argument("--checkpoint-every", type=int, default=ServerLimits().checkpoint_every)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.tables = 20
    if args.long is not None:
        long_table(args.long, args.game, args.checkpoint_every, not args.no_full_replay)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.db"
        played, live_chips = trio.run(live, path, args.tables, args.rounds, args.game, args.chips)
        peak_live = peak_rss_mb()
        rounds = crash(path)
        size = path.stat().st_size + Path(f"{path}-wal").stat().st_size
        took, (pinged, slowest), recovered_chips = trio.run(recover, path, args.tables)
        peak_recovered = peak_rss_mb()
    if recovered_chips != live_chips:
        sys.exit("recovered tables ended with other chips than the live ones")
    tables = args.tables
    print(
        f"{tables:,} {args.game} tables of 2 strategies, {args.rounds} rounds each "
        f"({rounds:,} settled rounds, journal {size / 1e6:.1f} MB with its WAL)"
    )
    for what, (wall, cpu) in (("live play", played), ("recovery", took)):
        print(
            f"  {what:<10} {wall:8.2f} s ({cpu:7.2f} s CPU)  {wall / tables * 1e3:7.3f} ms/table"
            f"  {wall / rounds * 1e6:7.1f} us/round"
        )
    print(f"  recovery / live: {took[0] / played[0]:.3f} wall, {took[1] / played[1]:.3f} CPU")
    print(
        f"  recovery: first ping answered {pinged:.3f} s after the start, slowest ping"
        f" meanwhile {slowest * 1e3:.1f} ms"
    )
    print(f"  all {len(recovered_chips):,} tables ended with the live run's results")
    print(
        f"  peak resident memory: {peak_live:.0f} MB after live play,"
        f" {peak_recovered:.0f} MB after recovery"
    )


if __name__ == "__main__":
    main()
