"""How long the blackjack solver takes to solve a whole rule set: chart and house edges.

Run as ``.venv/bin/python benchmarks/blackjack_solver.py`` (``--smoke``: 1 deck and an
infinite one, once: CI's run; ``--post-split MODE``: the split values by another post-split
mode than CDZ-, e.g. ``cdpn``). For an infinite deck and for
1, 2, 6 and 8 decks (S17, DAS, split to 4, late surrender, 3:2, peek) it prints:

* ``first``: the first solve in this process (includes loading the compiled code from
  numba's cache files, or compiling it when there are none);
* ``best``: the best of three further solves, and ``cpu``: their best CPU time;
* the issue's target and best / target (below 1 meets it);
* the load average beside it (the machine may be shared).

``--farmer PATH`` compares with Eric Farmer's combinatorial analyser in the same run: PATH
is his ``strategy`` program built from its public source (github.com/possiblywrong/
blackjack, GPL: never in croupier's tree; build it elsewhere, see docs/blackjack-solver.md)
and ``--farmer-input FILE`` the answers his program reads on stdin for the six-deck rules
below (his prompts are his program's, so the answers are kept with it, not here). The
benchmark runs it, reads the overall expected value it writes (the ``Total`` row of its
table of overall expected values, in %: answer ``/dev/stdout`` for his output file),
checks it against croupier's CDZ- composition-dependent value of the same rules (to 1e-6
of a bet: both are exact), and prints the ratio of CPU times beyond start-up: croupier's
best warm solve against his run's CPU time minus that of his program answering nothing
(start-up and exit). Without ``--farmer`` it says so and prints croupier's figures alone.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import solve_rules
from croupier.plugins.blackjack.solver.split import SPLIT_STRATEGIES

TARGETS = {None: 0.1, 6: 2.0}
REPEATS = 3


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


FARMER_RULES = BlackjackRules(decks=6)
# his table of overall expected values (in %) ends with the whole shoe's: "  Total |  -0.33..."
RETURN = re.compile(r"Overall expected value \(%\).*?Total\s*\|\s*(-?\d+\.\d+)", re.DOTALL)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_farmer(program: Path, answers: bytes) -> tuple[float, str]:
    """CPU seconds of one run of his program fed ``answers``, and what it printed."""
    before = children_cpu()
    done = subprocess.run(
        [str(program)], input=answers, capture_output=True, timeout=3600, check=False
    )
    return children_cpu() - before, done.stdout.decode(errors="replace")


def compare_with_farmer(program: Path, answers_file: Path) -> int:
    if not program.is_file():
        print(f"--farmer: no program at {program}", file=sys.stderr)
        return 2
    if not answers_file.is_file():
        print(f"--farmer-input: no answers file at {answers_file}", file=sys.stderr)
        return 2
    answers = answers_file.read_bytes()
    idle, _ = run_farmer(program, b"")
    cpu, out = min(run_farmer(program, answers) for _ in range(REPEATS))
    found = RETURN.findall(out)
    if not found:
        print("Farmer's program printed no 'Overall expected value' table; its output:")
        print(out[-2000:])
        return 1
    his = float(found[-1]) / 100
    solve_rules(FARMER_RULES)  # warm: compiled and cached above
    ours_cpu = min(_cpu(lambda: solve_rules(FARMER_RULES)) for _ in range(REPEATS))
    ours = -solve_rules(FARMER_RULES).edge_cd
    agree = abs(his - ours) < 1e-6
    his_cpu = cpu - idle
    ratio = f"{ours_cpu / his_cpu:.2f}" if his_cpu > 0.01 else "- (his run too short to time)"
    print(
        f"6 decks vs Farmer: EV ours {100 * ours:+.6f}% his {100 * his:+.6f}% "
        f"({'agree' if agree else 'DISAGREE'}); CPU beyond start-up ours {ours_cpu:.3f} s, "
        f"his {his_cpu:.3f} s (ratio ours/his {ratio})"
    )
    return 0 if agree else 1


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--farmer", type=Path, metavar="PATH", help="Farmer's strategy program")
    parser.add_argument("--farmer-input", type=Path, metavar="FILE", help="its stdin answers")
    parser.add_argument("--smoke", action="store_true", help="a tiny run, for CI")
    parser.add_argument("--post-split", default="cdz-", choices=SPLIT_STRATEGIES)
    args = parser.parse_args()
    mode = args.post_split
    smoke = args.smoke
    repeats = 1 if smoke else REPEATS
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; post-split {mode}")
    print(f"{'decks':>6} {'first s':>8} {'best s':>8} {'cpu s':>8}  target")
    for decks in (None, 1) if smoke else (None, 1, 2, 6, 8):
        rules = BlackjackRules(decks=decks)
        solve = functools.partial(solve_rules, rules, post_split=mode)
        first = timed(solve)
        best = min(timed(solve) for _ in range(repeats))
        cpu = min(_cpu(solve) for _ in range(repeats))
        edge = solve()
        target = TARGETS.get(decks)
        against = f"{target:.1f} s ({best / target:.2f}x)" if target else "-"
        name = "inf" if decks is None else str(decks)
        print(
            f"{name:>6} {first:8.3f} {best:8.3f} {cpu:8.3f}  {against}"
            f"   edge CD {100 * edge.edge_cd:+.4f}% TD {100 * edge.edge_td:+.4f}%"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")
    if args.farmer is None:
        print("no --farmer PATH: Farmer's CA not compared (croupier's figures alone)")
        return 0
    if args.farmer_input is None:
        print("--farmer needs --farmer-input FILE (his program's answers)", file=sys.stderr)
        return 2
    return compare_with_farmer(args.farmer, args.farmer_input)


if __name__ == "__main__":
    sys.exit(main())
