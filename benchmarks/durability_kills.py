"""The kill benchmark (``benchmarks/durability.py --kills N [--seed S]``): a real ``croupier
serve --data`` under mixed load, SIGKILLed at ``N`` seeded random moments and restarted each
time, against the same load played uninterrupted in this process.

The load (:mod:`kill_load`): a client creating tables of two lim17 seats, each with its own
seed, at most four open at once; tables of two TCP bots of the SDK, in this process, that
reconnect and take their seats back with their tokens after each restart; a tournament of
strategies; a watcher on every table. Each table's creator, and the tournament's, keeps its
connection until the table ends or the server is killed (a kill is not its creator leaving,
so the restarted server plays it to its end as the uninterrupted one does, however slowly
the loaded machine deals).

Reported: the objects whose create was answered and that the restarted server does not know
(goal: 0); per kill, the most settled rounds at one table that the killed server had settled
and its journal did not hold (read while the server is down: the rounds dealt again after
recovery), and how old the first of them was at the kill (:mod:`kill_stamps`: timed when a
watcher or bot saw it settle, else bounded by when its table's watch began), against
``BOUND_MS``; each table's final chips (the journal's, and what its bots were told) and the
tournament's standings against the uninterrupted run (goal: identical), each table that
differs listed with its reason and rounds, and what ended a bot's play if anything did.
"""

from __future__ import annotations

import collections
import contextlib
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from kill_load import (  # beside this script (first on sys.path)
    BOT_ROUNDS,
    BOT_TABLES,
    KILL_ROUNDS,
    KILL_TABLES,
    OPEN_BOT_TABLES,
    OPEN_TABLES,
    TOURNAMENT,
    bot_seed_after,
    bot_table,
    described,
    reference,
    table_params,
)
from kill_server import Killed, call_retrying
from kill_stamps import Stamps, Window

from croupier.protocol import Code, RpcError, connect

BOUND_MS = 100
"""The window docs/journal.md promises: a settled round is committed within it."""


