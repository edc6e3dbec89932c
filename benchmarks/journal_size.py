"""The journal's size and cost per round: bytes per 4-seat round on disk with settled rounds
packed (blocks of rounds, schema 7) and as JSON (as before schema 5), and hands/s against no
journal, same run.

Run: ``.venv/bin/python benchmarks/journal_size.py [--rounds 5000] [--seats 4] [--repeat 3]``

Three servers in this process, one after the other, ``--repeat`` times in turn, each playing
one table of ``--seats`` lim17 seats as fast as it can deal (seed fixed, chips enough for
every round): no journal (``--data :memory:``), a journal writing rounds as JSON text
(``Journal(compact=False)``, the encoding of schema 4 and before), and the default journal
(packed rows). For the journals: the file's bytes per settled round once the server has
closed it (the WAL checkpointed into it; the dictionaries included), the same beyond an
empty journal's bytes (every table and index of the schema takes a page: about 160 kB, 16
bytes a round of 10,000, whatever the rounds), and the rows' own
bytes (``data`` and ``chips``), and how many rounds a row holds (the writer packs a table's
rounds that one commit writes into one block). The CPU time per round (every thread's, and
the journal's writer thread's own: it packs and writes the rows) is the steadier measure of
the cost on a shared machine, and the event loop's own (the table's thread: what the journal
costs the table itself, while the writer packs and compresses beside it); every run ends with
the same chips (checked).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.journal import Journal, NullJournal, schema
from croupier.protocol.tables import TableService


async def play(journal: NullJournal, rounds: int, seats: int) -> dict[str, Any]:
    server = Server(
        PluginManager(autoload=False), seed=1, journal=journal, default_game="blackjack"
    )
    (service,) = [s for s in server.services if isinstance(s, TableService)]
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        async with connect("127.0.0.1", port, name="bench") as client:
            created = await client.call_named(
                "table.create",
                {
                    "seats": seats,
                    "fill": ["lim17"] * seats,
                    "rounds": rounds,
                    "seed": 7,
                    "options": {"starting_chips": 10**12},
                },
            )
            table = service.tables[created["table"]]
            start, cpu = time.perf_counter(), time.process_time()
            loop = time.thread_time()
            await table.done.wait()
            played = time.perf_counter() - start
            cpu = time.process_time() - cpu
            loop = time.thread_time() - loop
            final = table.info()
        nursery.cancel_scope.cancel()
    writer = getattr(journal, "writer", None)
    await journal.aclose()
    return {
        "rate": rounds / played,
        "cpu": cpu / rounds,
        "loop": loop / rounds,
        "writer": 0.0 if writer is None else writer.cpu / rounds,
        "chips": final["chips"],
    }


def measure(path: Path, rounds: int, empty: int) -> tuple[float, float, float, float]:
    """Bytes per round: the file's (closed: no WAL left), the file's beyond an ``empty``
    journal's bytes (its tables' first pages) and the rows' own; rounds per row."""
    with sqlite3.connect(path) as conn:
        size, count = conn.execute(
            "SELECT sum(length(data) + coalesce(length(chips), 0)), count(*) FROM events"
        ).fetchone()
    disk = path.stat().st_size
    return disk / rounds, (disk - empty) / rounds, size / rounds, rounds / count


def empty_size(path: Path) -> int:
    """Bytes of a journal with nothing in it (every table and index takes a page)."""
    Journal(str(path)).close()
    return path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5_000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--page-sizes",
        default=f"{schema.PAGE_SIZE}",
        help="the packed journal at each of these page sizes, comma-separated (e.g. 8192,2048:"
        " the old and the new in the same run)",
    )
    parser.add_argument(
        "--smoke", action="store_true", help="a tiny run, for CI to see it still runs"
    )
    args = parser.parse_args()
    if args.smoke:  # its figures mean nothing
        args.rounds, args.repeat = 300, 1
    page_sizes = [int(size) for size in args.page_sizes.split(",")]
    runs: dict[str, list[dict[str, Any]]] = {"none": [], "json": []}
    runs.update({f"packed {size}": [] for size in page_sizes})
    sizes: dict[str, tuple[float, float, float, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        empties = {}
        for size in page_sizes:
            schema.PAGE_SIZE = size
            empties[size] = empty_size(Path(folder) / f"empty-{size}.db")
        for repeat in range(args.repeat):
            for name in runs:
                path = Path(folder) / f"{name.replace(' ', '-')}-{repeat}.db"
                packed = name.startswith("packed")
                schema.PAGE_SIZE = int(name.split()[1]) if packed else page_sizes[0]
                journal: NullJournal = (
                    NullJournal() if name == "none" else Journal(str(path), compact=packed)
                )
                runs[name].append(trio.run(play, journal, args.rounds, args.seats))
                if name != "none":
                    sizes[name] = measure(path, args.rounds, empties[schema.PAGE_SIZE])
    chips = {str(run["chips"]) for every in runs.values() for run in every}
    assert len(chips) == 1, f"the runs ended with different chips: {chips}"
    print(
        f"one table of {args.seats} lim17 seats, {args.rounds:,} rounds flat out,"
        f" {args.repeat} runs of each (medians)"
    )
    base = runs["none"]
    labels = {"none": "no journal", "json": "journal, JSON rows"}
    for name in runs:
        label = labels.get(name) or f"packed, {name.split()[1]} B pages"
        rate = statistics.median(r["rate"] for r in runs[name])
        cpu = statistics.median(r["cpu"] for r in runs[name])
        ratios = [r["rate"] / b["rate"] for r, b in zip(runs[name], base, strict=True)]
        line = (
            f"{label:<20} {rate:>7,.0f} hands/s ({statistics.median(ratios):.2f} of no journal,"
            f" runs {', '.join(f'{x:.2f}' for x in ratios)}), CPU {1e6 * cpu:.0f} us/round"
            f" ({cpu / statistics.median(b['cpu'] for b in base):.2f}),"
            f" the event loop's {1e6 * statistics.median(r['loop'] for r in runs[name]):.0f}"
        )
        if name != "none":
            writer = statistics.median(r["writer"] for r in runs[name])
            line += f", the writer thread's {1e6 * writer:.0f}"
        if name in sizes:
            disk, beyond, rows, per_row = sizes[name]
            line += (
                f"; {disk:,.0f} bytes/round on disk ({beyond:,.0f} beyond an empty journal),"
                f" rows {rows:,.0f} ({per_row:.1f} rounds/row)"
            )
        print(line)


if __name__ == "__main__":
    main()
