"""The installed entry points of a group, kept for the process while nothing is installed
or removed: finding them reads and parses every installed distribution's metadata (about
40 ms), and a test run makes over a thousand plugin managers, each command three."""

from __future__ import annotations

import os
import sys
from importlib import metadata
from typing import NamedTuple


class Found(NamedTuple):
    """An entry point and the name and version of the distribution that declares it."""

    ep: metadata.EntryPoint
    distribution: str | None
    version: str | None


def described(ep: metadata.EntryPoint) -> Found:
    """``ep`` with its distribution's name and version (its metadata parsed once)."""
    if ep.dist is None:
        return Found(ep, None, None)
    meta = ep.dist.metadata
    return Found(ep, meta["Name"], meta["Version"])


_installed: dict[tuple[object, ...], tuple[Found, ...]] = {}


def installed(group: str) -> tuple[Found, ...]:
    """The installed entry points of ``group``, described. Finding them reads and parses
    every installed distribution's metadata (about 40 ms; a test run makes over a thousand
    managers, and each command three), so they are kept for the process while ``sys.path``
    and the modification times of its folders stay as they were: installing or removing a
    distribution changes its folder's (importlib.metadata's own cache keys on the same)."""
    folders = [os.path.abspath(entry) for entry in sys.path]  # "" is the working folder
    key = (group, *((folder, mtime(folder)) for folder in folders))
    if key not in _installed:
        eps = metadata.entry_points(group=group)
        _installed.clear()
        _installed[key] = tuple(described(ep) for ep in eps)
    return _installed[key]


def mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
