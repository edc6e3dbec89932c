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

__all__ = [
    "ACT",
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
    def play_round(self) -> Generator[Decision, Action, bool]:
        """Play one round; False (and nothing happens) when no seat can pay the minimum."""
        rules = self.rules
        self.round += 1
        playing: list[Seat] = []
        for seat in self.seats:
            if not seat.present:
                continue
            if self.chips(seat) < rules.min_bet:
                seat.present = False
                self._event("leave", seat=seat.index)
                continue
            seat.hands = []
            seat.insurance = seat.net = seat.busts = seat.doubles = seat.splits = 0
            seat.natural = False
            playing.append(seat)
        if not playing:
            return False
        self._event("round")
        if self.shoe.start_round():
            self._event("shuffle")
        self.dealer_cards = []
        self.table_cards = []
        self.hole_shown = False

        for seat in playing:
            if self.scheme.asks_bet:
                high = min(rules.max_bet, self.chips(seat))
                action = yield Decision("bet", seat, None, ("bet",), rules.min_bet, high)
                stake = action.amount
                self._event("action", seat=seat.index, hand=0, action="bet", amount=stake)
            else:
                stake = rules.min_bet
            self._pay(seat, -stake, "bet")
            seat.hands = [Hand(stake)]

        yield from self._deal_and_play(playing)
        self._event("end")
        return True

    def _deal_and_play(self, playing: list[Seat]) -> Generator[Decision, Action, None]:
        rules = self.rules
        for seat in playing:
            self._deal(seat, 0, seat.hands[0])
        up = self._draw()
        self.dealer_cards.append(up)
        self._event("deal", card=CODES[up], total=_value(VALUES[up]), soft=up < 4)
        for seat in playing:
            self._deal(seat, 0, seat.hands[0])
        self.dealer_cards.append(self._draw())
        self._event("deal", card=HIDDEN)
        for seat in playing:
            seat.natural = seat.hands[0].natural

        up_value = VALUES[up]
        if rules.surrender == "early" and up_value in (1, 10):
            for seat in playing:
                hand = seat.hands[0]
                if hand.natural:
                    continue
                action = yield Decision("surrender", seat, hand, ("surrender", "decline"))
                self._event("action", seat=seat.index, hand=0, action=action.kind)
                if action.kind == "surrender":
                    hand.done = True
                    hand.outcome = "surrender"

        if rules.insurance and up_value == 1:
            for seat in playing:
                hand = seat.hands[0]
                cost = hand.bet // 2
                if hand.outcome is not None or cost == 0 or self.chips(seat) < cost:
                    continue
                action = yield Decision("insurance", seat, hand, ("insurance", "decline"))
                self._event("action", seat=seat.index, hand=0, action=action.kind)
                if action.kind == "insurance":
                    seat.insurance = cost
                    self._pay(seat, -cost, "insurance")

        dealer_natural = self._dealer_natural()
        if rules.peek and up_value in (1, 10):
            self._event("peek", outcome="blackjack" if dealer_natural else "none")
            if dealer_natural:
                self._dealer_reveal(playing)
                self._settle(playing, 21, True)
                return

        for seat in playing:
            yield from self._play_seat(seat)

        self._dealer_reveal(playing)
        self._dealer_play(playing)
        dealer_total = self._dealer_total()
        self._settle(playing, dealer_total, dealer_natural)

    def _play_seat(self, seat: Seat) -> Generator[Decision, Action, None]:
        player_21 = self.dealer.player_21
        i = 0
        while i < len(seat.hands):
            hand = seat.hands[i]
            if len(hand.cards) == 1:
                self._deal(seat, i, hand)
                if hand.split_aces and not self.rules.hit_split_aces:
                    hand.done = not self._can_split(seat, hand)
            if hand.total == 21 and hand.outcome is None:
                self._reach_21(hand, player_21)
            while not hand.done:
                legal = self._legal(seat, hand)
                action = yield Decision("play", seat, hand, legal, 0, self.chips(seat))
                kind = action.kind
                if self.emit is not None:
                    self._event(
                        "action", seat=seat.index, hand=i, action=kind, amount=action.amount
                    )
                if kind == "hit":
                    hand.moves += 1
                    self._deal(seat, i, hand, "draw")
                    self._after_card(seat, hand, player_21)
                elif kind == "stand":
                    hand.done = True
                elif kind == "double":
                    self._pay(seat, -hand.bet, "double")
                    hand.bet *= 2
                    seat.doubles += 1
                    hand.moves += 1
                    self._deal(seat, i, hand, "draw")
                    self._after_card(seat, hand, player_21)
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
            i += 1

    def _reach_21(self, hand: Hand, player_21: str) -> None:
        if player_21 == "win":
            hand.outcome = "win"
            hand.done = True
        elif player_21 == "stand":
            hand.done = True

    def _after_card(self, seat: Seat, hand: Hand, player_21: str) -> None:
        total = hand.total
        if total > 21:
            hand.outcome = "bust"
            hand.done = True
            seat.busts += 1
        elif total == 21:
            self._reach_21(hand, player_21)

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
            return ("stand", "split")  # only reached when a resplit is possible
        legal = ["hit", "stand"]
        first = len(hand.cards) == 2 and hand.moves == 0
        if first:
            chips = self.chips(seat)
            double = rules.double
            if (
                double != "none"
                and (not hand.split or rules.double_after_split)
                and chips >= hand.bet
                and (double == "any" or (not hand.soft and hand.total in _DOUBLE_TOTALS[double]))
            ):
                legal.append("double")
            if self._can_split(seat, hand):
                legal.append("split")
            if rules.surrender != "none" and not hand.split and len(seat.hands) == 1:
                legal.append("surrender")
        if self.scheme.raises and self.chips(seat) > 0:
            legal.append("raise")
        return tuple(legal)

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
