"""benchmarks/protocol.py reads its servers' logs to the end: a server logs a line per
connection opened and closed, and a pipe nobody read stopped it (and the run) once full,
after a few hundred connections."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

CHATTY = """
import sys
print("listening on 127.0.0.1:4321", file=sys.stderr, flush=True)
for i in range(20_000):  # about 1.4 MB, twenty times a pipe's buffer
    print(f"connection #{i} opened and closed: closed by peer", file=sys.stderr)
"""


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "protocol_benchmark", ROOT / "benchmarks" / "protocol.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_server_logging_after_it_listens_is_never_held_by_the_pipe():
    proc, port = _benchmark().start([sys.executable, "-c", CHATTY])
    assert port == 4321
    assert proc.wait(timeout=120) == 0  # (a guard: held by a full pipe, it never ends)
