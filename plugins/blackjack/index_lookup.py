"""``--indices FILE|NAME`` and ``--only``: index tables from CSV files or from the index sets
plugins contribute (``croupier_index_sets``, a blackjack family: its Hi-Lo Illustrious 18, Fab 4
and generated set, or any third party's), found by name through the plugin manager."""

from __future__ import annotations

from pathlib import Path

from croupier.engine import CroupierError, PluginManager, UnknownNameError
from croupier.plugins.blackjack.indices import IndexEntry, IndexSet, read_indices


def index_set(manager: PluginManager, name: str, count: str | None = None) -> IndexSet:
    """The set called ``name`` (an unknown name lists the known ones); with ``count``,
    a set made for another count system is refused (its indices read another true count)."""
    found: IndexSet = manager.index_sets.get(name)
    if count is not None and found.count != count:
        raise CroupierError(f"index set {name!r} is for the {found.count} count, not {count}")
    return found


def index_entries(
    manager: PluginManager, spec: str, *, count: str | None = None, option: str = "--indices"
) -> tuple[IndexEntry, ...]:
    """The entries of comma-separated index set names and index CSV files, each decision
    once. A name of an installed set wins over a file of that name; a part that is
    neither is an error listing the known sets."""
    out: list[IndexEntry] = []
    seen: set[tuple[str, str, str]] = set()
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if part in manager.index_sets:
            entries = list(index_set(manager, part, count).entries)
        else:
            entries = read_file(manager, part, option)
        for e in entries:
            if e.key in seen:
                raise CroupierError(f"{option}: {' '.join(e.key)} is given twice")
            seen.add(e.key)
            out.append(e)
    return tuple(out)


def read_file(manager: PluginManager, part: str, option: str) -> list[IndexEntry]:
    """An index CSV file's entries; no such file is an error naming the known sets."""
    path = Path(part)
    if not path.is_file():
        known = manager.index_sets.names()
        if "/" in part or part.endswith(".csv") or path.exists():
            raise CroupierError(
                f"{option} {part}: no such file (or not a file); index sets: {', '.join(known)}"
            )
        error = UnknownNameError("index set", part, known)
        raise CroupierError(f"{option}: {error} (or give an index CSV file)") from None
    try:
        return read_indices(path.read_text())
    except OSError as exc:
        raise CroupierError(f"{option} {part}: {exc.strerror}") from None
    except CroupierError as exc:
        raise CroupierError(f"{option} {part}: {exc}") from None
