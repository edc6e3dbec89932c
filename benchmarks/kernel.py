"""The compiled simulator against a plain C program of the same play, in the same run.

    .venv/bin/python benchmarks/kernel.py [--rounds N] [--repeat R]

Prints the first call's time in a fresh process with its own empty numba cache
(``NUMBA_CACHE_DIR``: cold, it compiles) and again in a second process (warm, it loads
what the first one cached); hands per second on one core for the kernel playing ``lim17``
and ``basic`` at vegas-s17 (one seat) and for ``benchmarks/lim17.c`` (the same ``lim17``
play in C, compiled here with ``cc -O2``: the machine's limit), with the ratio of the two;
and the speed-up of 2 worker processes (cold: starting them counted; warm: already
started), of 2 threads of this process (the kernel releases the GIL, as under Dask's
thread workers) and of a 2-worker Dask LocalCluster over one process, through the
engine's chunk driver, beside the speed-up of two copies of the C program at once over
one (what the machine gives two processes right now: on a shared machine, less than 2),
also in turns.
Before timing, the C program and the kernel must end one chunk with the same totals: the
same play, not a similar one.

The C program and the kernel take turns, ``--repeat`` times, and each figure is the best
of its runs, in wall-clock time and in CPU time (the C program's from ``getrusage`` of
children, the kernel's ``time.process_time``): a shared machine steals time from some
runs, and less of it from CPU time. The ratios are what to compare across machines.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from croupier.engine import PluginManager
from croupier.engine.chunks import CHUNK, run_chunks
from croupier.engine.executor import Executor, open_executor
from croupier.engine.kernels import KernelJob
from croupier.plugins.blackjack.strategy import local_strategy

HERE = Path(__file__).resolve().parent


FIRST_CALL = """
import time
start = time.perf_counter()
from croupier.engine import PluginManager
from croupier.plugins.blackjack.strategy import local_strategy
manager = PluginManager()
rules = manager.rule_sets.get("vegas-s17").rules
basic = local_strategy(manager, "basic", rules)
job = manager.sim_kernels.get("blackjack").prepare(manager, rules, basic, 1)
ready, ready_cpu = time.perf_counter(), time.process_time()
job.run(job.data, 1, 10)
print(ready - start, time.perf_counter() - ready, time.process_time() - ready_cpu)
"""


def first_calls(cold: bool = True) -> list[tuple[float, float, float]]:
    """(imports, first call, its CPU time) in seconds, in two fresh processes sharing a new
    numba cache (``cold=False``, the smoke run: the checkout's cache, so neither compiles;
    the compile was 14-25 s of CPU, most of the smoke run's)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache) if cold else dict(os.environ)
        runs = []
        for _ in range(2):
            answer = subprocess.check_output([sys.executable, "-c", FIRST_CALL], env=env)
            load, call, cpu = answer.split()
            runs.append((float(load), float(call), float(cpu)))
        return runs


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(work: object, cpu: object) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``work``, CPU time by ``cpu()``."""
    wall, used = time.perf_counter(), cpu()  # type: ignore[operator]
    work()  # type: ignore[operator]
    return time.perf_counter() - wall, cpu() - used  # type: ignore[operator]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.repeat = 20_000, 1
    manager = PluginManager()
    rules = manager.rule_sets.get("vegas-s17").rules
    kernel = manager.sim_kernels.get("blackjack")
    jobs = {
        name: kernel.prepare(manager, rules, local_strategy(manager, name, rules), 1)
        for name in ("lim17", "basic")
    }
    lim17 = jobs["lim17"]
    assert not isinstance(lim17, str)

    (load, cold, cold_cpu), (_, warm, warm_cpu) = first_calls(cold=not args.smoke)
    print(
        f"first call in a fresh process, wall-clock (CPU time): {cold:.2f} s ({cold_cpu:.2f} s) "
        f"with an empty numba cache (compiles), {warm:.2f} s ({warm_cpu:.2f} s) from the cache "
        f"it left; imports before it {load:.2f} s"
    )
    lim17.run(lim17.data, 1, 10)  # this process loads it too

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
        one_core(program, jobs, args.rounds, args.repeat)
        two_at_once(program, lim17, 10 * args.rounds, args.repeat)


def c_run(program: Path, rounds: int, copies: int = 1) -> None:
    """``copies`` runs of the C program at once, ``rounds`` rounds each."""
    runs = [
        subprocess.Popen([program, "7", str(rounds)], stdout=subprocess.DEVNULL)
        for _ in range(copies)
    ]
    for run in runs:
        if run.wait() != 0:
            sys.exit("the C program failed")


def one_core(program: Path, jobs: dict[str, KernelJob | str], n: int, repeat: int) -> None:
    """Hands/s of the C program and the kernel, in turns, and their ratio."""
    runs: dict[str, list[tuple[float, float]]] = {"C": [], **{name: [] for name in jobs}}
    for _ in range(repeat):  # in turns, so each sees the machine's load alike
        runs["C"].append(timed(lambda: c_run(program, n), children_cpu))
        for name, job in jobs.items():
            assert not isinstance(job, str)
            runs[name].append(timed(lambda job=job: job.run(job.data, 7, n), time.process_time))
    wall = {name: n / min(w for w, _ in times) for name, times in runs.items()}
    cpu = {name: n / min(c for _, c in times) for name, times in runs.items()}
    print(f"{n:,} rounds, one seat, vegas-s17, best of {repeat}, hands/s:")
    print(f"{'':22s}{'wall-clock':>14s}{'':10s}{'CPU time':>14s}")
    print(f"  C program (lim17)   {wall['C']:>14,.0f}{'':10s}{cpu['C']:>14,.0f}")
    for name in jobs:
        print(
            f"  kernel ({name:<5})      {wall[name]:>14,.0f} {wall[name] / wall['C']:.2f} of C"
            f"{cpu[name]:>14,.0f} {cpu[name] / cpu['C']:.2f} of C"
        )


def two_at_once(program: Path, lim17: KernelJob, total: int, repeat: int) -> None:
    """The speed-up of two workers over one through the chunk driver, beside two copies of
    the C program over one (what the machine gives two at once right now); all in turns,
    ``repeat`` times, each the best of its runs."""
    print(f"two at once, {total:,} rounds in all, best of {repeat} (speed-up over one, hands/s):")
    times: dict[str, list[float]] = {}

    def timing(label: str, work: object) -> None:
        times.setdefault(label, []).append(best(1, work))

    with (
        open_executor(workers=2) as pool,
        ThreadPoolExecutor(2) as threads,  # the kernel releases the GIL (nogil)
    ):
        cold = best(1, lambda: run_chunks(lim17, 7, total, executor=pool))  # workers start
        for _ in range(repeat):
            timing("C, 1", lambda: c_run(program, total))
            timing("C, 2", lambda: c_run(program, total // 2, copies=2))
            timing("1 worker (here)", lambda: run_chunks(lim17, 7, total))
            timing("2 workers, warm", lambda: run_chunks(lim17, 7, total, executor=pool))
            timing(
                "2 threads (nogil)",
                lambda: run_chunks(lim17, 7, total, executor=Executor(threads, 2, "")),
            )
    fastest = {label: min(runs) for label, runs in times.items()}
    limit = fastest["C, 1"] / fastest["C, 2"]
    one = fastest["1 worker (here)"]
    print(f"  C program, 2 copies        {limit:.2f}x  {total / fastest['C, 2']:>14,.0f}")

    def line(label: str, seconds: float, note: str = "") -> None:
        speedup = one / seconds
        print(
            f"  kernel, {label:<18s} {speedup:.2f}x  {total / seconds:>14,.0f}"
            f"  {speedup / limit:.2f} of C's{note}"
        )

    print(f"  kernel, 1 worker (here)    1.00x  {total / one:>14,.0f}")
    line("2 workers, cold", cold, "  (once: processes start, load the kernel)")
    line("2 workers, warm", fastest["2 workers, warm"])
    line("2 threads (nogil)", fastest["2 threads (nogil)"])
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
        warm = best(repeat, lambda: run_chunks(lim17, 7, total, executor=dask))
    line("Dask cluster, 2x1", warm, "  (a LocalCluster, warm)")


if __name__ == "__main__":
    main()
