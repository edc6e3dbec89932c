"""Blackjack's logs from before it was a game: ``croupier-table`` table logs and
tournament settings with ``rules`` instead of a game's options. They still replay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine import LegacyLogs, LegacyTable, PluginManager
from croupier.plugins.blackjack.rules import rules_from_log
from croupier.plugins.blackjack.tablelog import LOG_NAME, read_log, replay


def _settings(fields: dict[str, Any]) -> dict[str, Any] | None:
    """Old tournament settings: the rules are the options (an option the log predates takes
    the behaviour it was played with), and the fewest chips to play is the minimum bet."""
    if not isinstance(fields.get("rules"), dict):
        return None
    options = rules_from_log(dict(fields.pop("rules"))).to_dict()
    return fields | {"game": "blackjack", "options": options, "min_chips": options["min_bet"]}


def _table(manager: PluginManager, lines: Sequence[str]) -> LegacyTable | None:
    if not lines or f'"{LOG_NAME}"' not in lines[0]:
        return None
    core = replay(manager, lines)
    header, events = read_log(lines)
    return LegacyTable(
        int(header["seed"]),
        tuple(int(c) for c in header["chips"]),
        rules_from_log(dict(header["rules"])).to_dict(),
        tuple(event.to_dict() for event in events),
        core.ledger,
    )


LEGACY = LegacyLogs(_settings, _table)
