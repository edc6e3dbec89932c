"""Steps per second of croupier's learning environments against Gymnasium's Blackjack-v1
and RLCard's blackjack, measured in the same run.

Run as ``.venv/bin/python benchmarks/envs.py [--seconds S]`` (needs ``croupier[gym]``;
RLCard from benchmarks/requirements.txt, left out with a note when it is not installed).
Every env is played by a random agent that picks among the legal actions (the mask where
the env gives one), for about S seconds each (default 2) after a few hundred warm-up steps,
resets included. A pick costs a few microseconds, as ``action_space.sample()`` does for
Blackjack-v1 (``rng.choice`` costs 15 us: a fifth of croupier's step):

* ``Blackjack-v1``: Gymnasium's (an infinite deck, hit or stick);
* ``rlcard``: RLCard's blackjack (hit or stand, a new deck each game);
* ``croupier/Blackjack-v0``: one seat of the whole casino game on the engine (bets, a
  6-deck shoe with its cut card, insurance, doubles, splits, surrender; ``vegas-s17``);
* the same, and ``croupier/ThreeCardPoker-v0``, with each reward: ``chips``, and the
  exact ``ev-loss`` and ``adjusted`` (the game's oracle values every decision: its cost);
* ``croupier/BlackjackVector-v0`` at 1, 64 and 4,096 tables: the compiled kernel's round,
  one call per step of every table (steps counted per table).

The last column is steps/s over Blackjack-v1's (the issue's goals: the single env at
least 1x, the vectorised env at least 100x).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import gymnasium
import numpy as np

import croupier.clients.envs  # noqa: F401 (registers croupier/...)

WARM = 200
"""Steps taken before the clock starts: compilation, the first shuffle, and the oracle's
first valuation (its tables are made then: a second or more, once per process)."""


def rate(step: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``step`` (which returns how many steps it took)."""
    for _ in range(WARM if seconds >= 1 else 1):  # a smoke run: one
        step()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += step()
    return done / (time.perf_counter() - start)


def gymnasium_v1() -> Callable[[], int]:
    env = gymnasium.make("Blackjack-v1")
    env.reset(seed=0)
    env.action_space.seed(0)

    def step() -> int:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
        return 1

    return step


def rlcard_blackjack() -> Callable[[], int] | str:
    try:
        import rlcard
    except ImportError:
        return "not installed (pip install rlcard)"
    env = rlcard.make("blackjack", config={"seed": 0})
    rng = np.random.default_rng(0)
    state, _ = env.reset()

    def step() -> int:
        nonlocal state
        legal = list(state["legal_actions"])
        state, _ = env.step(int(legal[int(rng.random() * len(legal))]))
        if env.is_over():
            state, _ = env.reset()
        return 1

    return step


def croupier_single(game: str = "Blackjack", reward: str = "chips") -> Callable[[], int]:
    rules = "vegas-s17" if game == "Blackjack" else None
    env = gymnasium.make(f"croupier/{game}-v0", rules=rules, rounds=10_000, reward=reward)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)

    def step() -> int:
        nonlocal info
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[int(rng.random() * len(legal))])  # not rng.choice: 4x the cost
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
        return 1

    return step


def croupier_vector(tables: int) -> Callable[[], int]:
    env = gymnasium.make_vec("croupier/BlackjackVector-v0", num_envs=tables, rules="vegas-s17")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)

    def step() -> int:
        nonlocal info
        mask = info["action_mask"]
        action = (rng.random(mask.shape) * mask).argmax(1)
        _, _, _, _, info = env.step(action)
        return tables

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per env (default 2)")
    parser.add_argument("--no-exact", action="store_true", help="leave out the exact rewards' rows")
    parser.add_argument(
        "--smoke", action="store_true", help="a tiny run, for CI to see it still runs"
    )
    args = parser.parse_args()
    seconds, exact = args.seconds, not args.no_exact
    if args.smoke:  # its figures mean nothing
        seconds = 0.05
    base = rate(gymnasium_v1(), seconds)
    print(f"{'env':<38} {'steps/s':>12} {'x Blackjack-v1':>15}")
    print(f"{'gymnasium Blackjack-v1':<38} {base:12,.0f} {1.0:15.2f}")
    found = rlcard_blackjack()
    if isinstance(found, str):
        print(f"{'rlcard blackjack':<38} {found}")
    else:
        r = rate(found, seconds)
        print(f"{'rlcard blackjack':<38} {r:12,.0f} {r / base:15.2f}")
    r = rate(croupier_single(), seconds)
    print(f"{'croupier/Blackjack-v0 (single)':<38} {r:12,.0f} {r / base:15.2f}")
    for game in ("Blackjack", "ThreeCardPoker"):
        for reward in ("chips", "ev-loss", "adjusted") if exact else ():
            r = rate(croupier_single(game, reward), seconds)
            name = f"croupier/{game}-v0 reward={reward}"
            print(f"{name:<38} {r:12,.0f} {r / base:15.2f}")
    for tables in (1, 64, 4096):
        r = rate(croupier_vector(tables), seconds)
        name = f"croupier/BlackjackVector-v0 x{tables}"
        print(f"{name:<38} {r:12,.0f} {r / base:15.2f}")


if __name__ == "__main__":
    main()
