"""Where ``croupier serve`` keeps its journal unless told (``--data``): ``$CROUPIER_DATA``
if set (the tests set ``:memory:``), else ``croupier.db`` in the user's data directory,
``$XDG_DATA_HOME/croupier`` (default ``~/.local/share/croupier``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from croupier.engine import CroupierError

JOURNAL_NAME = "croupier.db"
DATA_VARIABLE = "CROUPIER_DATA"


def default_journal(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    if env.get(DATA_VARIABLE):
        return env[DATA_VARIABLE]
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "croupier" / JOURNAL_NAME)


def writable_journal(data: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The journal a command writes: the default (its folder made if missing) when ``data``
    is None, else ``data`` as given, whose folder must exist: a mistyped ``--data`` is one
    line, not a new empty journal somewhere unexpected."""
    if data is None:
        path = default_journal(environ)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return path
    folder = Path(data).parent
    if data != ":memory:" and not folder.is_dir():
        raise CroupierError(f"--data {data}: no folder {folder} (create it, or check the path)")
    return data
