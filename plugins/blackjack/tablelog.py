"""Reading and replaying blackjack's ``croupier-table`` logs, written before it was a game.

Tables now write the engine's game table logs (:mod:`~croupier.engine.gamelog`); these older
logs still replay (:mod:`~croupier.plugins.blackjack.legacy`). The first line is a header
(``{"log": "croupier-table", "version": 1, "seed": ..., "rules": {...}, "chips": [...]}``),
then one :class:`~croupier.plugins.blackjack.play.Event` per
line (``Event.to_dict``). The seed fixes every card, and the ``action`` events record every
answer the table applied (after validation, time limits and defaults), so replaying the
actions from the seed reproduces every event and therefore the ledger. ``refused`` and
``default`` events record how the original players behaved; a replay does not repeat them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from croupier.engine import DRIVER_EVENTS, CroupierError, PluginManager, read_json_log
from croupier.plugins.blackjack.building import build_core
from croupier.plugins.blackjack.play import Action, Event
from croupier.plugins.blackjack.round import SIT_OUT, TableCore, check_action
from croupier.plugins.blackjack.rules import rules_from_log

LOG_NAME = "croupier-table"
LOG_VERSION = 1


def read_log(lines: Iterable[str]) -> tuple[dict[str, Any], list[Event]]:
    """The header and events of a log (one-line errors for anything malformed)."""
    header, items = read_json_log(lines, LOG_NAME, LOG_VERSION, "table")
    events: list[Event] = []
    for number, data in items:
        try:
            events.append(Event.from_dict(data))
        except CroupierError as exc:
            raise CroupierError(f"line {number} of the log: {exc}") from None
    return header, events


def replay(manager: PluginManager, lines: Iterable[str]) -> TableCore:
    """Replay a log from its seed and its actions; the replayed round engine (its
    ``ledger`` is the point).

    Raises :class:`CroupierError` naming the first event that differs, so a log that was
    edited, or comes from different rules or another version of croupier, is caught.
    """
    header, events = read_log(lines)
    try:
        rules = rules_from_log(dict(header["rules"]))
        seed = int(header["seed"])
        chips = [int(c) for c in header["chips"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise CroupierError(f"bad table log header: {exc}") from None
    answers: list[deque[Action]] = [deque() for _ in chips]  # popped from the left
    for event in events:
        if event.kind == "action" and event.seat is not None and event.action is not None:
            if not 1 <= event.seat <= len(chips):
                raise CroupierError(f"the log names seat {event.seat}, which does not exist")
            if event.action == "pass":  # an empty seat sat the round out: no player's answer
                answers[event.seat - 1].append(SIT_OUT)
            else:
                answers[event.seat - 1].append(Action(event.action, event.amount or 0))
    replayed: list[Event] = []
    core = build_core(manager, rules, seed, chips, emit=replayed.append)
    expected = [e for e in events if e.kind not in DRIVER_EVENTS]
    while len(replayed) < len(expected) and _replay_round(core, answers):
        pass
    for i, (a, b) in enumerate(zip(expected, replayed, strict=False)):
        if a != b:
            raise CroupierError(f"replay differs at event {i + 1}: log {a}, replay {b}")
    if len(expected) != len(replayed):
        raise CroupierError(f"the replay has {len(replayed)} events, the log {len(expected)}")
    return core


def _replay_round(core: TableCore, answers: list[deque[Action]]) -> bool:
    rounds = core.play_round()
    try:
        decision = rounds.send(None)  # type: ignore[arg-type]
        while True:
            queue = answers[decision.seat.index - 1]
            if not queue:
                raise CroupierError(f"the log has no answer for seat {decision.seat.index}")
            action = queue.popleft()  # list.pop(0) made a long replay quadratic
            reason = None if action is SIT_OUT else check_action(decision, action)
            if reason is not None:
                raise CroupierError(f"the log's answer for seat {decision.seat.index}: {reason}")
            decision = rounds.send(action)
    except StopIteration as stop:
        return bool(stop.value)
