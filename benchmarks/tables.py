"""Hands per second at a vegas-s17 table, against gymnasium's Blackjack-v1 in the same run.

Setup (gymnasium is a benchmark-only dependency, never croupier's)::

    python3 -m venv benchmarks/.venv
    benchmarks/.venv/bin/pip install -e . -r benchmarks/requirements.txt
    benchmarks/.venv/bin/python benchmarks/tables.py [--hands N]

Measured: one seat playing ``lim17`` (hit below 17) and a fixed basic-strategy chart on the
simulator's fast path (a real 6-deck shoe with cut card, peek, doubles, splits, surrender
and a ledger), the same ``lim17`` seat through the async :class:`Table` (observations,
events, time limits), and gymnasium's infinite-deck ``Blackjack-v1`` stepped by the same
hit-below-17 policy. Ratios are croupier's rate over gymnasium's.
"""

from __future__ import annotations

import argparse
import time

import trio

from croupier.engine import HandView, PluginManager, Strategy, StrategyPlayer, Table
from croupier.engine.simulate import BANKROLL, run_rounds
from croupier.engine.table import build_core

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


def croupier_rate(manager: PluginManager, strategy: Strategy, hands: int) -> float:
    rules = manager.rule_sets.get("vegas-s17").rules
    core = build_core(manager, rules, 1, [BANKROLL], keep_entries=False)
    start = time.perf_counter()
    run_rounds(core, [strategy], hands)
    elapsed = time.perf_counter() - start
    assert core.ledger.conserved()
    return hands / elapsed


def table_rate(manager: PluginManager, strategy: Strategy, hands: int) -> float:
    rules = manager.rule_sets.get("vegas-s17").rules
    table = Table(manager, rules, 1, [StrategyPlayer(strategy)], chips=[BANKROLL])
    start = time.perf_counter()
    trio.run(table.play, hands)
    return hands / (time.perf_counter() - start)


def gymnasium_rate(episodes: int) -> float | None:
    try:
        import gymnasium
    except ImportError:
        return None
    env = gymnasium.make("Blackjack-v1")
    env.reset(seed=1)
    start = time.perf_counter()
    for _ in range(episodes):
        obs, _ = env.reset()
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(1 if obs[0] < 17 else 0)
            done = terminated or truncated
    return episodes / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    args = parser.parse_args()
    manager = PluginManager(autoload=False)
    lim17 = manager.strategies.get("lim17")
    n = args.hands
    croupier_rate(manager, lim17, n // 10)  # warm up
    rates = {
        "croupier fast path, lim17": croupier_rate(manager, lim17, n),
        "croupier fast path, basic chart": croupier_rate(manager, BASIC, n),
        "croupier async Table, lim17": table_rate(manager, lim17, n // 10),
    }
    gym = gymnasium_rate(n)
    for label, rate in rates.items():
        ratio = f"   {rate / gym:5.2f}x gymnasium" if gym else ""
        print(f"{label:34s} {rate:12,.0f} hands/s{ratio}")
    if gym is None:
        print("gymnasium Blackjack-v1: not installed (see this file's docstring)")
    else:
        print(f"{'gymnasium Blackjack-v1, hit < 17':34s} {gym:12,.0f} episodes/s")


if __name__ == "__main__":
    main()
