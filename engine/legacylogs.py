"""Logs written before a game was a game: how a game reads them, so they still replay.

A game that had a log format of its own before game tables existed (blackjack's
``croupier-table`` logs and its tournaments' ``rules`` settings) gives its
:attr:`~croupier.engine.games.Game.legacy` a :class:`LegacyLogs`; a tournament log's replay
asks each game's in turn. A new game needs none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from croupier.engine.ledger import Ledger

if TYPE_CHECKING:
    from croupier.engine.manager import PluginManager


@attrs.frozen
class LegacyTable:
    """An old table log replayed: its seed, starting chips and options (as the game's
    options today), its events as plain data, and the replayed ledger."""

    seed: int
    chips: tuple[int, ...]
    options: dict[str, Any]
    events: tuple[Mapping[str, Any], ...]
    ledger: Ledger


@attrs.frozen
class LegacyLogs:
    """``settings(fields)``: an old tournament's settings as today's (with ``game`` and
    ``options``), or None when they are not this game's old form. ``table(manager,
    lines)``: an old table log of this game replayed (raises ``CroupierError``), or None
    when the lines are not one."""

    settings: Callable[[dict[str, Any]], dict[str, Any] | None]
    table: Callable[[PluginManager, Sequence[str]], LegacyTable | None]


def upgrade_settings(manager: PluginManager, data: Any) -> Any:
    """A tournament's settings, with an old form read by the game that wrote it."""
    if not isinstance(data, Mapping) or "game" in data:
        return data
    for game in manager.games:
        if game.legacy is not None and (fields := game.legacy.settings(dict(data))) is not None:
            return fields
    return data
