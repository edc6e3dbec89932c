"""How fast blackjack's oracle values a real table's decisions, against how fast they are played.

Run: ``.venv/bin/python benchmarks/oracle_speed.py [--rounds 60] [--seed 7] [--profile]``

A vegas-s17 table of 4 in-process lim17 seats plays ``--rounds`` rounds with the oracle's
questions kept (``defer_scoring``); then every question is answered (the exact solver on the
shoe depleted by every card seen). Both are timed in CPU seconds of this process (the
machine may be shared), and the ratio scored / played is printed: the oracle's speed
relative to the table's, measured in the same run. ``--profile`` prints the oracle's top
functions by own time (cProfile), to see where a decision's time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time

import trio

from croupier.engine import PluginManager
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.scoring import oracle_for

RULE_SET = "vegas-s17"
SEATS = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--smoke", action="store_true", help="a tiny run, for CI to see it still runs"
    )
    args = parser.parse_args()
    if args.smoke:  # its figures mean nothing
        args.rounds = 3
    manager = PluginManager(autoload=False)
    game = manager.games.get("blackjack")
    options = game.rules(RULE_SET)
    table = GameTable(
        game,
        options,
        args.seed,
        [GameStrategyPlayer(game.strategy("lim17"))] * SEATS,
        oracle=oracle_for(manager, "blackjack").new(options),
        defer_scoring=True,
    )
    start = time.process_time()
    trio.run(table.play, args.rounds)
    playing = time.process_time() - start
    assert table.scorer is not None
    questions = len(table.scorer.pending())
    profile = cProfile.Profile() if args.profile else None
    start = time.process_time()
    if profile is not None:
        profile.enable()
    table.scorer.settle()
    if profile is not None:
        profile.disable()
    scoring = time.process_time() - start
    played = table.tally.decisions / playing
    scored = questions / scoring
    print(f"{RULE_SET}, {SEATS} lim17 seats, {args.rounds} rounds, seed {args.seed}:")
    print(f"  load average               {os.getloadavg()[0]:10.1f}  ({os.cpu_count()} cores)")
    print(f"  decisions played/s (CPU)   {played:10.0f}")
    print(f"  decisions scored/s (CPU)   {scored:10.1f}  ({questions} questions)")
    print(f"  scored / played            {scored / played:10.3f}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
