"""Solutions kept on disk for reuse: an exact solve that takes seconds or minutes (a
basic-strategy chart, a set of count indices) is done once per problem and machine.

A solution is plain JSON data kept under a hash of its key, croupier's version and a
digest of the source of the package that computes it, so a changed rule set or a changed
solver never answers from an older entry. The files are in ``$XDG_CACHE_HOME/croupier/
solves`` (default ``~/.cache/croupier/solves``; ``$CROUPIER_CACHE`` names another folder);
deleting them only costs time. An entry that cannot be read or decoded is solved again
and rewritten (with a warning when it was there but corrupt); a folder that cannot be
written is no cache. Entries are written whole (a temporary file, then ``os.replace``), so
two processes solving at once never read half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from croupier.engine.errors import CroupierError
from croupier.engine.version import __version__

CACHE_VARIABLE = "CROUPIER_CACHE"

T = TypeVar("T")

log = logging.getLogger("croupier.cache")


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$CROUPIER_CACHE`` if set (the tests set one of their own), else ``solves`` in
    the user's cache directory, ``$XDG_CACHE_HOME/croupier`` (default ``~/.cache``)."""
    env = os.environ if environ is None else environ
    if env.get(CACHE_VARIABLE):
        return Path(env[CACHE_VARIABLE])
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "croupier" / "solves"


def package_of(module: str) -> str:
    """The package whose source a solver's answers depend on: a plugin's package for a
    module in ``croupier.plugins``, else the top-level package."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[:2] == ["croupier", "plugins"] else parts[:1])


@cache
def source_digest(package: str) -> str:
    """A digest of the ``.py`` source of an imported ``package`` (once per process: the
    source of a running process does not change under it)."""
    digest = hashlib.sha256()
    where = getattr(sys.modules.get(package), "__file__", None)
    if where is not None:
        for path in sorted(Path(where).parent.rglob("*.py")):
            digest.update(path.as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def entry_path(name: str, code: str, key: Any) -> Path:
    """Where the solution of ``key`` by solver ``name`` (source digest ``code``) is kept."""
    text = json.dumps([__version__, name, code, key], sort_keys=True, default=str)
    return cache_dir() / f"{hashlib.sha256(text.encode()).hexdigest()}.json"


def reuse(
    name: str,
    code: str,
    key: Any,
    compute: Callable[[], Any],
    decode: Callable[[Any], T],
    *,
    fresh: bool = False,
) -> tuple[T, bool]:
    """``decode(compute())``, or ``decode`` of the plain data kept for ``key`` (solver
    ``name`` with source digest ``code``); whether it was reused. ``compute`` returns
    plain JSON data; ``decode`` raises :class:`CroupierError` (or ``ValueError``) for data it
    cannot use, which is then solved again. ``fresh`` solves again (and keeps the new solution)."""
    path = entry_path(name, code, key)
    if not fresh:
        try:
            kept = path.read_bytes()
        except OSError:
            pass  # no entry yet (or none this user may read): solve it
        else:
            try:
                return decode(json.loads(kept.decode("utf-8"))), True
            except (CroupierError, ValueError, TypeError, KeyError, AttributeError) as error:
                log.warning("ignoring the corrupt cache entry %s (%s): solving again", path, error)
    solution = compute()
    value = decode(solution)
    _keep(path, solution)
    return value, False


def _keep(path: Path, solution: Any) -> None:
    """Write ``solution`` to ``path`` whole or not at all (a folder that cannot be written
    is no cache)."""
    partial = path.with_suffix(f".{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(solution), encoding="utf-8")
        os.replace(partial, path)  # whole or not at all, even with two solves at once
    except (OSError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
