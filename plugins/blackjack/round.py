"""The round engine: one blackjack round as a generator of decisions.

:meth:`TableCore.play_round` is a generator: it yields a :class:`Decision` whenever a seat
must decide and receives the (already validated) :class:`~croupier.plugins.blackjack.play.Action`
back through ``send``; :meth:`TableCore.play_round_sync` is the same flow as a plain loop
calling a function. Both are skeletons over the steps of
:class:`~croupier.plugins.blackjack.steps.RoundSteps`, which hold every rule; neither waits, times
out or talks to a player. Two drivers use them: the engine's table,
:class:`~croupier.engine.gametable.GameTable`, through the game's core
(:class:`~croupier.plugins.blackjack.core.BlackjackCore`: remote bots, people, time limits,
retries, events) and the synchronous simulator loop
(:mod:`croupier.plugins.blackjack.simulate`), so a simulation plays exactly the game a table
plays.

The round: seats that cannot pay the minimum leave; bets; the deal (one card to each seat
in order, the dealer's upcard, a second card to each seat, the hole card); early surrender
when offered and the upcard is an ace or a ten; insurance when the upcard is an ace; the
peek for blackjack under an ace or a ten when the rules peek; each seat's hands in order;
the dealer's play; settlement.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from croupier.engine import CODES, HIDDEN
from croupier.plugins.blackjack.hands import ACT, Decision, Hand, Seat, check_action, default_action
from croupier.plugins.blackjack.play import Action, Observation
from croupier.plugins.blackjack.steps import RoundSteps

BET = ("bet",)
SIT_OUT = Action("bet", -1)
"""Sent (this very object) for a bet decision to a seat nobody is in (a bot gone, a person
who quit): the seat sits the round out, staking nothing. No player can send it: an answer
is checked first, and a bet below the minimum is refused."""
SURRENDER = ("surrender", "decline")
INSURANCE = ("insurance", "decline")

DecideFn = Callable[[str, Seat, Hand | None, tuple[str, ...], int, int], Action]
"""``decide(phase, seat, hand, legal, low, high)`` for :meth:`TableCore.play_round_sync`."""

__all__ = [
    "ACT",
    "DecideFn",
    "Decision",
    "Hand",
    "Seat",
    "TableCore",
    "check_action",
    "default_action",
]


class TableCore(RoundSteps):
    """The state of a table between rounds, the rules that move it (the steps of
    :class:`~croupier.plugins.blackjack.steps.RoundSteps`) and the flow of a round."""

    def visible(self) -> tuple[str, ...]:
        """The cards dealt this round as players see them (dealer's two first)."""
        dealer = [CODES[c] for c in self.dealer_cards[:2]]
        if len(dealer) == 2 and not self.hole_shown:
            dealer[1] = HIDDEN
        return (*dealer, *(CODES[c] for c in self.table_cards))

    def observe(self, decision: Decision, refused: str | None = None) -> Observation:
        """The observation a player gets for ``decision``."""
        seat = decision.seat
        hand = decision.hand
        hands = tuple(tuple(CODES[c] for c in h.cards) for h in seat.hands)
        return Observation(
            phase=decision.phase,
            round=self.round,
            seat=seat.index,
            legal=decision.legal,
            chips=self.chips(seat),
            hands=hands,
            hand=seat.hands.index(hand) if hand is not None else 0,
            total=hand.total if hand is not None else 0,
            soft=hand.soft if hand is not None else False,
            stake=hand.bet if hand is not None else (seat.hands[0].bet if seat.hands else 0),
            dealer_upcard=CODES[self.dealer_cards[0]] if self.dealer_cards else None,
            visible=self.visible(),
            min_bet=decision.low,
            max_bet=decision.high,
            refused=refused,
        )

    def observation(self, decision: Decision) -> dict[str, Any]:
        """:meth:`observe` as plain data (``Observation.to_dict``), built directly: what a
        game table sends a player for ``decision``."""
        seat = decision.seat
        hand = decision.hand
        seat_hands = seat.hands
        dealer = self.dealer_cards
        visible = [CODES[c] for c in dealer[:2]]
        if len(visible) == 2 and not self.hole_shown:
            visible[1] = HIDDEN
        visible += [CODES[c] for c in self.table_cards]
        return {
            "phase": decision.phase,
            "round": self.round,
            "seat": seat.index,
            "legal": list(decision.legal),
            "chips": self._balances[seat.account],
            "hands": [[CODES[c] for c in h.cards] for h in seat_hands],
            "hand": seat_hands.index(hand) if hand is not None else 0,
            "total": hand.total if hand is not None else 0,
            "soft": hand.soft if hand is not None else False,
            "stake": hand.bet if hand is not None else (seat_hands[0].bet if seat_hands else 0),
            "dealer_upcard": CODES[dealer[0]] if dealer else None,
            "visible": visible,
            "min_bet": decision.low,
            "max_bet": decision.high,
            "refused": None,
        }

    # -- the round -------------------------------------------------------------------------
    # The flow is written twice, as a generator (play_round, for the async table) and as a
    # plain loop calling a function (play_round_sync, the simulator's fast path). Both are
    # only a skeleton: every rule lives in the steps of RoundSteps, which both share, and
    # tests check that both produce the same ledger, entry by entry, from the same seed.

    def play_round(self) -> Generator[Decision, Action, bool]:
        """Play one round; False (and nothing happens) when no seat can pay the minimum."""
        playing = self._begin()
        if not playing:
            return False
        rules = self.rules
        sitting: list[Seat] = []
        for seat in playing:
            if self.scheme.asks_bet:
                high = min(rules.max_bet, self.chips(seat))
                action = yield Decision("bet", seat, None, BET, rules.min_bet, high)
                if action is SIT_OUT:
                    self._sit_out(seat)
                    sitting.append(seat)
                    continue
                self._place_bet(seat, action.amount, True)
            else:
                self._place_bet(seat, rules.min_bet, False)
        if sitting:
            playing = [seat for seat in playing if seat not in sitting]
            if not playing:  # nobody stakes: no cards are dealt
                self._event("end")
                return True
        early, insurance, peek = self._deal_initial(playing)
        if early:
            for seat in playing:
                hand = seat.hands[0]
                if not hand.natural:
                    action = yield Decision("surrender", seat, hand, SURRENDER)
                    self._answer_surrender(seat, hand, action)
        if insurance:
            for seat in playing:
                if self._may_insure(seat):
                    action = yield Decision("insurance", seat, seat.hands[0], INSURANCE)
                    self._answer_insurance(seat, action)
        if not (peek and self._peek(playing)):
            for seat in playing:
                i = 0
                while i < len(seat.hands):
                    hand = self._start_hand(seat, i)
                    while not hand.done:
                        legal = self._legal(seat, hand)
                        action = yield Decision("play", seat, hand, legal, 0, self.chips(seat))
                        self._apply(seat, i, hand, action)
                    i += 1
            self._finish(playing)
        if self.emit is not None:
            self._event("end")
        return True

    def play_round_sync(self, decide: DecideFn) -> bool:
        """:meth:`play_round` with ``decide(phase, seat, hand, legal, low, high)`` answering
        each decision at once (it must return a legal action: see :func:`check_action`)."""
        playing = self._begin()
        if not playing:
            return False
        rules = self.rules
        if self.scheme.asks_bet:
            low = rules.min_bet
            for seat in playing:
                high = min(rules.max_bet, self._balances[seat.account])
                self._place_bet(seat, decide("bet", seat, None, BET, low, high).amount, True)
        else:
            for seat in playing:
                self._place_bet(seat, rules.min_bet, False)
        early, insurance, peek = self._deal_initial(playing)
        if early:
            for seat in playing:
                hand = seat.hands[0]
                if not hand.natural:
                    action = decide("surrender", seat, hand, SURRENDER, 0, 0)
                    self._answer_surrender(seat, hand, action)
        if insurance:
            for seat in playing:
                if self._may_insure(seat):
                    action = decide("insurance", seat, seat.hands[0], INSURANCE, 0, 0)
                    self._answer_insurance(seat, action)
        if not (peek and self._peek(playing)):
            legal_of = self._legal
            apply = self._apply
            for seat in playing:
                hands = seat.hands
                i = 0
                while i < len(hands):
                    hand = self._start_hand(seat, i)
                    while not hand.done:
                        legal = legal_of(seat, hand)
                        apply(seat, i, hand, decide("play", seat, hand, legal, 0, 0))
                    i += 1
            self._finish(playing)
        if self.emit is not None:
            self._event("end")
        return True
