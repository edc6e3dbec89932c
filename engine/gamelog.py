"""A game table's history as JSON lines, its replay, and the tally of its seats.

The first line is a header (``{"log": "croupier-game-table", "version": 1, "game": ...,
"options": {...}, "seed": ..., "chips": [...]}``), then every public event of the table,
one per line. The table says which action it applied for each turn in an ``action``
event (``{"kind": "action", "round", "seat", "action": {...}}``, the answer after checks,
time limits and defaults), so replaying those actions from the seed reproduces every event
of the game and therefore the ledger (a game whose own events record its actions, as
blackjack's do, gives :attr:`~croupier.engine.games.Game.action_of` to read them back).
``refused`` and ``default`` events record how the original players behaved; a replay does
not repeat them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import IO, TYPE_CHECKING, Any

import attrs

from croupier.engine.errors import CroupierError
from croupier.engine.games import Game, GameCore, Plain
from croupier.engine.logreplay import DRIVER_EVENTS, action_event, replay_actions

__all__ = ["DRIVER_EVENTS", "action_event", "replay_actions"]  # re-exported, as before

if TYPE_CHECKING:
    from croupier.engine.gametable import GameTable
    from croupier.engine.manager import PluginManager

LOG_NAME = "croupier-game-table"
LOG_VERSION = 1


@attrs.define
class GameTally:
    """Rounds played (a round in which the seat was asked), faults (defaults given) and
    decisions (actions applied) per seat, counted from a table's events: as they happen,
    or from a log when it is replayed."""

    hands: list[int]
    faults: list[int]
    decisions: int = 0
    played: Callable[[Plain], int | None] | None = None
    """The game's :attr:`~croupier.engine.games.Game.played_round`, if it has one."""
    _round: Any = None
    """The round of the latest event counted; rounds come in order, so only its seats
    (:attr:`_seats`) need remembering (a set of every round's seats grew with the table)."""
    _seats: set[int] = attrs.field(factory=set)
    _roundless: set[int] = attrs.field(factory=set)

    @classmethod
    def of(cls, seats: int, game: Game | None = None) -> GameTally:
        return cls([0] * seats, [0] * seats, played=game.played_round if game else None)

    def add(self, event: Mapping[str, Any]) -> None:
        played = self.played
        if played is not None:
            seat = played(event)
            if seat is not None:
                self._count_round(seat, event)
        kind = event.get("kind")
        if kind != "action" and kind != "default":  # every table's event comes here: quick
            return
        seat = event.get("seat")
        if not isinstance(seat, int) or not 1 <= seat <= len(self.hands):
            return
        if kind == "default":
            self.faults[seat - 1] += 1
        else:
            self.decisions += 1
            if played is None:
                self._count_round(seat, event)

    def save(self) -> dict[str, Any]:
        """The tally as plain data (a table's checkpoint; :meth:`restore`)."""
        return {
            "hands": list(self.hands),
            "faults": list(self.faults),
            "decisions": self.decisions,
            "round": self._round,
            "seats": sorted(self._seats),
            "roundless": sorted(self._roundless),
        }

    def restore(self, state: Mapping[str, Any]) -> None:
        """Take the counts :meth:`save` gave for a table of as many seats."""
        try:
            hands, faults = [int(n) for n in state["hands"]], [int(n) for n in state["faults"]]
            decisions = int(state["decisions"])
            seats = {int(s) for s in state["seats"]}
            roundless = {int(s) for s in state["roundless"]}
            round_ = state["round"]
        except (KeyError, TypeError, ValueError) as exc:
            raise CroupierError(f"the saved tally is malformed: {exc!r}") from None
        if len(hands) != len(self.hands) or len(faults) != len(self.faults):
            raise CroupierError(f"the saved tally is not of {len(self.hands)} seats")
        self.hands, self.faults, self.decisions = hands, faults, decisions
        self._round, self._seats, self._roundless = round_, seats, roundless

    def _count_round(self, seat: int | None, event: Mapping[str, Any]) -> None:
        if seat is None or not 1 <= seat <= len(self.hands):
            return
        round_ = event.get("round")
        if round_ is None:  # an event of no round (none of ours): counted once a seat
            seats = self._roundless
        else:
            if round_ != self._round:
                self._round = round_
                self._seats.clear()
            seats = self._seats
        if seat not in seats:
            seats.add(seat)
            self.hands[seat - 1] += 1


def game_log_header(table: GameTable) -> dict[str, Any]:
    return {
        "log": LOG_NAME,
        "version": LOG_VERSION,
        "game": table.game.name,
        "options": table.options,
        "seed": table.seed,
        "chips": table.starting_chips,
    }


class GameEventLog:
    """A table listener writing the header, then every event, as JSON lines to ``out``."""

    def __init__(self, table: GameTable, out: IO[str]) -> None:
        self.out = out
        out.write(json.dumps(game_log_header(table)) + "\n")
        table.listeners.append(self)

    def __call__(self, event: Mapping[str, Any]) -> None:
        self.out.write(json.dumps(event) + "\n")


def read_json_log(
    lines: Iterable[str], name: str, version: int, what: str
) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
    """A JSON-lines log's header (checked for ``name`` and ``version``) and its other
    lines with their numbers (one-line errors for anything malformed; ``what`` names the
    kind of log in them)."""
    header: dict[str, Any] | None = None
    items: list[tuple[int, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CroupierError(f"line {number} of the log is not JSON: {exc.msg}") from None
        if header is not None:
            items.append((number, data))
        elif not isinstance(data, dict) or data.get("log") != name:
            raise CroupierError(f"not a croupier {what} log (no header line)")
        elif data.get("version") != version:
            raise CroupierError(f"unsupported {what} log version {data.get('version')!r}")
        else:
            header = data
    if header is None:
        raise CroupierError("the table log is empty")
    return header, items


def read_game_log(lines: Iterable[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and events of a game table's log (one-line errors for anything
    malformed)."""
    header, items = read_json_log(lines, LOG_NAME, LOG_VERSION, "game table")
    for number, data in items:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise CroupierError(f"line {number} of the log is not an event (a map with a kind)")
    return header, [data for _, data in items]


def replay_game(manager: PluginManager, lines: Iterable[str]) -> GameCore:
    """Replay a game table's log from its seed and its actions; the replayed core (its
    ``ledger`` is the point). Raises :class:`CroupierError` naming the first event that
    differs, so a log that was edited or comes from other options is caught."""
    header, events = read_game_log(lines)
    if "seed" in header and header["seed"] is None:
        raise CroupierError(
            "the log has no seed: it was exported while its table was still playing, and a "
            "live table's seed is revealed only once it finishes (export it again then)"
        )
    try:
        game = manager.games.get(str(header["game"]))
        options = game.rules(None, dict(header["options"]))
        seed = int(header["seed"])
        chips = [int(c) for c in header["chips"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise CroupierError(f"bad game table log header: {exc}") from None
    replayed: list[dict[str, Any]] = []
    core = game.new_core(options, seed, chips, replayed.append)
    replay_actions(core, game, len(chips), events, replayed, options)
    return core
