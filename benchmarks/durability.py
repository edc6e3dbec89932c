"""What a crash can lose, measured: the answer-to-commit delay of ``table.create`` and the
window of settled rounds at risk while a table plays flat out, with the journal's cost in
hands/s against the journal-less server in the same run.

Run: ``.venv/bin/python benchmarks/durability.py [--rounds 20000] [--seats 1] [--creates 50]``
or, for the kill benchmark (:mod:`durability_kills`), ``.venv/bin/python
benchmarks/durability.py --kills 50 [--seed 1]``

Three servers in this process, one after the other, each playing one table of ``--seats``
lim17 seats as fast as it can deal (chips enough for every round): no journal
(``--data :memory:``), a journal (WAL, ``synchronous = NORMAL``), and a journal with
``--sync`` (each round committed, ``synchronous = FULL``, before the next is dealt).
While the table plays, a client creates ``--creates`` small tables (one every 20 ms) and
times each answer; at the answer it is checked that the journal had committed every write
queued before it (``late`` counts those it had not: 0 is the promise).

For every settled round the time from its settling (its row queued) to the commit that
holds it is taken from the writer's own counters: its largest value is the window a
SIGKILL can lose, in time and in rounds (the rounds settled in that time). Each commit's
own time (the writer's transaction, from its first row to its ``COMMIT``) is reported
beside it: the bound is the keeping-up window plus a round plus two commits. The process's
CPU time per round (every thread) is the steadier measure of the journal's cost on a machine
shared with other work; rounds/s swings with the machine's load.
"""

from __future__ import annotations

import argparse
import bisect
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.journal import Journal, NullJournal
from croupier.protocol.tables import TableService


class Probe:
    """Each settled round's write number and time, and each commit's count and time."""

    def __init__(self, journal: Journal) -> None:
        self.rounds: list[tuple[int, float]] = []
        self.commits: list[tuple[int, float]] = []
        self.transactions: list[float] = []
        """Each commit's own time, from its first row to its ``COMMIT``."""
        writer = journal.writer
        put_round, committed = journal.table_round, writer._committed
        transaction = writer._transaction

        def timed(writes: Any) -> None:
            began = time.perf_counter()
            transaction(writes)
            self.transactions.append(time.perf_counter() - began)

        def table_round(table: int, round_: int, chips: list[int]) -> None:
            put_round(table, round_, chips)
            self.rounds.append((writer.queued, time.perf_counter()))

        def on_commit(count: int) -> None:  # noted before the waiters are woken
            self.commits.append((writer.done + count, time.perf_counter()))
            committed(count)

        journal.table_round = table_round  # type: ignore[method-assign]
        writer._committed = on_commit  # type: ignore[method-assign]
        writer._transaction = timed  # type: ignore[method-assign]

    def at_risk(self) -> int:
        """The most rounds settled and not yet committed at any round's settling."""
        done = [n for n, _ in self.commits]
        settled = [when for _, when in self.rounds]
        committed = sorted(
            self.commits[at][1]
            for number, _ in self.rounds
            if (at := bisect.bisect_left(done, number)) < len(done)
        )
        return max(
            (i + 1 - bisect.bisect_right(committed, when) for i, when in enumerate(settled)),
            default=0,
        )

    def delays(self) -> list[float]:
        """Per settled round, seconds from its settling to the commit holding it."""
        done = [n for n, _ in self.commits]
        out = []
        for number, settled in self.rounds:
            at = bisect.bisect_left(done, number)
            if at < len(done):
                out.append(self.commits[at][1] - settled)
        return out


