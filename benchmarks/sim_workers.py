"""``croupier sim``'s default against one process, two worker processes and two threads,
whole commands (start-up included) in the same run.

    .venv/bin/python benchmarks/sim_workers.py [--hands N ...] [--repeat R]

Each variant is a new ``croupier sim --strategy basic --seed 1 --json`` process, the
variants in turns ``--repeat`` times (a drift of the machine's load touches all alike),
each figure the best wall-clock time of its runs. It prints each variant's speed-up over
``--workers 1`` (the goal: the default never below 1.00x) with the load average beside
it, and checks that every variant printed the same JSON but for ``ran_on``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

VARIANTS = {
    "--workers 1": ["--workers", "1"],
    "default": [],
    "--threads 2": ["--threads", "2"],
    "--workers 2": ["--workers", "2"],
}


def run(hands: int, extra: list[str]) -> tuple[float, dict[str, object]]:
    """Wall-clock seconds of one command, and its JSON less ``ran_on``."""
    command = [sys.executable, "-m", "croupier.clients.cli.main", "sim", "--strategy", "basic"]
    command += ["--hands", str(hands), "--seed", "1", "--json", *extra]
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    report.pop("ran_on")
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[10**6, 10**7, 10**8])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--smoke", action="store_true", help="a tiny run, for CI to see it still runs"
    )
    args = parser.parse_args()
    if args.smoke:  # its figures mean nothing
        args.hands, args.repeat = [10**4], 1
    run(1000, [])  # the kernel and the chart cached before timing
    for hands in args.hands:
        times: dict[str, list[float]] = {name: [] for name in VARIANTS}
        reports = []
        for _ in range(args.repeat):
            for name, extra in VARIANTS.items():
                seconds, report = run(hands, extra)
                times[name].append(seconds)
                reports.append(report)
        if any(report != reports[0] for report in reports):
            sys.exit(f"{hands:,} hands: the variants printed different results")
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        one = min(times["--workers 1"])
        print(f"{hands:,} hands, best of {args.repeat}, load {load}, same JSON:")
        for name, runs in times.items():
            print(f"  {name:12} {min(runs):7.2f} s  {one / min(runs):.2f}x of --workers 1")


if __name__ == "__main__":
    main()
