"""The flat round body of this checkout against the same file at a git revision, in turns.

    .venv/bin/python benchmarks/round_body_turns.py [--against REV] [--rounds N] [--turns T]

A change to ``plugins/blackjack/kernel/round_body.py`` that should not cost flat speed (a
refactor) is timed here: both files' flat instances (``make_chunk(False)``) play the same
chunks, first checked to end with the same totals, then in alternating turns, each figure
the best of its turns in CPU time, for ``lim17`` and ``basic`` at vegas-s17, one seat.
Both compile into a fresh numba cache (the revision's file is loaded under another name,
with the checkout's helpers). ``--against HEAD`` with an unchanged file times equal bodies:
the ratio's noise on this machine right now, printed beside ``uptime``'s load.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

BODY = "plugins/blackjack/kernel/round_body.py"
ROOT = Path(__file__).resolve().parent.parent


def flat_chunk(path: Path, name: str) -> Callable[..., Any]:
    """The flat instance of the round body in ``path``, imported as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_chunk(False)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="HEAD", help="git revision (default HEAD)")
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--smoke", action="store_true", help="tiny run (the tests' check)")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.turns = 20_000, 2
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "round_body_then.py"
        shown = subprocess.run(
            ["git", "show", f"{args.against}:{BODY}"], cwd=ROOT, capture_output=True
        )
        if shown.returncode != 0:
            parser.error(f"no {BODY} at revision {args.against!r}")
        old.write_bytes(shown.stdout)
        os.environ["NUMBA_CACHE_DIR"] = str(Path(tmp) / "cache")
        run(flat_chunk(old, "round_body_then"), flat_chunk(ROOT / BODY, "round_body_now"), args)


def run(then: Callable[..., Any], now: Callable[..., Any], args: argparse.Namespace) -> None:
    from croupier.engine import PluginManager
    from croupier.plugins.blackjack.kernel.count_kernel import BUCKETS
    from croupier.plugins.blackjack.kernel.true_count import PARAMS_LEN
    from croupier.plugins.blackjack.strategy import local_strategy

    manager = PluginManager()
    rules = manager.rule_sets.get("vegas-s17").rules
    p = np.zeros(PARAMS_LEN, np.float64)
    print(f"{args.rounds:,} rounds, best of {args.turns} turns, CPU time, hands/s:")
    for name in ("lim17", "basic"):
        strategy = local_strategy(manager, name, rules)
        job = manager.sim_kernels.get("blackjack").prepare(manager, rules, strategy, 1)
        rule_vector, chart, seats = job.data  # type: ignore[union-attr]
        fixed = (np.asarray(rule_vector, np.int64), np.asarray(chart, np.int64), np.uint64(7))
        rest = (
            seats, p, np.zeros(52, np.int64), np.zeros(BUCKETS, np.int64),
            np.full(660, -1, np.int64), np.zeros(660, np.int64), np.zeros((1, 2), np.float64),
            np.zeros((1, 18), np.int64), p, np.zeros(1, np.int64), np.zeros(1, np.int64), -1, 0,
            False, False,
        )  # fmt: skip
        check = 100_000
        assert list(then(*fixed, check, *rest)) == list(now(*fixed, check, *rest)), name
        best = {"then": float("inf"), "now": float("inf")}
        for turn in range(args.turns):
            order = [("then", then), ("now", now)]
            for label, chunk in order if turn % 2 == 0 else order[::-1]:
                start = time.process_time()
                chunk(*fixed, args.rounds, *rest)
                best[label] = min(best[label], time.process_time() - start)
        print(
            f"  {name}: {args.against} {args.rounds / best['then']:,.0f}, "
            f"this checkout {args.rounds / best['now']:,.0f}, "
            f"ratio {best['then'] / best['now']:.3f} (same totals; load {os.getloadavg()[0]:.1f})"
        )


if __name__ == "__main__":
    main()
