"""Packaging guards: every package is installed, every built-in plugin is registered."""

from __future__ import annotations

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


def test_every_package_directory_is_listed():
    listed = set(pyproject()["tool"]["setuptools"]["packages"])
    found = set()
    for folder, package in TOP.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *rel)))
    assert found == listed


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
