"""Where ``croupier serve`` keeps its journal unless told (``--data``): ``$CROUPIER_DATA``
if set (the tests set ``:memory:``), else ``croupier.db`` in the user's data directory,
``$XDG_DATA_HOME/croupier`` (default ``~/.local/share/croupier``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

JOURNAL_NAME = "croupier.db"
DATA_VARIABLE = "CROUPIER_DATA"


def default_journal(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    if env.get(DATA_VARIABLE):
        return env[DATA_VARIABLE]
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "croupier" / JOURNAL_NAME)
