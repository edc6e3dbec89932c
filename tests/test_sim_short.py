"""A short simulation never loads compiled code: the plugins register without importing
the solver or numba, and a run of a few thousand hands plays the kernel's chunk on the
round engine (the same totals: tests/test_kernel.py), so ``croupier sim --hands 1000``
starts in a fraction of a second once its chart is cached (benchmarks/sim_startup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

HEAVY = "('numba', 'scipy')"

PROBE = f"""
import json, sys
from croupier.clients.cli.main import main
status = main(sys.argv[1:])
print(json.dumps([status, sorted(m for m in {HEAVY} if m in sys.modules)]))
"""


def run_cli(*argv: str, cache: str) -> tuple[int, list[str], str]:
    env = {**os.environ, "CROUPIER_CACHE": cache}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env, check=False
    )
    *printed, last = done.stdout.strip().splitlines()
    status, loaded = json.loads(last)
    return status, loaded, "\n".join(printed)


def test_registering_the_plugins_imports_no_solver_and_no_numba():
    probe = (
        "import sys\nfrom croupier.engine import PluginManager\nm = PluginManager()\n"
        "assert m.oracles.get('blackjack') and m.solvers.get('blackjack')\n"
        f"print(sorted(m for m in {HEAVY} if m in sys.modules))"
    )
    assert subprocess.check_output([sys.executable, "-c", probe], text=True).strip() == "[]"


def test_a_short_run_loads_no_compiled_code(tmp_path):
    cache = str(tmp_path)
    argv = ("sim", "--strategy", "basic", "--hands", "1000", "--seed", "4", "--json")
    status, loaded, _ = run_cli(*argv, cache=cache)  # solves the chart: numba
    assert status == 0 and "numba" in loaded
    status, loaded, out = run_cli(*argv, cache=cache)  # the chart from the cache
    assert status == 0 and loaded == []
    short = json.loads(out)
    assert short["hands"] == 1000 and short["conserved"] and not short["partial"]
