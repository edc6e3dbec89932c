"""A blackjack table between rounds: :class:`TableState`, its seats, ledger, shoe and
dealer's hand, what the (frozen) rules fix for the whole game read once, and the small
helpers every step of a round uses: events, payments, draws and deals (the steps are
:class:`~croupier.plugins.blackjack.steps.RoundSteps`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from croupier.engine import CODES, CroupierError, Ledger, Shoe
from croupier.plugins.blackjack.hands import Hand, Seat
from croupier.plugins.blackjack.play import Event
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule
from croupier.plugins.blackjack.words import describe

_DOUBLE_TOTALS = {"any": None, "9-11": (9, 10, 11), "10-11": (10, 11)}
_SAID: dict[tuple[object, ...], str] = {}
"""The words of events said before, by their kind and field values (the same deal, stake
or outcome recurs all the time, and :func:`describe` is the costliest part of an event)."""


def upcard_offers(rules: BlackjackRules, upcard: int) -> tuple[bool, bool, bool]:
    """``(early surrender, insurance, peek)``: what the rules offer under an upcard of value
    ``upcard`` (1 for an ace)."""
    ace_or_ten = upcard in (1, 10)
    return (
        rules.surrender == "early" and ace_or_ten,
        rules.insurance and upcard == 1,
        rules.peek and ace_or_ten,
    )


class TableState:
    """The state of a table between rounds and the helpers of its steps."""

    def __init__(
        self,
        rules: BlackjackRules,
        dealer: DealerRule,
        scheme: BettingScheme,
        shoe: Shoe,
        chips: list[int],
        *,
        keep_entries: bool = True,
        emit: Callable[[Any], None] | None = None,
        plain_events: bool = False,
    ) -> None:
        if not 1 <= len(chips) <= 7:
            raise CroupierError(f"a table has 1 to 7 seats, not {len(chips)}")
        self.rules = rules
        self.dealer = dealer
        self.scheme = scheme
        self.shoe = shoe
        self.emit = emit
        self._plain_events = plain_events
        """``emit`` gets plain maps with their words in ``text`` (a game table's events,
        built directly), else :class:`~croupier.plugins.blackjack.play.Event` values."""
        self.seats = [Seat(i + 1) for i in range(len(chips))]
        self.ledger = Ledger(
            {seat.account: c for seat, c in zip(self.seats, chips, strict=True)},
            keep_entries=keep_entries,
        )
        self.round = 0
        self.dealer_hand = Hand(0)
        self.dealer_cards = self.dealer_hand.cards
        self.upcard = 0  # the value of the dealer's upcard this round (1 for an ace)
        self.table_cards: list[int] = []  # every other card dealt this round, in order
        self.hole_shown = False
        self._decks_seen = shoe.decks_added
        # what the (frozen) rules fix for the whole game, read once
        self._balances = self.ledger.balances
        # the shoe's C-level draw, when it has one (a stand-in shoe may only have draw());
        # fetched again each round, so a copy of the table draws from its own shoe
        self._take: Callable[[], int] = getattr(shoe, "take", shoe.draw)
        self._transfer = self.ledger.transfer
        self._offers = {v: upcard_offers(rules, v) for v in range(1, 11)}
        self._one_card_split_aces = not rules.hit_split_aces
        self._double_totals = _DOUBLE_TOTALS.get(rules.double, ())
        self._surrender = rules.surrender != "none"
        self._overbet_stands = rules.overbet == "stand"

    # -- small helpers ---------------------------------------------------------------------
    def _event(self, kind: str, **fields: object) -> None:
        """Emit an event (callers on the fast path check ``self.emit`` first); its fields
        come in :class:`~croupier.plugins.blackjack.play.Event`'s order, None left out."""
        emit = self.emit
        if emit is None:
            return
        if self._plain_events:
            event = {"kind": kind, "round": self.round, **fields}
            if fields:  # the words of an event with fields never name its round: said once
                # each kind's fields come in one order a site
                self._said((kind, *fields.values()), event)
            else:
                event["text"] = describe(event)
                emit(event)
        else:
            emit(Event(kind, self.round, **fields))  # type: ignore[arg-type]

    def _said(self, key: tuple[object, ...], event: dict[str, Any]) -> None:
        """Emit a plain ``event`` built by its step (the commonest kinds, without
        :meth:`_event`'s keyword arguments), its words found by ``key``, as :meth:`_event`'s
        (its kind, then its fields' values in order)."""
        text = _SAID.get(key)
        if text is None:
            if len(_SAID) >= 50_000:
                _SAID.clear()
            text = _SAID[key] = describe(event)
        event["text"] = text
        self.emit(event)  # type: ignore[misc]

    def _action(self, seat: Seat, hand: int, kind: str, amount: int) -> None:
        """The ``action`` event of a seat's bet or play (callers check ``self.emit``)."""
        if not self._plain_events:
            self._event("action", seat=seat.index, hand=hand, action=kind, amount=amount)
            return
        at = seat.index
        event = {
            "kind": "action",
            "round": self.round,
            "seat": at,
            "hand": hand,
            "action": kind,
            "amount": amount,
        }
        self._said(("action", at, hand, kind, amount), event)

    def _pay(self, seat: Seat, amount: int, reason: str) -> None:
        self._transfer(self.round, seat.account, amount, reason)
        seat.net += amount
        emit = self.emit
        if emit is None:
            return
        if not self._plain_events:
            self._event("chips", seat=seat.index, amount=amount, reason=reason)
            return
        # built here directly as _deal's deals (6 of a round's 38 events at 4 seats)
        at = seat.index
        event = {
            "kind": "chips",
            "round": self.round,
            "seat": at,
            "amount": amount,
            "reason": reason,
        }
        key = ("chips", at, amount, reason)
        self._said(key, event)

    def _draw(self) -> int:
        """The next card (and a ``deck-added`` event when the contest adds a deck)."""
        try:
            card = self._take()
        except IndexError:  # the shoe is dry: draw() refills or reshuffles it
            card = self.shoe.draw()
        if self.emit is not None and self.shoe.decks_added != self._decks_seen:
            self._decks_seen = self.shoe.decks_added
            self._event("deck-added")
        return card

    def _deal(self, seat: Seat, index: int, hand: Hand, reason: str = "deal") -> None:
        if self.emit is None:  # the fast path: _draw inlined
            try:
                card = self._take()
            except IndexError:
                card = self.shoe.draw()
            hand.add(card)
            self.table_cards.append(card)
            return
        card = self._draw()
        hand.add(card)
        self.table_cards.append(card)
        if not self._plain_events:
            self._event(
                "deal",
                seat=seat.index,
                hand=index,
                card=CODES[card],
                total=hand.total,
                soft=hand.soft,
                reason=reason,
            )
            return
        # the commonest event (14 of a round's 38 at 4 seats), built here directly: the
        # map _event builds, without its keyword arguments
        code, total, soft, at = CODES[card], hand.total, hand.soft, seat.index
        key = ("deal", at, index, code, total, soft, reason)
        event = {
            "kind": "deal",
            "round": self.round,
            "seat": at,
            "hand": index,
            "card": code,
            "total": total,
            "soft": soft,
            "reason": reason,
        }
        self._said(key, event)

    def chips(self, seat: Seat) -> int:
        return self._balances[seat.account]
