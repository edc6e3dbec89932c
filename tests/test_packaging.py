"""Packaging guards: every package is installed, every built-in plugin is registered."""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from tests.sources import source_files

ROOT = Path(__file__).resolve().parent.parent
TOP = {
    "engine": "croupier.engine",
    "plugins": "croupier.plugins",
    "protocol": "croupier.protocol",
    "clients": "croupier.clients",
}


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def shipped_files() -> dict[str, list[Path]]:
    """Every file that belongs in the wheel but is not Python source, by the package its
    folder installs as (caches and bytecode left out)."""
    files: dict[str, list[Path]] = {}
    for folder, package in TOP.items():
        for path in source_files(ROOT / folder, "*"):
            rel = path.relative_to(ROOT / folder)
            if path.is_dir() or "__pycache__" in rel.parts or path.suffix in (".py", ".pyc"):
                continue
            files.setdefault(".".join((package, *rel.parent.parts)), []).append(path)
    return files


@pytest.mark.slow
def test_a_built_wheel_ships_every_module_and_data_file(tmp_path):
    """Packages are found, not listed (setup.py): a wheel built from a copy of the tree
    carries every module and data file of the four folders, a web page or index table in
    a new folder included, with no edit to pyproject.toml (issue 29)."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in TOP:
        shutil.copytree(ROOT / folder, source / folder, ignore=IGNORED)
    added = source / "plugins" / "newgame" / "web"
    added.mkdir(parents=True)
    (source / "plugins" / "newgame" / "__init__.py").write_text('"""A game added."""\n')
    (added / "newgame.js").write_text("// its page\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), "."],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("croupier-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "/".join(("croupier", *path.relative_to(source).parts))
        for folder in TOP
        for path in source_files(source / folder, "*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert "croupier/plugins/newgame/web/newgame.js" in expected
    assert expected - shipped == set()
    assert [name for name in shipped if "/tests/" in name] == []  # a game's tests stay home


@pytest.mark.slow
def test_a_games_own_tests_beside_it_are_collected():
    """A plain ``pytest`` collects the tests under ``plugins/<game>/tests/`` (pyproject's
    ``testpaths``) with the project's fixtures (the root conftest.py), as it does tests/."""
    found = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-m", ""],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    beside = {line.split("::")[0] for line in found.splitlines() if line.startswith("plugins/")}
    expected = {
        str(path.relative_to(ROOT)) for path in (ROOT / "plugins").glob("*/tests/test_*.py")
    }
    assert "plugins/baccarat/tests/test_baccarat.py" in expected
    assert beside == expected
    assert "tests/test_layering.py::" in found


IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")


def test_every_data_file_is_package_data():
    """Each web page, script, style sheet and table matches the ``package-data`` patterns
    (the wheel test above builds one; this is the quick look for the fast tier)."""
    patterns = pyproject()["tool"]["setuptools"]["package-data"]["*"]
    missing = [
        str(path.relative_to(ROOT))
        for paths in shipped_files().values()
        for path in paths
        if not any(fnmatch.fnmatch(path.name, p) for p in patterns)
    ]
    assert not missing


def test_builtin_plugins_are_entry_points_of_croupier():
    declared = pyproject()["project"].get("entry-points", {}).get("croupier", {})
    installed = {
        ep.name: ep.value
        for ep in metadata.entry_points(group="croupier")
        if ep.dist is not None and ep.dist.name == "croupier"
    }
    assert installed == declared, "reinstall with: pip install -e '.[test]'"
    plugin_modules = {
        "croupier.plugins." + p.stem
        for p in (ROOT / "plugins").glob("*.py")
        if p.stem != "__init__" and "hookimpl" in p.read_text()
    }
    plugin_modules |= {
        "croupier.plugins." + p.parent.name
        for p in (ROOT / "plugins").glob("*/__init__.py")
        if "hookimpl" in p.read_text()
    }
    assert plugin_modules <= set(declared.values())