async def run(
    path: Path | None, sync: bool, rounds: int, seats: int, creates: int
) -> dict[str, Any]:
    journal: NullJournal
    if path is None:
        journal = NullJournal()
    else:
        journal = Journal(str(path), "FULL" if sync else "NORMAL", sync_rounds=sync)
    probe = Probe(journal) if isinstance(journal, Journal) else None
    server = Server(
        PluginManager(autoload=False), seed=1, journal=journal, default_game="blackjack"
    )
    (service,) = [s for s in server.services if isinstance(s, TableService)]
    answers: list[float] = []
    late = 0
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
            start, cpu = time.perf_counter(), time.process_time()
            table = service.tables[created["table"]]
            for _ in range(creates):
                if table.done.is_set():
                    break
                asked = time.perf_counter()
                small = await client.call_named(
                    "table.create", {"seats": 1, "fill": [None], "decision_time": 5.0}
                )
                answers.append(time.perf_counter() - asked)
                if isinstance(journal, Journal) and journal.writer.done < journal.writer.queued:
                    # rows queued after the answer (the big table's rounds) are fine; the
                    # small table's row must be in: read it back from the file
                    found = await journal.read(
                        lambda c, t=small["table"]: c.execute(
                            "SELECT count(*) FROM tables WHERE id = ?", (t,)
                        ).fetchone()[0]
                    )
                    late += found == 0
                await client.call("table.stop", small["table"], small["key"])  # the quota
                await trio.sleep(0.02)
            await table.done.wait()
            played = time.perf_counter() - start
            cpu = time.process_time() - cpu
        nursery.cancel_scope.cancel()
    await journal.aclose()
    out: dict[str, Any] = {
        "rate": rounds / played,
        "cpu": cpu / rounds,
        "answers": answers,
        "late": late,
    }
    if probe is not None:
        out["delays"] = probe.delays()
        out["at_risk"] = probe.at_risk()
        out["transactions"] = probe.transactions
    return out


def show(name: str, got: dict[str, Any], base: dict[str, Any]) -> None:
    answers = sorted(got["answers"])
    line = (
        f"{name:<16} {got['rate']:>6,.0f} rounds/s ({got['rate'] / base['rate']:.2f} of no"
        f" journal), CPU {1e6 * got['cpu']:.0f} us/round ({got['cpu'] / base['cpu']:.2f});"
        f" table.create answered in median {1000 * statistics.median(answers):.1f} ms,"
        f" max {1000 * answers[-1]:.1f} ms"
    )
    print(line)
    if "delays" in got:
        delays = sorted(got["delays"])
        worst = delays[-1]
        p99 = delays[int(0.99 * (len(delays) - 1))]
        print(
            f"{'':<16} settled round to commit: median {1000 * statistics.median(delays):.1f} ms,"
            f" p99 {1000 * p99:.1f} ms, max {1000 * worst:.1f} ms"
            f"; at most {got['at_risk']} rounds settled and not committed; creates answered"
            " before their"
            f" commit: {got['late']}"
        )
        took = sorted(got["transactions"])
        print(
            f"{'':<16} {len(took)} commits, each (its transaction): median"
            f" {1000 * statistics.median(took):.1f} ms, p99"
            f" {1000 * took[int(0.99 * (len(took) - 1))]:.1f} ms, max {1000 * took[-1]:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--creates", type=int, default=50)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    parser.add_argument("--kills", type=int, default=0, help="the kill benchmark: N SIGKILLs")
    parser.add_argument("--seed", type=int, default=1, help="the kill moments' seed")
    args = parser.parse_args()
    if args.kills:
        from durability_kills import kills_main  # beside this script (first on sys.path)

        kills_main(args.kills, args.seed)
        return
    if args.smoke:
        args.rounds, args.creates = 300, 3
    with tempfile.TemporaryDirectory() as folder:
        common = (args.rounds, args.seats, args.creates)
        none = trio.run(run, None, False, *common)
        normal = trio.run(run, Path(folder) / "normal.db", False, *common)
        synced = trio.run(run, Path(folder) / "sync.db", True, *common)
    print(f"one table of {args.seats} lim17 seats, {args.rounds:,} rounds, flat out")
    show("no journal", none, none)
    show("journal", normal, none)
    show("journal --sync", synced, none)


if __name__ == "__main__":
    main()
