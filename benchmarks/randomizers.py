"""Pieces per second of the randomizers, in-process, dealing 10**6 pieces in one batch.

Run: .venv/bin/python benchmarks/randomizers.py [N] (``--smoke``: a tiny run, CI's)

The peers measured in the same run: how fast ``Stream.randbytes`` alone produces one byte
per piece (every randomizer needs at least that much randomness for memoryless 7-piece
dealing; most read 1 to 4 bytes a piece), and a bare ``list(map(...))`` of precomputed
indices to symbols (the cost of building the output list at all). The list is timed again
beside every randomizer (best of 3 each, alternating), so a machine whose load changes
during the run compares each randomizer with the list built at the same time. Every
registered randomizer is timed (the goal: each at least half the list's rate).
"""

from __future__ import annotations

import argparse
import time

from croupier.engine import PluginManager, Stream

TARGETS = {"memoryless": 1_000_000, "7-bag": 1_000_000, "tgm2": 500_000, "tgm3": 500_000}


def rate(fn, n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - start)
    return n / best


def rates(fn, peer, n: int, repeats: int = 3) -> tuple[float, float]:
    """The rates of ``fn`` and ``peer``, timed alternately (best of ``repeats`` each)."""
    best, best_peer = float("inf"), float("inf")
    fn(n)  # a first call compiles what it compiles
    for _ in range(repeats):
        for f, which in ((fn, 0), (peer, 1)):
            start = time.perf_counter()
            f(n)
            took = time.perf_counter() - start
            if which:
                best_peer = min(best_peer, took)
            else:
                best = min(best, took)
    return n / best, n / best_peer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=1_000_000, help="pieces per run")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    n = 10_000 if args.smoke else args.n
    pm = PluginManager(autoload=False)
    symbols = ("I", "J", "L", "O", "S", "T", "Z")
    indices = [i % 7 for i in range(n)]
    bytes_rate = rate(lambda k: Stream(0).randbytes(k), n)
    list_rate = rate(lambda k: list(map(symbols.__getitem__, indices)), n)
    print(f"{n:,} pieces per run, best of 3, in-process")
    print(f"{'stream bytes (1 per piece)':28} {bytes_rate:>14,.0f} /s   (limit)")
    print(f"{'build a list of symbols':28} {list_rate:>14,.0f} /s   (limit)")

    def build(k: int) -> list[str]:
        return list(map(symbols.__getitem__, indices))

    names = [*TARGETS, *sorted(k.name for k in pm.randomizers if k.name not in TARGETS)]
    worst = float("inf")
    for name in names:
        r, peer = rates(lambda k, name=name: pm.randomizer(name, Stream(1)).deal(k), build, n)
        worst = min(worst, r / peer)
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"target {target:,}: {'ok' if r >= target else 'MISSED'}"
        print(f"{name:28} {r:>14,.0f} /s   {r / peer:5.2f} of the list beside it   {verdict}")
    print(f"worst: {worst:.2f} of the list (goal: at least 0.5)")


if __name__ == "__main__":
    main()
