"""Which files under the four source folders are the project's source, as opposed to tests:
a game's own tests (``plugins/<game>/tests/``) live beside it, are collected by pytest
(pyproject's ``testpaths``) and never ship (setup.py leaves them out of the wheel)."""

from __future__ import annotations

from pathlib import Path


def is_test(path: Path, folder: Path) -> bool:
    """Whether ``path`` (below ``folder``) is in a ``tests`` folder."""
    return "tests" in path.relative_to(folder).parts[:-1]


def source_files(folder: Path, pattern: str = "*.py") -> list[Path]:
    """The files below ``folder`` matching ``pattern``, tests left out, in sorted order."""
    return sorted(p for p in folder.rglob(pattern) if not is_test(p, folder))
