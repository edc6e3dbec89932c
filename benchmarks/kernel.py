"""The compiled simulator against a plain C program of the same play, in the same run.

    .venv/bin/python benchmarks/kernel.py [--rounds N] [--repeat R]

Prints hands per second on one core for the kernel playing ``lim17`` and ``basic`` at
vegas-s17 (one seat), for ``benchmarks/lim17.c`` (the same ``lim17`` play in C, compiled
here with ``cc -O2``: the machine's limit) and the ratio of the two; the first call's
compile time (numba caches it, so a second process loads it); and the speed-up of 1 and 2
worker processes over the engine's chunk driver. Before timing, the C program and the
kernel must end one chunk with the same totals: the same play, not a similar one.

Each figure is the best of ``--repeat`` runs (a shared machine steals time from some runs);
the ratios are what to compare across machines.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.engine import PluginManager
from croupier.engine.chunks import run_chunks

HERE = Path(__file__).resolve().parent


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    manager = PluginManager()
    rules = manager.rule_sets.get("vegas-s17").rules
    kernel = manager.sim_kernels.get("blackjack")
    jobs = {
        name: kernel.prepare(manager, rules, manager.strategy(name, rules), 1)
        for name in ("lim17", "basic")
    }
    lim17 = jobs["lim17"]
    assert not isinstance(lim17, str)

    start = time.perf_counter()
    lim17.run(lim17.data, 1, 10)
    print(f"first call (compile, or load from numba's cache): {time.perf_counter() - start:.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "lim17"
        subprocess.run(["cc", "-O2", "-o", str(program), str(HERE / "lim17.c")], check=True)
        key, check = 12345, 200_000
        c_totals = [
            int(x) for x in subprocess.check_output([program, str(key), str(check)]).split()
        ]
        k_totals = dict(zip(lim17.fields, lim17.run(lim17.data, key, check), strict=True))
        same = c_totals == [k_totals["hands"], k_totals["net"], k_totals["net_sq"]]
        print(
            f"C and kernel, {check:,} rounds from key {key}: "
            + ("the same totals" if same else "DIFFER")
        )
        if not same:
            sys.exit(f"C {c_totals} vs kernel {k_totals}")
        n = args.rounds
        c_time = best(
            args.repeat,
            lambda: subprocess.run([program, "7", str(n)], check=True, capture_output=True),
        )

    rates = {}
    for name, job in jobs.items():
        assert not isinstance(job, str)
        rates[name] = n / best(args.repeat, lambda job=job: job.run(job.data, 7, n))
    c_rate = n / c_time
    print(f"{n:,} rounds, one seat, vegas-s17, best of {args.repeat}:")
    print(f"  C program (lim17)    {c_rate:>14,.0f} hands/s")
    for name, rate in rates.items():
        print(f"  kernel ({name:<5})      {rate:>14,.0f} hands/s   {rate / c_rate:.2f} of C")

    total = 10 * n  # long enough that starting the workers (numba loads its cache) is noise
    one = best(1, lambda: run_chunks(lim17, 7, total, workers=1))
    two = best(1, lambda: run_chunks(lim17, 7, total, workers=2))
    print(
        f"chunk driver, lim17, {total:,} rounds: 1 worker {total / one:,.0f} hands/s, "
        f"2 workers {total / two:,.0f} hands/s: {one / two:.2f}x"
    )


if __name__ == "__main__":
    main()
