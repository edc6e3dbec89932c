"""Hands per second at a vegas-s17 table, against gymnasium's Blackjack-v1 in the same run.

Setup (gymnasium is a benchmark-only dependency, never croupier's)::

    python3 -m venv benchmarks/.venv
    benchmarks/.venv/bin/pip install -e . -r benchmarks/requirements.txt
    benchmarks/.venv/bin/python benchmarks/tables.py [--hands N] [--repeat R]

Measured: one seat playing ``lim17`` (hit below 17) and a fixed basic-strategy chart on the
simulator's fast path (a real 6-deck shoe with cut card, peek, doubles, splits, surrender
and a ledger), the same ``lim17`` seat at the engine's :class:`GameTable` asked through
the decision clock (plain observations, events, time limits: as a remote player is
asked), and gymnasium's infinite-deck ``Blackjack-v1`` stepped by the same hit-below-17
policy. Ratios are croupier's rate over gymnasium's.

Then a server's table of 4 in-process strategies (the engine's :class:`GameTable` of the
blackjack game, four ``lim17`` seats: what ``table.create`` with strategies plays), in
seat-hands per second (4 a round): the strategies asked directly (``decide_now``, no task
per decision), against the same seats asked through the decision clock (a task per
decision, as every player was before), in the same run, and as a fraction of the fast
path's hands/s (the same machine's pace, whatever its load: 20,000 seat-hands/s is 0.15 of
the fast path's 136,000 on the quiet machine).

Each figure is the best of ``--repeat`` runs of ``hands / repeat`` hands (as ``timeit``
does: on a machine shared with other work the best run is the least disturbed one), in
wall-clock time and in this process's CPU time (``time.process_time``, which leaves out
the time the system gave to other processes).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import trio

from croupier.engine import PluginManager
from croupier.engine.games import Plain
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
from croupier.plugins.blackjack.building import build_core
from croupier.plugins.blackjack.game import game_strategy
from croupier.plugins.blackjack.simulate import BANKROLL, run_rounds
from croupier.plugins.blackjack.strategy import HandView, Strategy

# A fixed basic-strategy chart for 4-8 decks, S17, DAS, late surrender (the benchmark's
# own, written out by hand; croupier's `basic` strategy comes from its solver).
# Upcards index 1 (ace) .. 10; each row lists the action for upcards A,2,3,...,10.
H, S, D, P, R, X = "hit", "stand", "double", "split", "surrender", "ds"  # X: double else stand
HARD = {
    9: [H, H, D, D, D, D, H, H, H, H],
    10: [H, D, D, D, D, D, D, D, D, H],
    11: [H, D, D, D, D, D, D, D, D, D],
    12: [H, H, H, S, S, S, H, H, H, H],
    13: [H, S, S, S, S, S, H, H, H, H],
    14: [H, S, S, S, S, S, H, H, H, H],
    15: [H, S, S, S, S, S, H, H, H, R],
    16: [R, S, S, S, S, S, H, H, R, R],
}
SOFT = {
    13: [H, H, H, H, D, D, H, H, H, H],
    14: [H, H, H, H, D, D, H, H, H, H],
    15: [H, H, H, D, D, D, H, H, H, H],
    16: [H, H, H, D, D, D, H, H, H, H],
    17: [H, H, D, D, D, D, H, H, H, H],
    18: [H, S, X, X, X, X, S, S, H, H],
}
PAIRS = {  # value of the paired card -> split against these upcards
    1: set(range(1, 11)),
    2: {2, 3, 4, 5, 6, 7},
    3: {2, 3, 4, 5, 6, 7},
    4: {5, 6},
    6: {2, 3, 4, 5, 6},
    7: {2, 3, 4, 5, 6, 7},
    8: set(range(1, 11)),
    9: {2, 3, 4, 5, 6, 8, 9},
}
VALUE = [min(c // 4 + 1, 10) for c in range(52)]


def basic(hand: HandView, up: int, legal: tuple[str, ...]) -> str:
    cards = hand.cards
    if len(cards) == 2 and "split" in legal:
        v = VALUE[cards[0]]
        if v == VALUE[cards[1]] and up in PAIRS.get(v, ()):
            return "split"
    total = hand.total
    if hand.soft:
        move = SOFT[total][up - 1] if total in SOFT else S
    elif total >= 17:
        return S
    else:
        move = HARD[total][up - 1] if total in HARD else H
    if move == X:
        return D if D in legal else S
    if move in (D, R) and move not in legal:
        return H
    return move


BASIC = Strategy("basic-chart", "fixed 6-deck S17 DAS LS chart (benchmark)", basic)


Rates = tuple[float, float]
"""Hands per second in wall-clock time and in CPU time."""


def best_of(repeat: int, hands: int, run: Callable[[int], None]) -> Rates:
    """The best wall-clock and the best CPU-time rate of ``repeat`` runs of ``hands``."""
    wall = cpu = 0.0
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run(hands)
        cpu = max(cpu, hands / (time.process_time() - start_cpu))
        wall = max(wall, hands / (time.perf_counter() - start))
    return wall, cpu


def croupier_run(manager: PluginManager, strategy: Strategy) -> Callable[[int], None]:
    rules = manager.rule_sets.get("vegas-s17").rules

    def run(hands: int) -> None:
        core = build_core(manager, rules, 1, [BANKROLL], keep_entries=False)
        run_rounds(core, [strategy], hands)
        assert core.ledger.conserved()

    return run


SEATS = 4


class Clocked:
    """A strategy seen only through ``async decide``: the table asks it through the
    decision clock (a nursery and a task per decision), as it asks a remote player."""

    def __init__(self, inner: GameStrategyPlayer) -> None:
        self.inner = inner

    async def decide(self, observation: Plain) -> Plain:
        return await self.inner.decide(observation)


def table_run(manager: PluginManager, strategy: Strategy) -> Callable[[int], None]:
    """One seat of ``strategy`` at a vegas-s17 game table, asked through the decision clock."""
    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17")
    seat = game_strategy(strategy)

    def run(hands: int) -> None:
        players = [Clocked(GameStrategyPlayer(seat))]
        table = GameTable(game, options, 1, players, chips=[BANKROLL])
        trio.run(table.play, hands)

    return run


def game_table_run(
    manager: PluginManager, seat: Callable[[GameStrategyPlayer], GamePlayer]
) -> Callable[[int], None]:
    """Rounds of a 4-seat blackjack game table (vegas-s17) of ``lim17`` seats."""
    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17")
    (lim17,) = (s.at(options) for s in game.strategies if s.name == "lim17")

    def run(rounds: int) -> None:
        players = [seat(GameStrategyPlayer(lim17)) for _ in range(SEATS)]
        table = GameTable(game, options, 1, players, chips=[BANKROLL] * SEATS)
        assert trio.run(table.play, rounds) == rounds

    return run


def gymnasium_run() -> Callable[[int], None] | None:
    try:
        import gymnasium
    except ImportError:
        return None
    env = gymnasium.make("Blackjack-v1")
    env.reset(seed=1)

    def run(episodes: int) -> None:
        for _ in range(episodes):
            obs, _ = env.reset()
            done = False
            while not done:
                obs, _, terminated, truncated, _ = env.step(1 if obs[0] < 17 else 0)
                done = terminated or truncated

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.hands, args.repeat = 300, 1
    manager = PluginManager(autoload=False)
    lim17 = manager.strategies.get("lim17")
    repeat = max(1, args.repeat)
    n = max(1, args.hands // repeat)
    croupier_run(manager, lim17)(n // 10)  # warm up
    rates = {
        "croupier fast path, lim17": best_of(repeat, n, croupier_run(manager, lim17)),
        "croupier fast path, basic chart": best_of(repeat, n, croupier_run(manager, BASIC)),
        "croupier async table, lim17": best_of(repeat, n // 10, table_run(manager, lim17)),
    }
    direct = best_of(repeat, n // 10, game_table_run(manager, lambda p: p))
    clocked = best_of(repeat, n // 10, game_table_run(manager, Clocked))
    gym_run = gymnasium_run()
    gym = best_of(repeat, n, gym_run) if gym_run is not None else None
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"best of {repeat} runs of {n:,} hands (the async table: a tenth)")
    print(f"(load average {load} on {os.cpu_count()} cores: wall-clock figures wait for them)")
    print(f"{'':34s}  wall-clock hands/s          CPU-time hands/s")
    for label, (wall, cpu) in rates.items():
        if gym is None:
            print(f"{label:34s} {wall:10,.0f}               {cpu:10,.0f}")
        else:
            print(
                f"{label:34s} {wall:10,.0f} {wall / gym[0]:5.2f}x gym   "
                f"{cpu:10,.0f} {cpu / gym[1]:5.2f}x gym"
            )
    if gym is None:
        print("gymnasium Blackjack-v1: not installed (see this file's docstring)")
    else:
        label = "gymnasium Blackjack-v1, hit < 17"
        print(f"{label:34s} {gym[0]:10,.0f} episodes/s    {gym[1]:10,.0f} episodes/s")
    print(f"\na {SEATS}-seat game table of lim17 strategies, seat-hands/s (rounds x {SEATS})")
    for label, (wall, cpu) in {"asked directly": direct, "through the clock": clocked}.items():
        print(
            f"{label:34s} {wall * SEATS:10,.0f}               {cpu * SEATS:10,.0f}"
            f"   ({1e6 / cpu:,.0f} CPU us a round)"
        )
    wall_ratio, cpu_ratio = direct[0] / clocked[0], direct[1] / clocked[1]
    label = "directly / through the clock"
    print(f"{label:34s} {wall_ratio:9.2f}x               {cpu_ratio:9.2f}x")
    fast = rates["croupier fast path, lim17"]
    label = "directly / fast path (lim17)"
    print(
        f"{label:34s} {direct[0] * SEATS / fast[0]:9.3f}x               "
        f"{direct[1] * SEATS / fast[1]:9.3f}x"
    )


if __name__ == "__main__":
    main()
