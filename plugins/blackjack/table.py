"""A blackjack table with seated players: the async driver of the round engine.

:class:`Table` plays rounds of :class:`~croupier.plugins.blackjack.round.TableCore` and asks each
seat's :class:`~croupier.plugins.blackjack.players.Player` for its decisions, under these rules:

- every answer has ``decision_time`` seconds (default :data:`DECISION_TIME`), enforced with
  a trio cancel scope; a player that times out or raises gets the default at once;
- an answer that is not legal is refused (a ``refused`` event with the reason) and the
  player is asked again with the reason in ``observation.refused``, ``attempts`` times in
  all (default :data:`ATTEMPTS`), then it gets the default;
- the default (a ``default`` event with the reason) is: stand; the minimum bet; no
  insurance; no early surrender.

Listeners (plain callables) get every event as it happens; all events are public (the hole
card is dealt as ``"#"`` and revealed by a ``reveal`` event).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from croupier.engine.decisions import ATTEMPTS, DECISION_TIME, DecisionClock
from croupier.engine.errors import CroupierError, player_failure
from croupier.engine.ledger import Ledger
from croupier.engine.manager import PluginManager
from croupier.engine.seeds import Stream
from croupier.plugins.blackjack.play import Action, Event, Observation
from croupier.plugins.blackjack.players import Player
from croupier.plugins.blackjack.round import Decision, TableCore, check_action, default_action
from croupier.plugins.blackjack.rules import BlackjackRules, format_payout
from croupier.plugins.blackjack.shoe import make_shoe
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule


def resolve_rules(
    manager: PluginManager, rules: BlackjackRules
) -> tuple[DealerRule, BettingScheme]:
    """The dealer rule and betting scheme ``rules`` names, checked to be the right kind."""
    dealer = manager.dealer_rules.get(rules.dealer)
    scheme = manager.betting_schemes.get(rules.betting)
    if not isinstance(dealer, DealerRule):
        raise CroupierError(f"dealer rules {rules.dealer!r} is not a DealerRule")
    if not isinstance(scheme, BettingScheme):
        raise CroupierError(f"betting scheme {rules.betting!r} is not a BettingScheme")
    if not scheme.pays_naturals and rules.blackjack_pays != 1:
        raise CroupierError(
            f"the {scheme.name} betting pays no bonus for a natural, so a "
            f"{format_payout(rules.blackjack_pays)} payout cannot apply (leave it at 1:1)"
        )
    return dealer, scheme


def build_core(
    manager: PluginManager,
    rules: BlackjackRules,
    seed: int,
    chips: Sequence[int],
    *,
    keep_entries: bool = True,
    emit: Callable[[Event], None] | None = None,
) -> TableCore:
    """A round engine for ``rules``; its cards come from ``Stream(seed).child("shoe")``."""
    dealer, scheme = resolve_rules(manager, rules)
    shoe = make_shoe(rules, Stream(seed).child("shoe"))
    return TableCore(rules, dealer, scheme, shoe, list(chips), keep_entries=keep_entries, emit=emit)


class Table:
    """Seats 1..7 (``players[i]`` sits in seat ``i + 1``), a dealer, a shoe and a ledger.

    ``chips`` are the seats' starting chips (default: the rules' ``starting_chips``).
    """

    def __init__(
        self,
        manager: PluginManager,
        rules: BlackjackRules,
        seed: int,
        players: Sequence[Player],
        *,
        chips: Sequence[int] | None = None,
        decision_time: float = DECISION_TIME,
        attempts: int = ATTEMPTS,
        listeners: Sequence[Callable[[Event], None]] = (),
        stalls: Callable[[], float] | None = None,
    ) -> None:
        if decision_time <= 0 or attempts < 1:
            raise CroupierError("a table needs a positive decision time and at least 1 attempt")
        if chips is None:
            chips = [rules.starting_chips] * len(players)
        if len(chips) != len(players):
            raise CroupierError("give starting chips for every seat")
        self.rules = rules
        self.seed = seed
        self.players = list(players)
        self.starting_chips = list(chips)
        self.clock = DecisionClock(decision_time, stalls)
        self.attempts = attempts
        self.listeners = list(listeners)
        self.core = build_core(manager, rules, seed, chips, emit=self._emit)

    @property
    def decision_time(self) -> float:
        return self.clock.decision_time

    def limit_decisions(self, seconds: float) -> None:
        """Every decision from now on ends within ``seconds`` from now, in all."""
        self.clock.limit_decisions(seconds)

    @property
    def ledger(self) -> Ledger:
        return self.core.ledger

    def _emit(self, event: Event) -> None:
        for listener in self.listeners:
            listener(event)

    async def play_round(self) -> bool:
        """Play one round; False when no seat could pay the minimum (nothing happened)."""
        rounds = self.core.play_round()
        try:
            decision = rounds.send(None)  # type: ignore[arg-type]
            while True:
                action = await self._ask(decision)
                decision = rounds.send(action)
        except StopIteration as stop:
            return bool(stop.value)

    async def play(self, rounds: int) -> int:
        """Play up to ``rounds`` rounds (fewer when every seat has left); returns how many."""
        for played in range(rounds):
            if not await self.play_round():
                return played
        return rounds

    async def _ask(self, decision: Decision) -> Action:
        player = self.players[decision.seat.index - 1]
        refused: str | None = None
        for _ in range(self.attempts):
            observation = self.core.observe(decision, refused)
            how, answer = await self._answer(player, observation)
            if how == "error":
                # a player's own account of its failure is said as it is; anything else is
                # a bug, said with its message (player_failure)
                exc = cast(Exception, answer)
                return self._default(decision, f"error: {player_failure(exc)}")
            if how == "timeout":
                return self._default(decision, cast(str, answer))
            if isinstance(answer, Action):
                refused = check_action(decision, answer)
                if refused is None:
                    return answer
            else:
                refused = f"expected an Action, got {type(answer).__name__}"
            self._seat_event("refused", decision, refused)
        return self._default(decision, f"{self.attempts} answers refused")

    async def _answer(self, player: Player, observation: Observation) -> tuple[str, object]:
        return await self.clock.answer(lambda: player.decide(observation))

    def _seat_event(self, kind: str, decision: Decision, reason: str) -> None:
        if self.listeners:
            hand = decision.hand
            index = decision.seat.hands.index(hand) if hand is not None else 0
            self._emit(
                Event(kind, self.core.round, seat=decision.seat.index, hand=index, reason=reason)
            )

    def _default(self, decision: Decision, reason: str) -> Action:
        self._seat_event("default", decision, reason)
        return default_action(decision)
