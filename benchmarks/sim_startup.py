"""What ``croupier sim --strategy basic --hands 1000`` costs, the basic-strategy chart
solved (an empty chart cache) against read back (the cache kept by the cold run).

Run as ``.venv/bin/python benchmarks/sim_startup.py [RUNS]`` (default 3; ``1``, or
``--smoke``, is the smoke size). Cold and warm runs alternate, each a new process, so a
drift of the machine's speed touches both; each run's CPU (user + system of the child) is
the operating system's own accounting. It prints the median CPU and wall seconds of each,
``warm/cold`` (the share of the start-up left once the chart is kept) and the load average
beside them, and the warm run against the issue's target of 1 s of CPU. Bytecode is written
and read as on an installed croupier (``PYTHONDONTWRITEBYTECODE`` is dropped: with it,
every run compiled croupier's ~340 modules again, 0.9 s of CPU).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = ("sim", "--strategy", "basic", "--hands", "1000", "--seed", "1")
TARGET_CPU = 1.0


def run(cache: Path) -> tuple[float, float]:
    """CPU and wall seconds of one ``croupier sim`` process with ``cache`` as its cache."""
    env = {**os.environ, "CROUPIER_CACHE": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # else every run compiles croupier's source
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "croupier.clients.cli.main", *COMMAND],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=3, help="cold and warm runs each")
    parser.add_argument("--smoke", action="store_true", help="one run of each (CI's smoke size)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("RUNS must be at least 1")
    runs = 1 if args.smoke else args.runs
    root = Path(tempfile.mkdtemp(prefix="croupier-sim-startup-"))
    try:
        warm_cache = root / "warm"
        run(warm_cache)  # fills the warm cache (and warms the OS's file cache)
        cold: list[tuple[float, float]] = []
        warm: list[tuple[float, float]] = []
        for i in range(runs):
            cold.append(run(root / f"cold{i}"))  # a new, empty cache each time
            warm.append(run(warm_cache))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    cold_cpu = statistics.median(c for c, _ in cold)
    warm_cpu = statistics.median(c for c, _ in warm)
    print(f"croupier {' '.join(COMMAND)}: median of {runs} runs each, load {load}")
    print(f"{'':6} {'cpu s':>7} {'wall s':>7}")
    print(f"{'cold':6} {cold_cpu:7.2f} {statistics.median(w for _, w in cold):7.2f}")
    print(f"{'warm':6} {warm_cpu:7.2f} {statistics.median(w for _, w in warm):7.2f}")
    print(f"warm/cold cpu {warm_cpu / cold_cpu:.2f}x")
    print(f"warm cpu against the {TARGET_CPU:.0f} s target: {warm_cpu / TARGET_CPU:.2f}x")


if __name__ == "__main__":
    main()
