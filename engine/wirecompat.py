"""What a game whose wire and logs predate the engine's game interface keeps of them.

Blackjack was served, logged and played by bots before games were plugins; to keep those
bots, logs and command lines working unchanged it gives its
:attr:`~croupier.engine.games.Game.compat` a :class:`WireCompat`. A new game needs none:
its bots answer action maps, the table records each action in an ``action`` event, it
has no old logs, and its tables and tournaments play its defaults unless told otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from croupier.engine.legacylogs import LegacyLogs

PlainMap = Mapping[str, Any]


@attrs.frozen
class WireCompat:
    """A game's compatibility with its own wire format from before it was a game."""

    read_action: Callable[[object], PlainMap] | None = None
    """Reads a remote bot's answer into an action map, for a game whose bots may answer in
    shorthand (blackjack's ``"hit"``, ``"bet 10"``); raises ``CroupierError`` with one
    line. None: the answer must be an action map already."""
    auto_phases: Mapping[str, Callable[[PlainMap], PlainMap]] = attrs.field(factory=dict)
    """Phases (``Turn.phase``) a remote bot may leave to the server, and the answer the
    server gives for it from the observation, with no round trip."""
    action_of: Callable[[PlainMap], PlainMap | None] | None = None
    """None: a table records each action it applies in an ``action`` event of its own. A
    game whose core already emits an ``action`` event for each action it applies (and whose
    clients read those) gives this instead: it reads the applied action back from such an
    event (None for one that answered no turn); a table then adds none."""
    legacy: LegacyLogs | None = None
    """How the game reads logs written before it was a game (None: there are none)."""
    table_rule_set: str | None = None
    """The rule set a table plays when none is named (None: the game's defaults)."""
    tournament_rule_set: str | None = None
    """The rule set a tournament plays when none is named (None: :attr:`table_rule_set`)."""
    stakes: tuple[str, ...] = ()
    """Ledger reasons besides ``bet...`` under which the game takes stakes (blackjack's
    ``double``, ``split``, ``insurance``, ``raise``: its ``chips`` events name them)."""
