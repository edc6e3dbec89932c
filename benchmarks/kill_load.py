"""The kill benchmark's load, and the same load played uninterrupted in this process for
the figures a killed server must end with (``benchmarks/durability.py --kills``): tables of
two lim17 seats, tables of two TCP bots of the SDK, a tournament of strategies."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

import trio
from kill_stamps import Stamps  # beside this script (first on sys.path)

from croupier.clients.bot import play
from croupier.clients.bot.samples import Lim17
from croupier.engine import CroupierError, PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.tables import TableService

KILL_TABLES = 40
"""Tables of strategies the client creates during a kill run, one after another."""
KILL_ROUNDS = 300
BOT_TABLES = 8
"""Tables of two TCP bots (the SDK's, in this process), one started every few strategy tables."""
BOT_ROUNDS = 150
OPEN_TABLES, OPEN_BOT_TABLES = 4, 2
"""At most this many of each open at once: one address may have 8 tables open (the
peer quota); the uninterrupted run plays them one after another."""
TOURNAMENT = {
    "bots": ["lim17", "never-bust", "mimic-dealer", "lim17"],
    "tourneys": 40,
    "rounds": 4,
    "hands": 3,
    "seed": 5,
}


def table_params(seed: int) -> dict[str, Any]:
    return {"seats": 2, "fill": ["lim17"] * 2, "rounds": KILL_ROUNDS, "seed": seed}


def bot_table_params(seed: int) -> dict[str, Any]:
    return {
        "seats": 2,
        "fill": [None, None],
        "rounds": BOT_ROUNDS,
        "seed": 1000 + seed,
        "decision_time": 10.0,
    }


class Counting(Lim17):
    """Lim17 noting, per table, the last round it saw settled (its ``end`` event)."""

    def __init__(self, seen: dict[int, int], stamps: Stamps | None = None) -> None:
        super().__init__()
        self.seen = seen
        self.stamps = stamps
        self.table = 0
        self.run = 0
        """The server run it last sat down at (its events stamped only while that runs)."""

    def on_table(self, info: dict[str, Any]) -> None:
        self.table = info["table"]
        if self.stamps is not None:
            self.run = self.stamps.run

    def on_event(self, event: Any) -> None:
        if event.kind == "end":
            self.seen[self.table] = max(self.seen.get(self.table, 0), event.round)
            if self.stamps is not None and self.run == self.stamps.run:
                self.stamps.saw(self.table, event.round)


async def bot_table(
    port: int,
    seed: int,
    seen: dict[int, int],
    on_table: Callable[[int], None],
    stamps: Stamps | None = None,
    restarts: list[str] | None = None,
) -> list[list[int]]:
    """Two Counting bots at a table the first creates (reconnecting and rejoining with their
    tokens across restarts for as long as it takes); the chips each was told at the end.

    A bot whose connection is lost before it has a seat has nothing to take back and gives
    up (the SDK's rule: it cannot know whether its ``table.create`` or ``table.join`` was
    done); it is started again here, the reason noted in ``restarts``: a creator creates
    another table of the same seed (the one it lost, if any, waits for bots that never
    come), a joiner joins its table."""
    finals: list[list[int]] = []
    made = trio.Event()
    table: list[int] = []

    def seated(info: dict[str, Any]) -> None:
        if not table:
            table.append(info["table"])
            on_table(info["table"])
            made.set()

    def quiet(reason: str, delay: float, resuming: bool) -> None:
        pass

    async def again(name: str, sit: Callable[[Callable[[dict[str, Any]], None]], Any]) -> None:
        sat: list[bool] = []  # this start of the bot has a seat
        while True:
            sat.clear()
            try:
                final = await sit(lambda info: sat.append(True))
            except CroupierError as exc:
                if sat or restarts is None:
                    raise
                restarts.append(f"{name}: {exc}")
                await trio.sleep(0.2)
                continue
            finals.append(final["chips"])
            return

    async def creator() -> None:
        async def sit(sat: Callable[[dict[str, Any]], None]) -> Any:
            def both(info: dict[str, Any]) -> None:
                sat(info)
                seated(info)

            return await play(
                Counting(seen, stamps), "127.0.0.1", port, create=bot_table_params(seed),
                seat=1, name=f"bot-{seed}-a", reconnect=10_000, on_seated=both, on_retry=quiet,
            )  # fmt: skip

        await again(f"bot-{seed}-a", sit)

    async def joiner() -> None:
        await made.wait()

        async def sit(sat: Callable[[dict[str, Any]], None]) -> Any:
            return await play(
                Counting(seen, stamps), "127.0.0.1", port, table=table[0], seat=2,
                name=f"bot-{seed}-b", reconnect=10_000, on_seated=sat, on_retry=quiet,
            )  # fmt: skip

        await again(f"bot-{seed}-b", sit)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(creator)
        nursery.start_soon(joiner)
    return finals


def described(exc: BaseException) -> str:
    """What ended a bot's play, in full for the report: a group's own text says only how
    many errors it holds, its traceback says which and where."""
    return "".join(traceback.format_exception(exc)).rstrip()


def bot_seed_after(table_seed: int) -> int | None:
    """The bot table started after strategy table ``table_seed`` is created, if any."""
    every = KILL_TABLES // BOT_TABLES
    return table_seed // every if table_seed % every == 0 else None


async def reference() -> tuple[dict[int, list[int]], dict[int, list[int]], Any]:
    """Each table's final chips (by seed), strategies' and bots', and the tournament's
    standings, uninterrupted."""
    server = Server(PluginManager(autoload=False), seed=1, default_game="blackjack")
    (service,) = [s for s in server.services if isinstance(s, TableService)]
    chips: dict[int, list[int]] = {}
    bots: dict[int, list[int]] = {}

    async def one_bot_table(port: int, seed: int) -> None:
        finals = await bot_table(port, seed, {}, lambda table: None)
        assert finals[0] == finals[1], finals
        bots[seed] = finals[0]

    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        async with connect("127.0.0.1", port, name="ref") as client, trio.open_nursery() as tcp:
            info = await client.call_named("tournament.start", TOURNAMENT)
            for seed in range(1, KILL_TABLES + 1):
                made = await client.call_named("table.create", table_params(seed))
                if (bot_seed := bot_seed_after(seed)) is not None:
                    tcp.start_soon(one_bot_table, port, bot_seed)
                await service.tables[made["table"]].done.wait()
                chips[seed] = service.tables[made["table"]].info()["chips"]
            while (found := await client.call("tournament.info", info["tournament"]))[
                "state"
            ] != "finished":
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    return chips, bots, found["result"]