class KillRun:
    """The load on a server that is killed and restarted, and what each kill lost."""

    def __init__(self, server: Killed) -> None:
        self.server = server
        self.acknowledged: dict[int, int] = {}  # strategy table id -> its seed
        self.bot_tables: dict[int, int] = {}  # bot table id -> its seed
        self.bot_chips: dict[int, Any] = {}  # bot table seed -> what its bots were told
        self.bot_errors: dict[int, str] = {}  # bot table seed -> what ended its bots' play
        self.restarts: list[str] = []  # bots that lost their connection before their seat
        self.seen: dict[int, int] = {}  # table id -> the last round a watcher or bot saw
        self.tournament: list[int] = []
        self.creating_done = trio.Event()
        self.stamps = Stamps()
        self.strategy_slots = trio.Semaphore(OPEN_TABLES)
        self.bot_slots = trio.Semaphore(OPEN_BOT_TABLES)

    def noted(self, run: int) -> Any:
        """A notification handler for a connection to server run ``run``."""

        def note(method: str, params: Any) -> None:
            if method == "table.event" and isinstance(params, list) and len(params) == 2:
                table, event = params
                if isinstance(event, dict) and event.get("kind") == "end":
                    self.seen[table] = max(self.seen.get(table, 0), event["round"])
                    if run == self.stamps.run:
                        self.stamps.saw(table, event["round"])

        return note

    async def one_bot_table(self, seed: int) -> None:
        def noted(table: int) -> None:
            self.bot_tables[table] = seed

        async with self.bot_slots:
            try:
                self.bot_chips[seed] = await bot_table(
                    self.server.port, seed, self.seen, noted, self.stamps, self.restarts
                )
            except Exception as exc:  # a seat lost (its token refused, ...): a defect
                self.bot_chips[seed] = f"{type(exc).__name__}: {exc}"
                self.bot_errors[seed] = described(exc)

    async def strategy_table(self, seed: int) -> None:
        """Create the table on a connection that watches it at once and stays until the
        table ends or the server is killed; then wait for its end from outside."""
        table = None
        with contextlib.suppress(Exception):  # the server killed meanwhile
            run = self.stamps.run
            async with connect(
                "127.0.0.1", self.server.port, name="owner", on_notification=self.noted(run)
            ) as owner:
                sent = time.monotonic()
                made = await owner.call_named("table.create", table_params(seed))
                table = made["table"]
                self.acknowledged[table] = seed
                info = await owner.call("table.watch", table)
                if run == self.stamps.run:
                    self.stamps.watched(table, info["played"], since=sent)
                while info["state"] != "finished":
                    await trio.sleep(0.2)
                    info = await owner.call("table.info", table)
        if table is None:  # not answered: ask on a connection of its own, as before
            made = await call_retrying(self.server, "table.create", table_params(seed))
            table = made["table"]
            self.acknowledged[table] = seed
        while (await call_retrying(self.server, "history.table", {"table": table}))[
            "state"
        ] != "finished":
            await trio.sleep(0.2)
        self.strategy_slots.release()

    async def tournament_creator(self) -> None:
        """Start the tournament on a connection kept until it ends or the server is killed."""
        with contextlib.suppress(Exception):
            async with connect("127.0.0.1", self.server.port, name="organizer") as organizer:
                info = await organizer.call_named("tournament.start", TOURNAMENT)
                self.tournament.append(info["tournament"])
                while info["state"] != "finished":
                    await trio.sleep(0.2)
                    info = await organizer.call("tournament.info", info["tournament"])
        if not self.tournament:
            info = await call_retrying(self.server, "tournament.start", TOURNAMENT)
            self.tournament.append(info["tournament"])

    async def create_load(self, tcp: trio.Nursery) -> None:
        tcp.start_soon(self.tournament_creator)
        for table_seed in range(1, KILL_TABLES + 1):
            await self.strategy_slots.acquire()
            known = len(self.acknowledged)
            tcp.start_soon(self.strategy_table, table_seed)
            while len(self.acknowledged) == known:  # created, in this order
                await trio.sleep(0.01)
            if (bot_seed := bot_seed_after(table_seed)) is not None:
                await self.bot_slots.acquire()  # a slot free before going on, then let go
                self.bot_slots.release()
                tcp.start_soon(self.one_bot_table, bot_seed)
            await trio.sleep(0.05)
        while not self.tournament:
            await trio.sleep(0.05)
        self.creating_done.set()

    async def watch(self) -> None:
        """A watcher on every table there is, across kills (back as soon as it can be)."""
        while True:
            with contextlib.suppress(Exception):
                run = self.stamps.run
                async with connect(
                    "127.0.0.1", self.server.port, name="w", role="watcher",
                    on_notification=self.noted(run),
                ) as w:  # fmt: skip
                    watching: set[int] = set()
                    while True:
                        waiting = False
                        for table in [*self.acknowledged, *self.bot_tables]:
                            if table in watching:
                                continue
                            try:
                                info = await w.call("table.watch", table)
                                watching.add(table)
                                if run == self.stamps.run:
                                    self.stamps.watched(table, info["played"])
                            except RpcError as exc:
                                if exc.code != Code.RECOVERING:
                                    watching.add(table)  # finished, or not there: no more
                                waiting = waiting or exc.code == Code.RECOVERING
                        await w.call("ping")  # fails once the server is killed
                        await trio.sleep(0.005 if waiting else 0.05)
            await trio.sleep(0.02)

    async def kills(self, kills: int, seed: int) -> tuple[list[int], list[Window], list[int]]:
        """Kill and restart the server ``kills`` times at seeded moments: per kill the most
        rounds lost at one table, the oldest loss, and the settled rounds seen so far."""
        rng = random.Random(seed)
        counts, times, watched = [], [], []
        for _ in range(kills):
            await trio.sleep(rng.uniform(0.05, 1.0))
            killed = time.monotonic()
            self.server.kill()
            await trio.sleep(0.1)  # what was sent before the kill reaches its reader
            committed = self.server.committed()
            last = self.stamps.last
            counts.append(max((n - committed.get(t, 0) for t, n in last.items()), default=0))
            times.append(self.stamps.window(committed, killed))
            watched.append(sum(self.seen.values()))
            self.stamps.new_run(time.monotonic())
            await self.server.start()
        return counts, times, watched

    async def results(self) -> dict[str, Any]:
        """Once the load is done: what the journal says each table and the tournament ended
        with, and what the bots were told."""
        lost, chips, reasons = 0, {}, {}
        for table, table_seed in self.acknowledged.items():
            while True:
                try:
                    found = await call_retrying(self.server, "history.table", {"table": table})
                except RpcError:  # the journal has no such table: an acknowledged create lost
                    lost += 1
                    break
                if found["state"] == "finished":
                    chips[table_seed] = found["result"]["chips"]
                    reasons[table_seed] = f"{found['reason']} ({found['played']} rounds)"
                    break
                await trio.sleep(0.2)
        bots: dict[int, Any] = {seed: told for seed, told in self.bot_chips.items()}
        for table, table_seed in self.bot_tables.items():
            try:
                found = await call_retrying(self.server, "history.table", {"table": table})
            except RpcError:
                lost += 1
                continue
            with trio.move_on_after(60):  # its bots are done: it ends, or this says it did not
                while found["state"] != "finished":
                    await trio.sleep(0.2)
                    found = await call_retrying(self.server, "history.table", {"table": table})
            told = self.bot_chips.get(table_seed)
            reasons[-table_seed] = f"{found['reason']} ({found['played']} rounds)"
            if found["state"] != "finished":
                bots[table_seed] = f"still {found['state']} after its bots ended: {told}"
                continue
            kept = found["result"]["chips"]
            bots[table_seed] = kept if told == [kept, kept] else f"journal {kept}, bots told {told}"
        while True:
            found = await call_retrying(
                self.server, "tournament.info", {"tournament": self.tournament[0]}
            )
            if found["state"] == "finished":
                break
            await trio.sleep(0.2)
        return {
            "lost": lost,
            "acknowledged": len(self.acknowledged) + len(self.bot_tables) + 1,
            "chips": chips,
            "bots": bots,
            "bot_errors": self.bot_errors,
            "restarts": self.restarts,
            "standings": found["result"],
            "tournament": f"{found['reason']}",
            "reasons": reasons,
            "kinds": {
                **{t: "strategies" for t in self.acknowledged},
                **{t: "TCP bots" for t in self.bot_tables},
            },
        }


