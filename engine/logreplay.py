"""Replaying a table's log into a fresh game core, a batch of whole rounds at a time.

A table's play depends only on its game, options, seed, chips and the actions applied, so
its log's ``action`` events, fed back in order, make the core emit every other event again;
each is compared with the log's, so a log that was edited or comes from other options
fails at its first difference. :class:`LogReplay` takes the log in batches of whole rounds
and forgets each batch once it is checked: a table of a million rounds replays in the
memory of one batch (crash recovery reads the journal a page at a time).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from croupier.engine.errors import CroupierError
from croupier.engine.games import Game, GameCore, Plain, Turn
from croupier.engine.scoring import Scorer

DRIVER_EVENTS = ("refused", "default")
"""Events about a player's behaviour rather than the game; a replay does not repeat them."""


def action_event(turn: Turn, action: Plain, round_: int) -> dict[str, Any]:
    """The event that records the action applied for ``turn``."""
    fields = " ".join(f"{k} {v}" for k, v in action.items() if k != "kind")
    said = f"{action.get('kind')} {fields}".strip()
    return {
        "kind": "action",
        "round": round_,
        "seat": turn.seat,
        "action": dict(action),
        "text": f"Seat {turn.seat}: {said}.",
    }


class LogReplay:
    """Feeds a log's actions into ``core`` (fresh from the log's options, seed and chips,
    with ``out`` the list its events go to, what it emitted when it was made included) and
    checks every event it emits against the log's."""

    def __init__(
        self,
        core: GameCore,
        game: Game,
        seats: int,
        out: list[dict[str, Any]],
        options: Plain | None = None,
        *,
        scorer: Scorer | None = None,
    ) -> None:
        self.core = core
        self.scorer = scorer
        """Books every decision replayed, as a scored table's did (a recovered scored
        table: its oracle sees the core's events through the table, and the decisions
        here)."""
        self.options = options
        """The table's options, when known: answers are then checked against the game's
        schema too (:meth:`~croupier.engine.games.Game.refusal`), not only by the core."""
        self.game = game
        self.seats = seats
        self.out = out
        self.checked = 0
        """Events of the log compared so far (over every batch)."""
        self._answers: list[deque[Plain]] = [deque() for _ in range(seats)]

    def feed(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Replay ``events``, the next whole rounds of the log; :class:`CroupierError` names
        the first event that differs, else the core is where the table was after them. The
        core's events of these rounds are then dropped from ``out``."""
        game = self.game
        for event in events:
            if event["kind"] == "action":
                seat = event.get("seat")
                action = event.get("action") if game.action_of is None else game.action_of(event)
                if action is None and game.action_of is not None:
                    continue  # the game's event of an action no turn answered
                if isinstance(seat, bool) or not isinstance(seat, int):
                    raise CroupierError(f"the log names seat {seat!r}, which does not exist")
                if not 1 <= seat <= self.seats:
                    raise CroupierError(f"the log names seat {seat!r}, which does not exist")
                if not isinstance(action, dict):
                    raise CroupierError(f"the log's action for seat {seat} is not a map")
                self._answers[seat - 1].append(action)
        expected = [e for e in events if e["kind"] not in DRIVER_EVENTS]
        record = game.action_of is None
        while len(self.out) < len(expected) and self._round(record):
            pass
        replayed = json.loads(json.dumps(self.out))  # as the log holds them (lists, not tuples)
        for i, (a, b) in enumerate(zip(expected, replayed, strict=False)):
            if a != b:
                at = self.checked + i + 1
                raise CroupierError(f"replay differs at event {at}: log {a}, replay {b}")
        if len(expected) != len(replayed):
            raise CroupierError(
                f"the replay has {self.checked + len(replayed)} events, "
                f"the log {self.checked + len(expected)}"
            )
        self.checked += len(expected)
        self.out.clear()

    def _round(self, record: bool) -> bool:
        core = self.core
        scorer = self.scorer
        if scorer is not None:
            scorer.round_starts()
        flow = core.play_round()
        try:
            turn = next(flow)
            while True:
                queue = self._answers[turn.seat - 1]
                if not queue:
                    raise CroupierError(f"the log has no answer for seat {turn.seat}")
                action = queue.popleft()  # list.pop(0) made a long replay quadratic
                sanctioned = [turn.default] if turn.absent is None else [turn.default, turn.absent]
                if all(action != dict(given) for given in sanctioned):  # the table's own
                    if self.options is None:
                        reason = core.check(turn, action)
                    else:
                        reason = self.game.refusal(self.options, core, turn, action)
                    if reason is not None:
                        raise CroupierError(f"the log's answer for seat {turn.seat}: {reason}")
                if scorer is not None:
                    scorer.decided(core.round, turn, action)
                if record:
                    event = action_event(turn, action, core.round)
                    if scorer is not None:  # the table's own emit showed it to the oracle
                        scorer.see(event)
                    self.out.append(event)
                turn = flow.send(action)
        except StopIteration as stop:
            if scorer is not None:
                scorer.round_ends()
            return bool(stop.value)


def replay_actions(
    core: GameCore,
    game: Game,
    seats: int,
    events: Sequence[Mapping[str, Any]],
    out: list[dict[str, Any]],
    options: Plain | None = None,
) -> None:
    """Replay a whole log's ``events`` (from the table's start, whole rounds) into ``core``
    (see :class:`LogReplay`), in one batch."""
    LogReplay(core, game, seats, out, options).feed(events)
