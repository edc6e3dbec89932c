"""How far behind its tables the journal falls: the writer thread's backlog while a table
of strategies plays flat out, against the writer's own promise (every write committed
within ``LINGER`` seconds).

Run: ``.venv/bin/python benchmarks/journal_lag.py [--rounds 20000] [--seats 4]``

One server in this process, with a journal (WAL, ``synchronous = NORMAL``) on a temporary
file, plays one table of ``--seats`` lim17 seats (chips enough for every round) as fast as
it can deal. Every 0.1 s the writer's queue is sampled; a queued write is a settled round's
row, so the backlog in seconds is the queue over the table's rounds/s. When the table
ends, the time until everything queued is committed is the journal's lag at the end: what a
crash then would lose. Printed: rounds/s, the largest backlog (writes and seconds), the lag
at the end, and both over ``LINGER``; a writer that keeps up holds them near 1.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.journal import Journal
from croupier.protocol.journal.writer import LINGER
from croupier.protocol.tables import TableService


async def measure(path: Path, rounds: int, seats: int) -> None:
    journal = Journal(str(path))
    server = Server(PluginManager(autoload=False), seed=1, journal=journal)
    (service,) = [s for s in server.services if isinstance(s, TableService)]
    writer = journal.writer
    backlog: list[int] = []
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)

        async def sample() -> None:
            while True:
                backlog.append(len(writer._queue))
                await trio.sleep(0.1)

        async with connect("127.0.0.1", port, name="bench") as client:
            created = await client.call_named(
                "table.create",
                {
                    "game": "blackjack",
                    "seats": seats,
                    "fill": ["lim17"] * seats,
                    "rounds": rounds,
                    "seed": 7,
                    "options": {"starting_chips": 10**12},
                },
            )
            nursery.start_soon(sample)
            start = time.perf_counter()
            await service.tables[created["table"]].done.wait()
            played = time.perf_counter() - start
            await journal.read(lambda conn: None)  # after every write queued so far
            lag = time.perf_counter() - start - played
        nursery.cancel_scope.cancel()
    await journal.aclose()
    rate = rounds / played
    most = max(backlog)
    print(f"{rounds:,} rounds of {seats} lim17 seats in {played:.1f} s: {rate:,.0f} rounds/s")
    print(
        f"  largest backlog {most:,} writes = {most / rate:.2f} s of play "
        f"({most / rate / LINGER:.1f} x LINGER {LINGER} s)"
    )
    print(f"  lag at the table's end {lag:.3f} s ({lag / LINGER:.1f} x LINGER)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 300
    with tempfile.TemporaryDirectory() as folder:
        trio.run(measure, Path(folder) / "journal.db", args.rounds, args.seats)


if __name__ == "__main__":
    main()