async def kill_run(kills: int, seed: int, folder: Path) -> dict[str, Any]:
    server = Killed(folder / "kills.db")
    await server.start()
    load = KillRun(server)
    load.stamps.new_run(server.spawned)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(load.watch)
        async with trio.open_nursery() as tcp:
            tcp.start_soon(load.create_load, tcp)
            counts, times, watched = await load.kills(kills, seed)
            await load.creating_done.wait()
        nursery.cancel_scope.cancel()
    got = await load.results()
    server.stop()
    return {**got, "counts": counts, "times": times, "watched": watched}


def kills_main(kills: int, seed: int) -> None:
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    chips, bots, standings = trio.run(reference)
    with tempfile.TemporaryDirectory() as folder:
        got = trio.run(kill_run, kills, seed, Path(folder))
    print(
        f"{kills} SIGKILLs (seed {seed}) under load: {KILL_TABLES} tables of 2 lim17 seats"
        f" ({KILL_ROUNDS} rounds each) created one after another, {BOT_TABLES} tables of 2"
        f" TCP bots (SDK Lim17, {BOT_ROUNDS} rounds, rejoining with their tokens), a"
        f" tournament of {len(TOURNAMENT['bots'])} strategies, a watcher on every table;"
        f" {time.perf_counter() - started:.0f} s, load average {load_before:.1f} at the start,"
        f" {os.getloadavg()[0]:.1f} at the end"
    )
    print(f"acknowledged objects lost: {got['lost']} of {got['acknowledged']}")
    show_windows(got, kills)
    show_results(got, chips, bots, standings)


