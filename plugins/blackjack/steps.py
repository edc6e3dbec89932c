"""The rules of a blackjack round, step by step: :class:`RoundSteps`.

:class:`~croupier.plugins.blackjack.round.TableCore` runs a round twice over (as a generator for the
async table and as a plain loop for the simulator) but both flows are only a skeleton
calling these steps, so each rule exists once. The steps are written for speed, because
the simulator plays hundreds of thousands of rounds through them: every flag the rules fix
for the whole game is read once, at construction (:class:`~croupier.plugins.blackjack.rules.
BlackjackRules` is frozen); hands keep their value up to date card by card; and when
nobody listens (``emit`` is None) no event is built.
"""

from __future__ import annotations

from croupier.engine import CODES, HIDDEN, VALUES, CroupierError
from croupier.plugins.blackjack.hands import Hand, Seat
from croupier.plugins.blackjack.play import Action
from croupier.plugins.blackjack.table_state import TableState
from croupier.plugins.blackjack.tablerules import payout

STAND_SPLIT = ("stand", "split")
LEGAL: tuple[tuple[str, ...], ...] = tuple(
    ("hit", "stand")
    + (("double",) if bits & 8 else ())
    + (("split",) if bits & 4 else ())
    + (("surrender",) if bits & 2 else ())
    + (("raise",) if bits & 1 else ())
    for bits in range(16)
)
"""Every play-phase legal list, indexed by ``8 * double + 4 * split + 2 * surrender +
raise``, built once."""


