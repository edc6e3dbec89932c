"""Pieces per second of the randomizers, in-process, dealing 10**6 pieces in one batch.

Run: .venv/bin/python benchmarks/randomizers.py [N] (``--smoke``: a tiny run, CI's)

The peer measured in the same run is the physical limit of the stream: how fast
``Stream.randbytes`` alone produces one byte per piece (every randomizer needs at least
that much randomness for memoryless 7-piece dealing), and a bare ``list(map(...))`` of
precomputed indices to symbols (the cost of building the output list at all).
"""

from __future__ import annotations

import argparse
import time

from croupier.engine import PluginManager, Stream

TARGETS = {"memoryless": 1_000_000, "7-bag": 1_000_000, "tgm2": 500_000, "tgm3": 500_000}
EXTRA = ("tgm1", "tgm2-spec", "tgm-ideal", "14-bag")


def rate(fn, n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - start)
    return n / best


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
    for name in (*TARGETS, *EXTRA):
        r = rate(lambda k, name=name: pm.randomizer(name, Stream(1)).deal(k), n)
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"target {target:,}: {'ok' if r >= target else 'MISSED'}"
        print(f"{name:28} {r:>14,.0f} /s   {r / list_rate:5.2f} of the list limit   {verdict}")


if __name__ == "__main__":
    main()
