"""benchmarks/blackjack_solver.py --farmer reads the whole shoe's expected value where Eric
Farmer's strategy program writes it: the Total row of its table of overall expected values
(in %), after the table of each upcard's; a run that wrote no such table gives nothing."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

# the shape his program writes (one row an upcard, then the total), numbers made up
TABLE = """
    Up  |
   card | Overall expected value (%)
---------------------------------
     2  |    9.267505837
    10  |  -17.100669448
     A  |  -34.101749494
---------------------------------
  Total |   -0.330268037
"""


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "blackjack_solver_benchmark", ROOT / "benchmarks" / "blackjack_solver.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_total_row_is_read_not_an_upcards():
    found = _benchmark().RETURN.findall("Enter output filename: \n" + TABLE)
    assert [float(x) for x in found] == [-0.330268037]


def test_output_without_the_table_gives_nothing():
    assert _benchmark().RETURN.findall("Total | -1.0\nexpected return -0.5 %\n") == []
