"""Scoring keeps up with play? Decisions scored per second against decisions played per
second at one scored server table of 4 TCP bots, side by side in the same run.

Run: ``.venv/bin/python benchmarks/scoring_tcp.py [--game blackjack] [--rounds 60]
[--scoring-workers 1]``

A server subprocess (a SQLite journal in a temporary file, as a scored table's decisions
are journaled) seats 4 SDK bots, each on its own TCP connection, at a ``scored`` table
(blackjack: lim17 at vegas-s17; three-card-poker: always play). Printed, in wall-clock time:
the table's decisions played per second (its ``playing`` to ``finished`` status), the
decisions scored per second (``playing`` to the last answer in, polled on ``table.info``)
and their ratio (scored / played: at least 1 keeps up), how long after the table's end the
scores were all in, and the same table unscored, so the ratio of its play time shows
whether scoring slows the table. A short scored table is played first, so that the
measured one finds the scoring workers started (a fresh worker imports the game's solver,
seconds, once per worker: its cost is printed). Both are run on two servers: one valuing
the decisions in worker processes (``--scoring-workers``, default 1: the table's path only
hands over a plain record per decision) and one valuing them in a thread of its own process
(``scoring_workers`` 0), which shares the table's CPU and GIL.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import trio

from croupier.clients.bot import Bot, play
from croupier.clients.bot.gamebot import GameBot
from croupier.engine import PluginManager
from croupier.protocol import Server, ServerLimits, connect
from croupier.protocol.journal import open_journal

SEATS = 4
SEED = 2024


class Lim17(Bot):
    name = "lim17"

    def decide(self, observation: Any) -> str:
        return "hit" if observation.total < 17 else "stand"


class AlwaysPlay(GameBot):
    name = "always-play"
    game = "three-card-poker"

    def decide(self, observation: Any) -> Any:
        if observation["phase"] == "bet":
            return {"kind": "bet", "ante": observation["min_bet"]}
        return {"kind": "play"}


BOTS: dict[str, type[Bot]] = {"blackjack": Lim17, "three-card-poker": AlwaysPlay}


async def serve(data: str, workers: int) -> None:
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=1,
        journal=open_journal(data),
        limits=ServerLimits(scoring_workers=workers),
    )
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        print(port, flush=True)


async def one_table(port: int, game: str, rounds: int, scored: bool) -> dict[str, float]:
    marks: dict[str, float] = {}

    async def status(method: str, params: Any) -> None:
        if method == "table.status":
            marks.setdefault(params[1]["state"], time.perf_counter())

    async with connect("127.0.0.1", port, name="bench", on_notification=status) as client:
        made = {"game": game, "seats": SEATS, "rounds": rounds, "seed": SEED, "scored": scored}
        info = await client.call_named("table.create", made)
        await client.call("table.watch", info["table"])
        async with trio.open_nursery() as nursery:
            for _ in range(SEATS):
                nursery.start_soon(
                    lambda: play(BOTS[game](), "127.0.0.1", port, table=info["table"], name="b")
                )
        while True:  # every seat's rounds scored (a bot that went broke stops earlier)
            final = await client.call("table.info", info["table"])
            cards = final.get("scores")
            if not scored or (cards and all(c["rounds"] == final["played"] for c in cards)):
                break
            await trio.sleep(0.05)
        done = time.perf_counter()
    out = {"play": marks["finished"] - marks["playing"], "all": done - marks["playing"]}
    if scored:
        out["decisions"] = float(sum(c["decisions"] for c in final["scores"]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(BOTS), default="blackjack")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--scoring-workers", type=int, default=1, metavar="N")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument(
        "--smoke", action="store_true", help="a tiny run, for CI to see it still runs"
    )
    args = parser.parse_args()
    if args.smoke:  # its figures mean nothing
        args.game, args.rounds = "three-card-poker", 5
    if args.serve:
        trio.run(serve, args.serve, args.scoring_workers)
        return
    print(f"{args.game}, {SEATS} TCP bots, {args.rounds} rounds, load {os.getloadavg()[0]:.2f}")
    for workers in (args.scoring_workers, 0):
        plain, scored = run_server(args, workers)
        where = f"{workers} worker processes" if workers else "a thread of the server"
        d = scored["decisions"]
        played, answered = d / scored["play"], d / scored["all"]
        print(f" valued in {where}: {d:.0f} decisions, load {os.getloadavg()[0]:.2f}")
        print(f"  played/s {played:9.1f}   scored/s {answered:9.1f}", end="   ")
        print(f"scored/played {answered / played:.3f}")
        print(f"  scores all in {scored['all'] - scored['play']:.2f} s after the table finished")
        print(f"  the table's play time, scored / unscored: {scored['play'] / plain['play']:.3f}")


def run_server(args: argparse.Namespace, workers: int) -> tuple[dict[str, float], dict[str, float]]:
    """The table played unscored, then scored, on a server of ``workers`` scoring workers."""
    with tempfile.TemporaryDirectory() as tmp:
        child = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                os.path.join(tmp, "journal.db"),
                "--scoring-workers",
                str(workers),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert child.stdout is not None
            port = int(child.stdout.readline())
            first = trio.run(one_table, port, args.game, 5, True)
            print(
                f"  (the server's first scored table, 5 rounds: scores all in "
                f"{first['all'] - first['play']:.2f} s after it finished, the workers' start)"
            )
            plain = trio.run(one_table, port, args.game, args.rounds, False)
            scored = trio.run(one_table, port, args.game, args.rounds, True)
        finally:
            child.terminate()
            child.wait()
    return plain, scored


if __name__ == "__main__":
    main()
