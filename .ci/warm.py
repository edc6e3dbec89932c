"""Compile croupier's numba kernels once into the checkout's cache (each module's
``__pycache__``), before the full test tier: on an empty cache the suite's two xdist
workers, and the ``croupier`` processes its tests start, would each compile the same
kernels (the flat simulator alone is ~14 s of CPU; these four ~60 s). `.ci/run` runs this
beside lint and type-checking, which use one core. Nothing here is checked: a failure is
the tests' to report, so this only says it on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent
SMALL = ("--hands", "100000", "--seed", "1", "--workers", "1")
BY_SIM = ("--indices", "hilo", "--only", "stand 16 T", "--by-sim")
COMMANDS = (
    ("sim", *SMALL),  # the flat kernel
    ("sim", "--count", "hilo", "--indices", "hilo-i18", *SMALL),  # counting, index plays
    ("solve", "blackjack", "--decks", "2", "--chart"),  # the exact solver's dealer and stand
    ("solve", "blackjack", "--decks", "1", *BY_SIM, *SMALL),  # the index measurement kernel
)
VECTOR = (  # the vector env's step, every table at once
    "from croupier.clients.envs.vector_env import BlackjackVector\n"
    "env = BlackjackVector(2, rules='vegas-s17')\n"
    "env.reset(seed=1)\n"
    "for _ in range(50):\n"
    "    env.step(env.chart_actions())\n"
)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="croupier-warm-") as tmp:
        # solutions kept for reuse and data go to a folder of this run, not the user's
        env = {**os.environ, "CROUPIER_CACHE": tmp, "CROUPIER_DATA": ":memory:"}
        runs = [[str(BIN / "croupier"), *command] for command in COMMANDS]
        runs.append([sys.executable, "-c", VECTOR])
        failed = 0
        for run in runs:
            done = subprocess.run(run, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                failed += 1
                last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                print(f".ci/warm.py: {' '.join(run[1:3])} failed: {last}", file=sys.stderr)
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
