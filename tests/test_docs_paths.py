"""Every test and benchmark script the pages name exists: a reader sent to a file that was
renamed or never written (docs/development.md named ``tests/test_readme_commands.py``, where
the README's commands are run by ``tests/test_docs_commands.py``) finds nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "benchmarks" / "RESULTS.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
NAMED = re.compile(r"\b(?:plugins/\w+/)?(?:tests|benchmarks)/[\w./-]+\.py\b")
"""A test or benchmark named by path, a game's own tests (``plugins/<game>/tests/``) whole."""


def test_every_test_and_benchmark_a_page_names_exists():
    missing = [
        f"{page.relative_to(ROOT)} names {name}"
        for page in PAGES
        for name in sorted(set(NAMED.findall(page.read_text())))
        if not (ROOT / name).exists()
    ]
    assert not missing, "\n".join(missing)