def show_windows(got: dict[str, Any], kills: int) -> None:
    counts, watched = got["counts"], got["watched"]
    print(
        "settled rounds lost per kill (settled on the killed server, not in its journal, dealt"
        f" again): largest {max(counts, default=0)}, median"
        f" {statistics.median(counts) if counts else 0}, kills losing any:"
        f" {sum(c > 0 for c in counts)} of {kills} (settled rounds seen by the kills:"
        f" {watched[0] if watched else 0} at the first, {max(watched, default=0)} at the last)"
    )
    times: list[Window] = got["times"]
    timed = sorted(1000 * w.age for w in times if w.exact)
    worst = max((w for w in times if w.exact), default=None)
    line = (
        "the same in time (the kill's moment less the moment this process saw the first lost"
        f" round settle; {BOUND_MS} ms promised): kills timed {len(timed)} of {kills}"
    )
    if worst is not None:
        line += (
            f"; largest {1000 * worst.age:.0f} ms (table {worst.table},"
            f" {got['kinds'].get(worst.table, '?')}, {worst.lost} rounds at"
            f" {worst.rate:.0f} rounds/s), median {statistics.median(timed):.0f} ms, p90"
            f" {timed[int(0.9 * (len(timed) - 1))]:.0f} ms; beyond {BOUND_MS} ms:"
            f" {sum(m > BOUND_MS for m in timed)}"
        )
    print(line)
    unseen = [(n, w) for n, w in enumerate(times, 1) if not w.exact]
    if unseen:
        print(
            f"kills whose first lost round settled before its table's watch began (its age"
            f" between the watch's answer and the table's create or the server's start):"
            f" {len(unseen)}; beyond {BOUND_MS} ms for certain:"
            f" {sum(1000 * w.low > BOUND_MS for _, w in unseen)}"
        )
    for kill, w in enumerate(times, 1):
        if 1000 * w.age > BOUND_MS or (not w.exact and w.lost):
            when = (
                f"the first seen {1000 * w.age:.0f} ms before the kill"
                if w.exact
                else f"the first settled {1000 * w.low:.0f} to {1000 * w.age:.0f} ms before it"
            )
            print(
                f"  kill {kill}: table {w.table} ({got['kinds'].get(w.table, '?')}) lost"
                f" {w.lost} rounds, {when} ({w.rate:.0f} rounds/s seen)"
            )


def show_results(got: dict[str, Any], chips: Any, bots: Any, standings: Any) -> None:
    same = sum(got["chips"].get(s) == c for s, c in chips.items())
    same_bots = sum(got["bots"].get(s) == c for s, c in bots.items())
    print(f"strategy tables ending with the uninterrupted run's chips: {same} of {len(chips)}")
    print(f"bot tables ending with the uninterrupted run's chips: {same_bots} of {len(bots)}")
    print(
        f"tournament standings as uninterrupted: {got['standings'] == standings}"
        f" ({got['tournament']})"
    )
    for table_seed, final in sorted(chips.items()):
        if got["chips"].get(table_seed) != final:
            print(
                f"  table of seed {table_seed}: {got['chips'].get(table_seed)} against {final},"
                f" {got['reasons'].get(table_seed)}"
            )
    for table_seed, final in sorted(bots.items()):
        if got["bots"].get(table_seed) != final:
            print(
                f"  bot table {table_seed}: {got['bots'].get(table_seed)} against {final},"
                f" {got['reasons'].get(-table_seed)}"
            )
    if got["restarts"]:
        print(
            f"bots started again, their connection lost before they had a seat (the SDK gives"
            f" up then: nothing to take back): {len(got['restarts'])}"
        )
        for why, count in collections.Counter(got["restarts"]).most_common():
            print(f"  {count} x {why}")
    for table_seed, error in sorted(got["bot_errors"].items()):
        print(f"  bot table {table_seed}'s play ended in:\n    " + error.replace("\n", "\n    "))