class RoundSteps(TableState):
    """The steps that move a table (:class:`TableState`) through a round."""

    # -- the steps of a round, in order --------------------------------------------------
    def _begin(self) -> list[Seat]:
        self.round += 1
        playing: list[Seat] = []
        min_bet = self.rules.min_bet
        balances = self._balances
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
        shoe = self.shoe
        shuffled = shoe.start_round()
        self._take = getattr(shoe, "take", None) or shoe.draw
        if self.emit is not None:
            self._event("round")
            if shuffled:
                self._event("shuffle")
        self.dealer_hand = Hand(0)
        self.dealer_cards = self.dealer_hand.cards
        self.table_cards = []
        self.hole_shown = False
        return playing

    def _place_bet(self, seat: Seat, stake: int, chosen: bool) -> None:
        if chosen and self.emit is not None:
            self._action(seat, 0, "bet", stake)
        self._pay(seat, -stake, "bet")
        seat.hands = [Hand(stake)]

    def _sit_out(self, seat: Seat) -> None:
        """``seat`` (nobody is in it) stakes nothing and is dealt nothing this round."""
        seat.hands = []
        self._event("action", seat=seat.index, hand=0, action="pass")

    def _deal_initial(self, playing: list[Seat]) -> tuple[bool, bool, bool]:
        """Deal two cards to each seat and the dealer; returns :func:`upcard_offers`."""
        deal = self._deal
        draw = self._draw
        for seat in playing:
            deal(seat, 0, seat.hands[0])
        dealer = self.dealer_hand
        dealer.add(draw())
        self.upcard = up = VALUES[dealer.cards[0]]
        if self.emit is not None:
            self._event("deal", card=CODES[dealer.cards[0]], total=dealer.total, soft=up == 1)
        for seat in playing:
            hand = seat.hands[0]
            deal(seat, 0, hand)
            seat.natural = hand.natural
        dealer.add(draw())
        if self.emit is not None:
            self._event("deal", card=HIDDEN)
        return self._offers[up]

    def _answer_surrender(self, seat: Seat, hand: Hand, action: Action) -> None:
        if self.emit is not None:
            self._event("action", seat=seat.index, hand=0, action=action.kind)
        if action.kind == "surrender":
            hand.done = True
            hand.outcome = "surrender"

    def _may_insure(self, seat: Seat) -> bool:
        hand = seat.hands[0]
        cost = hand.bet // 2
        return hand.outcome is None and cost > 0 and self.chips(seat) >= cost

    def _answer_insurance(self, seat: Seat, action: Action) -> None:
        if self.emit is not None:
            self._event("action", seat=seat.index, hand=0, action=action.kind)
        if action.kind == "insurance":
            seat.insurance = seat.hands[0].bet // 2
            self._pay(seat, -seat.insurance, "insurance")

    def _peek(self, playing: list[Seat]) -> bool:
        """The dealer checks for blackjack (the rules peek under this upcard); True ends
        the round."""
        natural = self.dealer_hand.natural
        if self.emit is not None:
            self._event("peek", outcome="blackjack" if natural else "none")
        if natural:
            self._dealer_reveal(playing)
            self._settle(playing, 21, True)
        return natural

    def _start_hand(self, seat: Seat, i: int) -> Hand:
        hand = seat.hands[i]
        if len(hand.cards) == 1:  # the second card of a split hand
            self._deal(seat, i, hand)
            if hand.split_aces and self._one_card_split_aces:
                hand.done = not self._can_split(seat, hand)
        if hand.total == 21 and hand.outcome is None:
            self._reach_21(hand)
        return hand

    def _legal(self, seat: Seat, hand: Hand) -> tuple[str, ...]:
        if hand.split_aces and self._one_card_split_aces:
            return STAND_SPLIT  # only reached when a resplit is possible
        can_raise = self.scheme.raises and self._balances[seat.account] > 0
        if hand.moves or len(hand.cards) != 2:
            return LEGAL[can_raise]
        totals = self._double_totals
        can_double = (
            totals != ()
            and (not hand.split or self.rules.double_after_split)
            and self._balances[seat.account] >= hand.bet
            and (totals is None or (not hand.soft and hand.total in totals))
        )
        can_surrender = self._surrender and not hand.split and len(seat.hands) == 1
        cards = hand.cards
        can_split = VALUES[cards[0]] == VALUES[cards[1]] and self._can_split(seat, hand)
        return LEGAL[8 * can_double + 4 * can_split + 2 * can_surrender + can_raise]

    def _apply(self, seat: Seat, i: int, hand: Hand, action: Action) -> None:
        kind = action.kind
        if kind == "raise":
            self._raise(seat, i, hand, action.amount)
            return
        if self.emit is not None:
            self._action(seat, i, kind, action.amount)
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
        else:  # the drivers validate; reaching this is a bug in a driver
            raise CroupierError(f"the round got an unvalidated action {kind!r}")

    def _raise(self, seat: Seat, i: int, hand: Hand, amount: int) -> None:
        """``B n``: add |n| to the stake. More than the chips held is, by the rules'
        ``overbet``, a stand with the stake unchanged (the original contest controller)
        or all in; the action event's ``reason`` says which."""
        wanted = abs(amount)
        held = self.chips(seat)
        reason = None
        if wanted > held:
            reason = f"over-bet: {wanted} > {held} chips held, " + (
                "stands" if self._overbet_stands else "all in"
            )
        if self.emit is not None:
            said = {} if reason is None else {"reason": reason}  # no field rather than None
            self._event("action", seat=seat.index, hand=i, action="raise", amount=amount, **said)
        if reason is not None and self._overbet_stands:
            hand.done = True
            return
        wanted = min(wanted, held)
        self._pay(seat, -wanted, "raise")
        hand.bet += wanted

    def _finish(self, playing: list[Seat]) -> None:
        natural = self.dealer_hand.natural
        self._dealer_reveal(playing)
        self._dealer_play(playing)
        self._settle(playing, self.dealer_hand.total, natural)

    # -- the parts of a step ---------------------------------------------------------------
    def _reach_21(self, hand: Hand) -> None:
        player_21 = self.dealer.player_21
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
            self._reach_21(hand)

    def _can_split(self, seat: Seat, hand: Hand) -> bool:
        rules = self.rules
        cards = hand.cards
        return (
            len(cards) == 2
            and VALUES[cards[0]] == VALUES[cards[1]]
            and len(seat.hands) < rules.max_split_hands
            and self._balances[seat.account] >= hand.bet
            and (not hand.split_aces or rules.resplit_aces)
        )

    def _split(self, seat: Seat, i: int, hand: Hand) -> None:
        self._pay(seat, -hand.bet, "split")
        seat.splits += 1
        second = hand.split_off()
        new = Hand(hand.bet, split=True)
        new.add(second)
        if hand.ace:
            hand.split_aces = new.split_aces = True
        seat.hands.insert(i + 1, new)
        self._deal(seat, i, hand)
        if hand.split_aces and self._one_card_split_aces:
            hand.done = not self._can_split(seat, hand)
        elif hand.total == 21:
            self._reach_21(hand)

    def _dealer_reveal(self, playing: list[Seat]) -> None:
        self.hole_shown = True
        dealer = self.dealer_hand
        if self.emit is not None:
            total = dealer.total
            hole = CODES[dealer.cards[1]]
            self._event("reveal", card=hole, total=total, soft=dealer.soft and total != 21)
        if dealer.natural:
            for seat in playing:
                if seat.insurance:
                    self._pay(seat, 3 * seat.insurance, "insurance-win")

    def _dealer_play(self, playing: list[Seat]) -> None:
        live = [h.total for s in playing for h in s.hands if h.outcome is None and not h.natural]
        if not live and not self.dealer.plays_out:
            return
        target = max(live) if live else 0
        hits = self.dealer.hits
        dealer = self.dealer_hand
        take = self._take
        while dealer.total < 21 and hits(dealer.total, dealer.soft, target):
            if self.emit is None:  # the fast path: _draw inlined
                try:
                    card = take()
                except IndexError:
                    card = self.shoe.draw()
            else:
                card = self._draw()
            dealer.add(card)
            self.table_cards.append(card)
            if self.emit is not None:
                self._event("deal", card=CODES[card], total=dealer.total, reason="draw")

    def _settle(self, playing: list[Seat], dealer_total: int, dealer_natural: bool) -> None:
        outcome_of = self.scheme.outcome
        pays = self.rules.blackjack_pays
        pay = self._pay
        for seat in playing:
            for i, hand in enumerate(seat.hands):
                outcome = hand.outcome
                if outcome is None:
                    outcome = outcome_of(hand.total, hand.natural, dealer_total, dealer_natural)
                amount = payout(outcome, hand.bet, pays)
                if amount:
                    pay(seat, amount, outcome)
                if self.emit is not None:
                    self._event(
                        "settle", seat=seat.index, hand=i, total=hand.total, outcome=outcome
                    )
