"""The compiled simulator against a plain C program of the same play, in the same run.

    .venv/bin/python benchmarks/kernel.py [--rounds N] [--repeat R]

Prints hands per second on one core for the kernel playing ``lim17`` and ``basic`` at
vegas-s17 (one seat), for ``benchmarks/lim17.c`` (the same ``lim17`` play in C, compiled
here with ``cc -O2``: the machine's limit) and the ratio of the two; the first call's
compile time (numba caches it, so a second process loads it); and the speed-up of 2
worker processes (cold: starting them counted; warm: already started) and of a 2-worker
Dask LocalCluster over one process, through the engine's chunk driver. Before timing, the
C program and the kernel must end one chunk with the same totals: the same play, not a similar one.

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
from croupier.engine.chunks import CHUNK, run_chunks
from croupier.engine.executor import open_executor

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

    total = 10 * n
    print(f"chunk driver, lim17, {total:,} rounds (speed-up over 1 worker, hands/s):")
    one = best(1, lambda: run_chunks(lim17, 7, total))
    print(f"  1 worker, this process     1.00x  {total / one:>14,.0f}")
    with open_executor(workers=2) as pool:
        cold = best(1, lambda: run_chunks(lim17, 7, total, executor=pool))  # workers start
        warm = best(1, lambda: run_chunks(lim17, 7, total, executor=pool))
    print(
        f"  2 workers, cold            {one / cold:.2f}x  {total / cold:>14,.0f}"
        "  (processes start, load the kernel)"
    )
    print(f"  2 workers, warm            {one / warm:.2f}x  {total / warm:>14,.0f}")
    try:
        from distributed import LocalCluster
    except ImportError:
        print("  Dask LocalCluster: not installed (pip install 'croupier[dask]')")
        return
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        open_executor(cluster=cluster.get_client()) as dask,
    ):
        run_chunks(lim17, 7, 2 * CHUNK, executor=dask)  # each worker loads the kernel
        warm = best(1, lambda: run_chunks(lim17, 7, total, executor=dask))
    print(f"  Dask LocalCluster, 2x1     {one / warm:.2f}x  {total / warm:>14,.0f}  (warm)")


if __name__ == "__main__":
    main()
