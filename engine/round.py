"""The round engine: one blackjack round as a generator of decisions.

:meth:`TableCore.play_round` is a generator: it yields a :class:`Decision` whenever a seat
must decide and receives the (already validated) :class:`~croupier.engine.play.Action`
back through ``send``. It holds all the rules; it never waits, never times out and never
talks to a player. Two drivers share it: the async :class:`~croupier.engine.table.Table`
(remote bots, people, time limits, retries, events) and the synchronous simulator loop
(:mod:`croupier.engine.simulate`), so a simulation plays exactly the game a table plays.

The round: seats that cannot pay the minimum leave; bets; the deal (one card to each seat
in order, the dealer's upcard, a second card to each seat, the hole card); early surrender
when offered and the upcard is an ace or a ten; insurance when the upcard is an ace; the
peek for blackjack under an ace or a ten when the rules peek; each seat's hands in order;
the dealer's play; settlement.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from croupier.engine.cards import CODES, HIDDEN, VALUES
from croupier.engine.errors import CroupierError
from croupier.engine.hands import ACT, Decision, Hand, Seat, check_action, default_action
from croupier.engine.ledger import Ledger
from croupier.engine.play import Action, Event, Observation
from croupier.engine.rules import BlackjackRules
from croupier.engine.shoes import Shoe
from croupier.engine.tablerules import BettingScheme, DealerRule, payout

_DOUBLE_TOTALS = {"9-11": (9, 10, 11), "10-11": (10, 11)}
BET = ("bet",)
STAND_SPLIT = ("stand", "split")
_LEGAL = {
    (d, p, s, r): ("hit", "stand")
    + (("double",) if d else ())
    + (("split",) if p else ())
    + (("surrender",) if s else ())
    + (("raise",) if r else ())
    for d in (False, True)
    for p in (False, True)
    for s in (False, True)
    for r in (False, True)
}
"""Every play-phase legal list, by (double, split, surrender, raise), built once."""
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


class TableCore:
    """The state of a table between rounds and the rules that move it."""

    def __init__(
        self,
        rules: BlackjackRules,
        dealer: DealerRule,
        scheme: BettingScheme,
        shoe: Shoe,
        chips: list[int],
        *,
        keep_entries: bool = True,
        emit: Callable[[Event], None] | None = None,
    ) -> None:
        if not 1 <= len(chips) <= 7:
            raise CroupierError(f"a table has 1 to 7 seats, not {len(chips)}")
        self.rules = rules
        self.dealer = dealer
        self.scheme = scheme
        self.shoe = shoe
        self.emit = emit
        self.seats = [Seat(i + 1) for i in range(len(chips))]
        self.ledger = Ledger(
            {seat.account: c for seat, c in zip(self.seats, chips, strict=True)},
            keep_entries=keep_entries,
        )
        self.round = 0
        self.dealer_cards: list[int] = []
        self.table_cards: list[int] = []  # every other card dealt this round, in order
        self.hole_shown = False
        self._decks_seen = shoe.decks_added

    # -- small helpers ---------------------------------------------------------------------
    def _event(self, kind: str, **fields: object) -> None:
        """Emit an event (callers on the fast path check ``self.emit`` first)."""
        if self.emit is not None:
            self.emit(Event(kind, self.round, **fields))  # type: ignore[arg-type]

    def _pay(self, seat: Seat, amount: int, reason: str) -> None:
        self.ledger.transfer(self.round, seat.account, amount, reason)
        seat.net += amount
        if self.emit is not None:
            self._event("chips", seat=seat.index, amount=amount, reason=reason)

    def _draw(self) -> int:
        card = self.shoe.draw()
        if self.emit is not None and self.shoe.decks_added != self._decks_seen:
            self._decks_seen = self.shoe.decks_added
            self._event("deck-added")
        return card

    def _deal(self, seat: Seat, index: int, hand: Hand, reason: str = "deal") -> None:
        if self.emit is None:  # the fast path: Hand.add and _draw inlined
            card = self.shoe.draw()
            hand.cards.append(card)
            v = VALUES[card]
            hand.hard += v
            if v == 1:
                hand.ace = True
            self.table_cards.append(card)
            return
        card = self._draw()
        hand.add(card)
        self.table_cards.append(card)
        if self.emit is not None:
            self._event(
                "deal",
                seat=seat.index,
                hand=index,
                card=CODES[card],
                total=hand.total,
                soft=hand.soft,
                reason=reason,
            )

    def chips(self, seat: Seat) -> int:
        return self.ledger.balances[seat.account]

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

    # -- the round -------------------------------------------------------------------------
    # The flow is written twice, as a generator (play_round, for the async table) and as a
    # plain loop calling a function (play_round_sync, the simulator's fast path). Both are
    # only a skeleton: every rule lives in the step methods below them, which both share,
    # and a test checks that both produce the same ledger from the same seed.

    def play_round(self) -> Generator[Decision, Action, bool]:
        """Play one round; False (and nothing happens) when no seat can pay the minimum."""
        playing = self._begin()
        if not playing:
            return False
        rules = self.rules
        for seat in playing:
            if self.scheme.asks_bet:
                high = min(rules.max_bet, self.chips(seat))
                action = yield Decision("bet", seat, None, BET, rules.min_bet, high)
                self._place_bet(seat, action.amount, True)
            else:
                self._place_bet(seat, rules.min_bet, False)
        self._deal_initial(playing)
        if self._early_surrender_offered():
            for seat in playing:
                hand = seat.hands[0]
                if not hand.natural:
                    action = yield Decision("surrender", seat, hand, SURRENDER)
                    self._answer_surrender(seat, hand, action)
        if self._insurance_offered():
            for seat in playing:
                if self._may_insure(seat):
                    action = yield Decision("insurance", seat, seat.hands[0], INSURANCE)
                    self._answer_insurance(seat, action)
        if not self._peek(playing):
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
        for seat in playing:
            if self.scheme.asks_bet:
                high = min(rules.max_bet, self.chips(seat))
                action = decide("bet", seat, None, BET, rules.min_bet, high)
                self._place_bet(seat, action.amount, True)
            else:
                self._place_bet(seat, rules.min_bet, False)
        self._deal_initial(playing)
        if self._early_surrender_offered():
            for seat in playing:
                hand = seat.hands[0]
                if not hand.natural:
                    action = decide("surrender", seat, hand, SURRENDER, 0, 0)
                    self._answer_surrender(seat, hand, action)
        if self._insurance_offered():
            for seat in playing:
                if self._may_insure(seat):
                    action = decide("insurance", seat, seat.hands[0], INSURANCE, 0, 0)
                    self._answer_insurance(seat, action)
        if not self._peek(playing):
            for seat in playing:
                i = 0
                while i < len(seat.hands):
                    hand = self._start_hand(seat, i)
                    while not hand.done:
                        legal = self._legal(seat, hand)
                        action = decide("play", seat, hand, legal, 0, 0)
                        self._apply(seat, i, hand, action)
                    i += 1
            self._finish(playing)
        if self.emit is not None:
            self._event("end")
        return True

    # -- the steps of a round --------------------------------------------------------------
    def _begin(self) -> list[Seat]:
        self.round += 1
        playing: list[Seat] = []
        min_bet = self.rules.min_bet
        balances = self.ledger.balances
        for seat in self.seats:
            if not seat.present:
                continue
            if balances[seat.account] < min_bet:
                seat.present = False
                self._event("leave", seat=seat.index)
                continue
            seat.insurance = seat.net = seat.busts = seat.doubles = seat.splits = 0
            seat.natural = False
            playing.append(seat)
        if not playing:
            return playing
        shuffled = self.shoe.start_round()
        if self.emit is not None:
            self._event("round")
            if shuffled:
                self._event("shuffle")
        self.dealer_cards = []
        self.table_cards = []
        self.hole_shown = False
        return playing

    def _place_bet(self, seat: Seat, stake: int, chosen: bool) -> None:
        if chosen:
            self._event("action", seat=seat.index, hand=0, action="bet", amount=stake)
        self._pay(seat, -stake, "bet")
        seat.hands = [Hand(stake)]

    def _deal_initial(self, playing: list[Seat]) -> None:
        for seat in playing:
            self._deal(seat, 0, seat.hands[0])
        up = self._draw()
        self.dealer_cards.append(up)
        if self.emit is not None:
            self._event("deal", card=CODES[up], total=_value(VALUES[up]), soft=up < 4)
        for seat in playing:
            self._deal(seat, 0, seat.hands[0])
            seat.natural = seat.hands[0].natural
        self.dealer_cards.append(self._draw())
        if self.emit is not None:
            self._event("deal", card=HIDDEN)

    def _early_surrender_offered(self) -> bool:
        return self.rules.surrender == "early" and VALUES[self.dealer_cards[0]] in (1, 10)

    def _answer_surrender(self, seat: Seat, hand: Hand, action: Action) -> None:
        self._event("action", seat=seat.index, hand=0, action=action.kind)
        if action.kind == "surrender":
            hand.done = True
            hand.outcome = "surrender"

    def _insurance_offered(self) -> bool:
        return self.rules.insurance and VALUES[self.dealer_cards[0]] == 1

    def _may_insure(self, seat: Seat) -> bool:
        hand = seat.hands[0]
        cost = hand.bet // 2
        return hand.outcome is None and cost > 0 and self.chips(seat) >= cost

    def _answer_insurance(self, seat: Seat, action: Action) -> None:
        self._event("action", seat=seat.index, hand=0, action=action.kind)
        if action.kind == "insurance":
            seat.insurance = seat.hands[0].bet // 2
            self._pay(seat, -seat.insurance, "insurance")

    def _peek(self, playing: list[Seat]) -> bool:
        """The dealer checks for blackjack when the rules say so; True ends the round."""
        if not self.rules.peek or VALUES[self.dealer_cards[0]] not in (1, 10):
            return False
        natural = self._dealer_natural()
        self._event("peek", outcome="blackjack" if natural else "none")
        if natural:
            self._dealer_reveal(playing)
            self._settle(playing, 21, True)
        return natural

    def _start_hand(self, seat: Seat, i: int) -> Hand:
        hand = seat.hands[i]
        if len(hand.cards) == 1:  # the second card of a split hand
            self._deal(seat, i, hand)
            if hand.split_aces and not self.rules.hit_split_aces:
                hand.done = not self._can_split(seat, hand)
        if hand.outcome is None and hand.total == 21:
            self._reach_21(hand, self.dealer.player_21)
        return hand

    def _apply(self, seat: Seat, i: int, hand: Hand, action: Action) -> None:
        kind = action.kind
        if self.emit is not None:
            self._event("action", seat=seat.index, hand=i, action=kind, amount=action.amount)
        if kind == "hit":
            hand.moves += 1
            self._deal(seat, i, hand, "draw")
            self._after_card(seat, hand)
        elif kind == "stand":
            hand.done = True
        elif kind == "double":
            self._pay(seat, -hand.bet, "double")
            hand.bet *= 2
            seat.doubles += 1
            hand.moves += 1
            self._deal(seat, i, hand, "draw")
            self._after_card(seat, hand)
            hand.done = True
        elif kind == "split":
            self._split(seat, i, hand)
        elif kind == "surrender":
            hand.outcome = "surrender"
            hand.done = True
        elif kind == "raise":
            amount = min(abs(action.amount), self.chips(seat))
            self._pay(seat, -amount, "raise")
            hand.bet += amount
        else:  # the drivers validate; reaching this is a bug in a driver
            raise CroupierError(f"the round got an unvalidated action {kind!r}")

    def _finish(self, playing: list[Seat]) -> None:
        natural = self._dealer_natural()
        self._dealer_reveal(playing)
        self._dealer_play(playing)
        self._settle(playing, self._dealer_total(), natural)

    def _reach_21(self, hand: Hand, player_21: str) -> None:
        if player_21 == "win":
            hand.outcome = "win"
            hand.done = True
        elif player_21 == "stand":
            hand.done = True

    def _after_card(self, seat: Seat, hand: Hand) -> None:
        total = hand.total
        if total > 21:
            hand.outcome = "bust"
            hand.done = True
            seat.busts += 1
        elif total == 21:
            self._reach_21(hand, self.dealer.player_21)

    def _can_split(self, seat: Seat, hand: Hand) -> bool:
        rules = self.rules
        cards = hand.cards
        return (
            len(cards) == 2
            and VALUES[cards[0]] == VALUES[cards[1]]
            and len(seat.hands) < rules.max_split_hands
            and self.chips(seat) >= hand.bet
            and (not hand.split_aces or rules.resplit_aces)
        )

    def _legal(self, seat: Seat, hand: Hand) -> tuple[str, ...]:
        rules = self.rules
        if hand.split_aces and not rules.hit_split_aces:
            return STAND_SPLIT  # only reached when a resplit is possible
        can_raise = self.scheme.raises and self.chips(seat) > 0
        if hand.moves or len(hand.cards) != 2:
            return _LEGAL[False, False, False, can_raise]
        double = rules.double
        can_double = (
            double != "none"
            and (not hand.split or rules.double_after_split)
            and self.chips(seat) >= hand.bet
            and (double == "any" or (not hand.soft and hand.total in _DOUBLE_TOTALS[double]))
        )
        can_surrender = rules.surrender != "none" and not hand.split and len(seat.hands) == 1
        return _LEGAL[can_double, self._can_split(seat, hand), can_surrender, can_raise]

    def _split(self, seat: Seat, i: int, hand: Hand) -> None:
        self._pay(seat, -hand.bet, "split")
        seat.splits += 1
        second = hand.cards.pop()
        hand.hard -= VALUES[second]
        hand.ace = VALUES[hand.cards[0]] == 1
        hand.split = True
        new = Hand(hand.bet, split=True)
        new.add(second)
        if hand.ace:
            hand.split_aces = new.split_aces = True
        seat.hands.insert(i + 1, new)
        self._deal(seat, i, hand)
        if hand.split_aces and not self.rules.hit_split_aces:
            hand.done = not self._can_split(seat, hand)
        elif hand.total == 21:
            self._reach_21(hand, self.dealer.player_21)

    def _dealer_natural(self) -> bool:
        a, b = VALUES[self.dealer_cards[0]], VALUES[self.dealer_cards[1]]
        return a + b == 11 and (a == 1 or b == 1)

    def _dealer_total(self) -> int:
        total = 0
        ace = False
        for c in self.dealer_cards:
            v = VALUES[c]
            total += v
            ace = ace or v == 1
        return total + 10 if ace and total <= 11 else total

    def _dealer_reveal(self, playing: list[Seat]) -> None:
        self.hole_shown = True
        hole = self.dealer_cards[1]
        if self.emit is not None:
            total = self._dealer_total()
            soft = any(VALUES[c] == 1 for c in self.dealer_cards) and total <= 21
            self._event("reveal", card=CODES[hole], total=total, soft=soft and total != 21)
        natural = self._dealer_natural()
        for seat in playing:
            if seat.insurance and natural:
                self._pay(seat, 3 * seat.insurance, "insurance-win")

    def _dealer_play(self, playing: list[Seat]) -> None:
        live = [h.total for s in playing for h in s.hands if h.outcome is None and not h.natural]
        if not live and not self.dealer.plays_out:
            return
        target = max(live) if live else 0
        hits = self.dealer.hits
        cards = self.dealer_cards
        while True:
            hard = 0
            ace = False
            for c in cards:
                v = VALUES[c]
                hard += v
                ace = ace or v == 1
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if total >= 21 or not hits(total, soft, target):
                return
            card = self._draw()
            cards.append(card)
            self.table_cards.append(card)
            if self.emit is not None:
                total = self._dealer_total()
                self._event("deal", card=CODES[card], total=total, reason="draw")

    def _settle(self, playing: list[Seat], dealer_total: int, dealer_natural: bool) -> None:
        outcome_of = self.scheme.outcome
        pays = self.rules.blackjack_pays
        for seat in playing:
            for i, hand in enumerate(seat.hands):
                outcome = hand.outcome
                if outcome is None:
                    outcome = outcome_of(hand.total, hand.natural, dealer_total, dealer_natural)
                amount = payout(outcome, hand.bet, pays)
                if amount:
                    self._pay(seat, amount, outcome)
                if self.emit is not None:
                    self._event(
                        "settle", seat=seat.index, hand=i, outcome=outcome, total=hand.total
                    )


def _value(v: int) -> int:
    return 11 if v == 1 else v
