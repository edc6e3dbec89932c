"""Every script in benchmarks/ answers ``--help`` with its usage, as a newcomer's first try
of a benchmark (issue 32's reviewers run ``--help`` before a smoke run): a script that read
``sys.argv`` by hand took ``--help`` for a count and ended in a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.test_benchmarks import ROOT, SCRIPTS

pytestmark = pytest.mark.slow  # each imports croupier afresh


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_every_benchmark_answers_help_with_its_usage(script):
    proc = subprocess.run(
        [sys.executable, str(script), "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stdout.startswith("usage: "), proc.stdout[:500]
