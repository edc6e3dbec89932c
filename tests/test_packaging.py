"""Packaging guards: every package is installed, every built-in plugin is registered."""

from __future__ import annotations

import fnmatch
import tomllib
from importlib import metadata
from pathlib import Path

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
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT / folder)
            if path.is_dir() or "__pycache__" in rel.parts or path.suffix in (".py", ".pyc"):
                continue
            files.setdefault(".".join((package, *rel.parent.parts)), []).append(path)
    return files


def test_every_package_directory_is_listed():
    """Folders of Python modules and folders of data files (web pages, index tables) alike:
    setuptools warns about every folder left out of ``packages`` (issue 34)."""
    listed = set(pyproject()["tool"]["setuptools"]["packages"])
    found = set(shipped_files())
    for folder, package in TOP.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *rel)))
    assert found == listed


def test_every_data_file_is_package_data():
    """Each web page, script, style sheet and table matches its own package's
    ``package-data`` patterns, so a wheel (not only an editable install) carries it."""
    patterns = pyproject()["tool"]["setuptools"]["package-data"]
    missing = [
        str(path.relative_to(ROOT))
        for package, paths in shipped_files().items()
        for path in paths
        if not any(fnmatch.fnmatch(path.name, p) for p in patterns.get(package, []))
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
