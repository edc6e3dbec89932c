"""Hands/s of a server table with 4 TCP bots, against the same table with 4 in-process
strategies (the engine's GameTable, the limit the network path is measured against).

Run: ``.venv/bin/python benchmarks/tables_tcp.py [--rounds 2000]``

The server runs in its own subprocess (``croupier serve``'s Server, seed fixed); the four
bots are SDK bots playing lim17 in this process, each on its own TCP connection, seated
at one vegas-s17 table; the table's time runs from its ``playing`` status to ``finished``.
The in-process run plays the same seed and rounds with ``lim17`` in every seat, with one
listener taking every plain event (what the server notifies), and each strategy asked
through the decision clock (a task per decision, as a remote bot is asked), so the
ratio is the cost of the wire: a ``decide`` round trip per decision plus the events.

The TCP run is made twice: as the SDK plays now (lim17 asks for no events and leaves the
bet, insurance and surrender phases to the server: ``events: false`` and ``auto`` at
``table.join``), and as every bot played before those options (every event sent to every
bot, a round trip for every decision, bets included), the "before" figure.
Every run ends with the same chips (checked), since they play the same cards the same way.

``--journal``: a second server runs, with a SQLite journal (a temporary file) instead of
none, and the SDK bots play the same table on both in turn (``--repeat`` times); its
hands/s is printed as a ratio to the server without a journal (issue 19: at most 15% less).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import trio

from croupier.clients.bot import Bot, play
from croupier.engine import PluginManager
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.plugins.blackjack.game import blackjack_game, game_strategy
from croupier.plugins.blackjack.play import Observation
from croupier.plugins.blackjack.strategy import local_strategy
from croupier.protocol import Server, connect
from croupier.protocol.journal import open_journal

SEATS = 4
SEED = 2024


def lim17(observation: Observation) -> str:
    return "hit" if observation.total < 17 else "stand"


class Lim17(Bot):
    name = "lim17"

    def decide(self, observation: Observation) -> str:
        return lim17(observation)


class EveryEvent(Lim17):
    """lim17 as bots played before the join options: every event, every decision asked."""

    def join_options(self) -> tuple[bool, list[str]]:
        return True, []


async def serve(data: str) -> None:
    server = Server(
        PluginManager(autoload=False), default_game="blackjack", seed=1, journal=open_journal(data)
    )
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        print(port, flush=True)


async def over_tcp(port: int, rounds: int, make: type[Bot]) -> tuple[float, list[int]]:
    marks: dict[str, float] = {}

    async def status(method: str, params: Any) -> None:
        if method == "table.status":
            marks[params[1]["state"]] = time.perf_counter()

    async with connect("127.0.0.1", port, name="bench", on_notification=status) as client:
        info = await client.call_named(
            "table.create", {"seats": SEATS, "rounds": rounds, "seed": SEED}
        )
        await client.call("table.watch", info["table"])
        finals: list[dict[str, Any]] = []

        async def bot() -> None:
            finals.append(await play(make(), "127.0.0.1", port, table=info["table"], name="b"))

        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(bot)
    return marks["finished"] - marks["playing"], finals[0]["chips"]


class Clocked:
    """A strategy seen only through ``async decide``: the table asks it through the
    decision clock, as it asks a remote bot."""

    def __init__(self, inner: GameStrategyPlayer) -> None:
        self.inner = inner

    async def decide(self, observation: dict[str, Any]) -> dict[str, Any]:
        return await self.inner.decide(observation)


async def in_process(rounds: int) -> tuple[float, list[int]]:
    manager = PluginManager(autoload=False)
    strategy = local_strategy(manager, "lim17", manager.rule_sets.get("vegas-s17").rules)
    rules = manager.rule_sets.get("vegas-s17").rules
    sink: list[dict[str, Any]] = []

    def listener(event: dict[str, Any]) -> None:
        sink.append(event)
        if len(sink) > 10_000:
            sink.clear()

    seats = [Clocked(GameStrategyPlayer(game_strategy(strategy))) for _ in range(SEATS)]
    table = GameTable(blackjack_game(manager), rules.to_dict(), SEED, seats, listeners=[listener])
    start = time.perf_counter()
    for _ in range(rounds):
        await table.play_round()
        await trio.sleep(0)  # as the server's table does between rounds
    elapsed = time.perf_counter() - start
    balances = table.ledger.balances
    return elapsed, [balances[f"seat-{i + 1}"] for i in range(SEATS)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument(
        "--journal", action="store_true", help="also a server with a journal, same tables"
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --journal: runs of each")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 30
    if args.serve:
        trio.run(serve, args.serve)
        return
    folder = tempfile.TemporaryDirectory()
    child, port = start(":memory:")
    journaled, journaled_port = (
        start(os.path.join(folder.name, "j.db"))
        if args.journal
        else (
            None,
            0,
        )
    )
    try:
        tcp, tcp_chips = trio.run(over_tcp, port, args.rounds, Lim17)
        old, old_chips = trio.run(over_tcp, port, args.rounds, EveryEvent)
        pairs = []
        for _ in range(args.repeat if journaled is not None else 0):
            plain, _ = trio.run(over_tcp, port, args.rounds, Lim17)
            kept, kept_chips = trio.run(over_tcp, journaled_port, args.rounds, Lim17)
            assert kept_chips == tcp_chips, (kept_chips, tcp_chips)
            pairs.append((plain, kept))
    finally:
        for proc in (child, journaled):
            if proc is not None:
                proc.terminate()
                proc.wait()
        folder.cleanup()
    local, local_chips = trio.run(in_process, args.rounds)
    assert tcp_chips == local_chips == old_chips, (tcp_chips, local_chips, old_chips)
    print(f"table of {SEATS} seats, vegas-s17, lim17 everywhere, {args.rounds} rounds, seed {SEED}")
    print(f"  4 TCP bots (SDK)          {args.rounds / tcp:9.0f} rounds/s  "
          f"{SEATS * args.rounds / tcp:9.0f} hands/s")  # fmt: skip
    print(f"  4 TCP bots, before (all)  {args.rounds / old:9.0f} rounds/s  "
          f"{SEATS * args.rounds / old:9.0f} hands/s")  # fmt: skip
    print(f"  4 in-process strategies   {args.rounds / local:9.0f} rounds/s  "
          f"{SEATS * args.rounds / local:9.0f} hands/s")  # fmt: skip
    print(f"  ratio TCP / in-process    {local / tcp:9.3f}   (before: {local / old:.3f})")
    print(f"  speed-up over before      {old / tcp:9.2f}x")
    print(f"  same chips both ways: {tcp_chips}")
    for plain, kept in pairs:
        print(
            f"  journal: {SEATS * args.rounds / kept:9.0f} hands/s, without "
            f"{SEATS * args.rounds / plain:9.0f}: ratio {plain / kept:.3f}"
        )
    if pairs:
        ratios = [plain / kept for plain, kept in pairs]
        print(f"  with a journal / without, hands/s (median): {statistics.median(ratios):.3f}")


def start(data: str) -> tuple[subprocess.Popen[str], int]:
    """A server subprocess with the journal ``data`` (``:memory:``: none); its port."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", data], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    return child, int(child.stdout.readline())


if __name__ == "__main__":
    main()
