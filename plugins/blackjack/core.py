"""A blackjack table as a game core: the engine's round engine behind the game interface.

:class:`BlackjackCore` drives :class:`~croupier.plugins.blackjack.round.TableCore` (every rule of
the round lives there and in the dealer and betting plugins) and speaks the interface every
game speaks (:class:`~croupier.engine.games.GameCore`): each decision is a
:class:`~croupier.engine.games.Turn` whose observation is exactly what a blackjack bot has
always been sent (``Observation.to_dict``), whose default is blackjack's (stand, the
minimum bet, no insurance, no early surrender), and whose context names the hand; each
event is blackjack's own with its words in ``text``. So a table of any game, a tournament
of any game or the simulator's generic driver plays blackjack exactly as the blackjack
table does, event for event.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from croupier.engine import CroupierError, Emit, Ledger, Plain, PluginManager, Turn
from croupier.plugins.blackjack.building import build_core
from croupier.plugins.blackjack.play import Action
from croupier.plugins.blackjack.round import ACT, SIT_OUT, Decision, TableCore, check_action
from croupier.plugins.blackjack.rules import BlackjackRules

ABSENT = {"kind": "pass"}
"""What an empty seat does at a bet (the engine's :attr:`~croupier.engine.games.Turn.absent`):
it sits the round out; a silent player's default is still the minimum bet."""


def read_action(answer: Plain) -> Action:
    """The round's :class:`Action` for an action map (``Action.from_dict``, its one-line
    errors included), the shared instance of an amount-less kind built by nobody."""
    kind = answer.get("kind")
    amount = answer.get("amount", 0)
    if type(amount) is int and type(kind) is str and len(answer) == 1 + ("amount" in answer):
        if not amount:
            found = ACT.get(kind)
            if found is not None:
                return found
        return Action(kind, amount)
    return Action.from_dict(dict(answer))


class BlackjackCore:
    """One blackjack table between rounds, as a :class:`~croupier.engine.games.GameCore`."""

    def __init__(
        self,
        manager: PluginManager,
        rules: BlackjackRules,
        seed: int,
        chips: Sequence[int],
        emit: Emit | None,
    ) -> None:
        self.table: TableCore = build_core(
            manager, rules, seed, chips, emit=emit, plain_events=True
        )
        self.counts: dict[str, int] = {}
        self._decision: Decision | None = None
        self._checked: tuple[Plain, Action] | None = None
        """The answer :meth:`check` read last and its action (the table sends it next)."""

    @property
    def ledger(self) -> Ledger:
        return self.table.ledger

    @property
    def round(self) -> int:
        return self.table.round

    # -- checkpoints (Game.checkpoints) -------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """Everything the next rounds depend on, as plain data: the shoe and its stream,
        the ledger, the round, which seats have left (too few chips) and the decks added."""
        table = self.table
        return {
            "shoe": table.shoe.save(),
            "ledger": table.ledger.save(),
            "round": table.round,
            "present": [seat.present for seat in table.seats],
            "decks_seen": table._decks_seen,
        }

    def restore(self, state: Plain) -> None:
        """Put this core (fresh, same rules, seed and seats) where :meth:`save` was."""
        table = self.table
        present = state["present"]
        if not isinstance(present, list) or len(present) != len(table.seats):
            raise CroupierError(f"the saved blackjack table is not of {len(table.seats)} seats")
        if not all(isinstance(p, bool) for p in present):
            raise CroupierError("the saved blackjack table's seats are malformed")
        table.shoe.restore(state["shoe"])
        table.ledger.restore(state["ledger"])
        table.round = int(state["round"])
        for seat, here in zip(table.seats, present, strict=True):
            seat.present = here
        table._decks_seen = int(state["decks_seen"])

    def play_round(self) -> Generator[Turn, Plain, bool]:
        flow = self.table.play_round()
        observe = self.table.observation
        try:
            decision = flow.send(None)  # type: ignore[arg-type]
            while True:
                self._decision = decision
                phase = decision.phase
                observation = observe(decision)
                # the default (default_action's, as plain data): stand; the minimum bet; no
                # insurance; no early surrender
                if phase == "play":
                    default: Plain = {"kind": "stand", "amount": 0}
                elif phase == "bet":
                    default = {"kind": "bet", "amount": decision.low}
                else:
                    default = {"kind": "decline", "amount": 0}
                answer = yield Turn(
                    decision.seat.index,
                    decision.legal,
                    observation,
                    default,
                    phase,
                    {"hand": observation["hand"]},
                    ABSENT if phase == "bet" else None,
                )
                if phase == "bet" and answer.get("kind") == "pass":
                    decision = flow.send(SIT_OUT)  # the seat's absent action: nobody is there
                else:
                    checked = self._checked
                    if checked is not None and checked[0] == answer:
                        decision = flow.send(checked[1])  # read once, by check
                    else:
                        decision = flow.send(read_action(answer))
                self._checked = None
        except StopIteration as stop:
            return bool(stop.value)
        finally:
            self._decision = self._checked = None

    def check(self, turn: Turn, action: Plain) -> str | None:
        if self._decision is None:
            return "no decision is pending"
        try:
            answer = read_action(action)
        except CroupierError as exc:
            return str(exc)
        problem = check_action(self._decision, answer)
        self._checked = (action, answer) if problem is None else None
        return problem
