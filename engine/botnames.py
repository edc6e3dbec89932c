"""Display names for a tournament's entries: every entry told apart in the standings.

Two bots of the same file name in different folders are shown by the shortest trailing
part of their paths that differs (``a/bot.py``, ``b/bot.py``); the same name entered again
is shown as ``name#2``, ``name#3`` ... (:func:`distinct_names`), in the text and JSON
standings and in the logs alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath


def distinct_names(names: Sequence[str]) -> list[str]:
    """``names`` with each repeat suffixed ``#2``, ``#3`` ..., never taking a name given.

    Distinct names come back unchanged, so applying it twice changes nothing.
    """
    given = set(names)
    taken: set[str] = set()
    out: list[str] = []
    for name in names:
        shown = name
        k = 1
        while shown in taken or (shown != name and shown in given):
            k += 1
            shown = f"{name}#{k}"
        taken.add(shown)
        out.append(shown)
    return out


def path_labels(paths: Sequence[PurePath]) -> list[str]:
    """Each path's file name, or where several different paths share a file name, the
    shortest trailing part of the path that tells it from the others (``a/bot.py``).

    The same path given twice gets the same label (:func:`distinct_names` then numbers it).
    """
    labels: list[str] = []
    for path in paths:
        rivals = {p for p in paths if p.name == path.name and p != path}
        k = 1
        while k < len(path.parts) and any(_tail(p, k) == _tail(path, k) for p in rivals):
            k += 1
        labels.append(_tail(path, k))
    return labels


def _tail(path: PurePath, k: int) -> str:
    return "/".join(path.parts[-k:])
