"""Every script in benchmarks/ runs to its end at its smoke size (``--smoke``), so that none
rots unseen between the runs that measure with it. Its figures are not checked here: speed
targets are the benchmarks' own, printed as ratios to a peer measured in the same run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# a script, not a module the scripts share (benchmarks/wsclient.py)
SCRIPTS = sorted(
    p for p in (ROOT / "benchmarks").glob("*.py") if 'if __name__ == "__main__":' in p.read_text()
)
pytestmark = pytest.mark.slow  # each starts croupier afresh, some a server or a compile
BROKEN: dict[str, str] = {}
"""Scripts found broken and not yet mended (stem: why), expected to fail strictly, so that a
mend must drop its line."""


def test_the_benchmarks_are_found():
    assert {"kernel.py", "tables.py", "protocol.py"} <= {p.name for p in SCRIPTS}


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(p, marks=pytest.mark.xfail(reason=BROKEN[p.stem], strict=True))
        if p.stem in BROKEN
        else p
        for p in SCRIPTS
    ],
    ids=lambda p: p.stem,
)
def test_every_benchmark_runs_at_its_smoke_size(script: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(script), "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,  # a hang fails the test rather than the whole run
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert proc.returncode == 0, (
        f"{script.name} --smoke:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    )
    assert proc.stdout.strip(), f"{script.name} --smoke printed nothing"
