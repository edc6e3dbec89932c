"""Tournament speed: decisions per second with executable bots and in-process strategies,
and hands per second of whole tournaments, against the bare cost of starting a process.

Run from the repository root: ``.venv/bin/python benchmarks/tournament.py``. The physical
limit of an executable bot is the cost of spawning a trivial program (``/bin/true``) from
the same trio loop, measured in the same run; the ratio says how much of a decision's cost
is croupier's own. ``--smoke``: a tenth of the calls and small tournaments, CI's run (its
figures mean nothing).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import trio

from croupier.engine import PluginManager
from croupier.engine.executor import open_executor
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import run_tournament
from croupier.plugins.blackjack.entries import ExecutableEntry, StrategyEntry
from croupier.plugins.blackjack.executable import ExecutablePlayer
from croupier.plugins.blackjack.play import Observation

BOTS = Path(__file__).resolve().parent.parent / "tests" / "bots"
OBSERVATION = Observation(
    phase="play",
    round=1,
    seat=1,
    legal=("hit", "stand", "double", "raise"),
    chips=190,
    hands=(("TS", "6H"),),
    total=16,
    stake=10,
    dealer_upcard="9D",
    visible=("9D", "#", "TS", "6H"),
)


async def _spawn_true(n: int) -> None:
    for _ in range(n):
        await trio.run_process(["/bin/true"], stdin=subprocess.DEVNULL)


async def _decide(player: ExecutablePlayer, n: int) -> None:
    for _ in range(n):
        await player.decide(OBSERVATION.to_dict())


def per_call(label: str, seconds: float, n: int, limit: float | None = None) -> float:
    cost = seconds / n
    extra = f"  ({cost / limit:.2f}x the bare spawn)" if limit else ""
    print(f"{label:<34} {n / seconds:10.0f} decisions/s  {cost * 1e3:8.3f} ms each{extra}")
    return cost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a tiny run, as CI makes")
    smoke = parser.parse_args().smoke
    scale = 10 if smoke else 1
    manager = PluginManager(autoload=False)
    rules = manager.rule_sets.get("koth").rules
    n = 200 // scale
    start = time.perf_counter()
    trio.run(_spawn_true, n)
    limit = per_call("spawn /bin/true (the limit)", time.perf_counter() - start, n)
    workdir = Path(os.environ.get("TMPDIR", "/tmp"))
    for name, count in (("lim15.sh", n), ("lim17.py", 60 // scale)):
        player = ExecutablePlayer([str(BOTS / name)], workdir)
        start = time.perf_counter()
        trio.run(_decide, player, count)
        per_call(f"executable {name}", time.perf_counter() - start, count, limit)
    strategy = StrategyEntry("lim17", manager.strategies.get("lim17"))
    blackjack = manager.games.get("blackjack")
    cfg = TournamentConfig.of(blackjack, rules.to_dict(), 1, tourneys=20 // scale, rounds=50)
    entries = [strategy] * 8
    start = time.perf_counter()
    result = run_tournament(manager, cfg, entries)
    seconds = time.perf_counter() - start
    per_call("in-process strategy (tournament)", seconds, result.decisions)
    print(f"{'  whole tournament, 8 strategies':<34} {result.hands / seconds:10.0f} hands/s")
    for workers in (1, 2):
        shell = [ExecutableEntry(f"lim15-{i}", (str(BOTS / "lim15.sh"),)) for i in range(8)]
        cfg = TournamentConfig.of(
            blackjack, rules.to_dict(), 1, tourneys=1 if smoke else 4, rounds=5
        )
        start = time.perf_counter()
        with open_executor(workers=workers) as executor:
            result = run_tournament(manager, cfg, shell, executor=executor)
        seconds = time.perf_counter() - start
        print(
            f"{f'  8 shell bots, {workers} worker(s)':<34} {result.hands / seconds:10.0f} hands/s"
            f"  {result.decisions / seconds:8.0f} decisions/s"
            f"  ({seconds / result.decisions / limit:.2f}x the bare spawn per decision)"
        )
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
