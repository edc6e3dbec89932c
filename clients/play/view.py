"""What the person at the terminal knows of the table: built from public events only.

:class:`TableView` follows a table's :class:`~croupier.plugins.blackjack.play.Event` stream (and the
seat's observations, for the chips) and holds what the screen shows: the dealer's cards
(the hole card as ``"#"`` until it is turned), every seat's hands with their stakes and
outcomes, a log of what just happened in plain English, and the session's :class:`Tally`.
It never sees the engine's state, so the same view serves a local table and (later) a
table on a croupier server: only the seat's player differs.
"""

from __future__ import annotations

import attrs

from croupier.engine.cards import HIDDEN, RANKS, VALUES, card, name
from croupier.plugins.blackjack.play import Event, Observation
from croupier.plugins.blackjack.values import total_of

LOG_LINES = 40
"""How many lines of narration the view keeps (the screen shows the last few)."""

PERSON_TIME = 10.0
"""Seconds a person needs for a decision: to read the cards and press a key (more for the
hint). A server table giving less is warned about; a shared table ``croupier play
--connect`` makes gives this much (the server's largest by default)."""


@attrs.frozen
class Tally:
    """The session so far: hands settled (each split hand counts), won, lost, pushed, and
    the net chips (chips held now minus at the start; a stake forfeited by quitting
    mid-hand counts as lost chips)."""

    hands: int = 0
    won: int = 0
    lost: int = 0
    pushed: int = 0
    net: int = 0

    def line(self) -> str:
        sign = "+" if self.net > 0 else ""
        hands = "1 hand" if self.hands == 1 else f"{self.hands} hands"
        return (
            f"{hands}: {self.won} won, {self.lost} lost, {self.pushed} pushed; "
            f"net {sign}{chips_text(self.net)}"
        )


WON = ("win", "natural")
LOST = ("lose", "bust", "surrender")


@attrs.define
class HandState:
    """One hand of a seat: its cards as codes, its stake and, once settled, its outcome."""

    cards: list[str]
    stake: int
    outcome: str | None = None

    @property
    def value(self) -> tuple[int, bool]:
        """``(total, soft)`` of the cards."""
        return hand_total(self.cards)


def hand_total(codes: list[str]) -> tuple[int, bool]:
    """``(total, soft)`` of the visible cards (a hidden card counts nothing)."""
    return total_of(VALUES[card(c)] for c in codes if c != HIDDEN)


def card_name(code: str) -> str:
    """``"Queen of Clubs"``, or ``"?"`` for the hidden hole card."""
    return "?" if code == HIDDEN or code[:1] not in RANKS else name(card(code))


def total_text(codes: list[str]) -> str:
    """``"Soft 17"``, ``"16"``, ``"Bust (24)"``; ``""`` without cards. (Whether two cards
    making 21 are a blackjack depends on the rules: the settlement says so.)"""
    shown = [c for c in codes if c != HIDDEN]
    if not shown:
        return ""
    total, soft = hand_total(shown)
    if total > 21:
        return f"Bust ({total})"
    return f"Soft {total}" if soft else str(total)


class TableView:
    """The table as seen from seat ``seat``, updated by :meth:`apply` and :meth:`observe`."""

    def __init__(self, seat: int, chips: int, title: str) -> None:
        self.seat = seat
        self.title = title
        self.start_chips = chips
        self.chips = chips
        self.round = 0
        self.dealer: list[str] = []
        self.hands: dict[int, list[HandState]] = {}
        self.acting: tuple[int, int] = (seat, 0)
        self.bets: dict[int, int] = {}
        self.log: list[str] = []
        self._cards_round = 0
        self._round_chips = chips
        self.bets_seen: set[int] = set()
        self.phase: str | None = None
        self.min_bet = 0
        self.notice: str | None = None
        """Said with the person's next prompt (the default the server played for them)."""
        self._insured = 0  # the person's insurance this round, until it is paid or lost
        self._won = self._lost = self._pushed = 0
        self._begun: dict[int, tuple[int, int, int, int]] = {}
        """Chips and counts as each recent round began: a server that stopped before it
        settled a round plays it again after its restart, from that state."""

    # -- what the screen asks ---------------------------------------------------------------
    @property
    def tally(self) -> Tally:
        return Tally(
            self._won + self._lost + self._pushed,
            self._won,
            self._lost,
            self._pushed,
            self.chips - self.start_chips,
        )

    @property
    def my_hands(self) -> list[HandState]:
        return self.hands.get(self.seat, [])

    @property
    def at_stake(self) -> int:
        """Chips on the table in the person's unsettled hands (or bet, not yet dealt)."""
        unsettled = sum(h.stake for h in self.my_hands if h.outcome is None)
        return unsettled + self.bets.get(self.seat, 0)

    def say(self, line: str) -> None:
        """Add a line to the narration (the status line shows the newest)."""
        self.log.append(line)
        del self.log[:-LOG_LINES]

    # -- updates ----------------------------------------------------------------------------
    def observe(self, observation: Observation) -> None:
        """Take the chips, the round and the hand to play from an observation."""
        self.chips = observation.chips
        self.round = observation.round
        self.phase, self.min_bet = observation.phase, observation.min_bet
        if observation.phase == "play":  # the hand to play (a split hand's turn has come)
            self.acting = (observation.seat, observation.hand)

    def apply(self, event: Event) -> None:
        """Follow one event and narrate it."""
        kind = event.kind
        if kind == "round":
            if event.round in self._begun:
                self._again(event.round)
            self._begun = {r: b for r, b in self._begun.items() if r > event.round - 3}
            self._begun[event.round] = (self.chips, self._won, self._lost, self._pushed)
            self.round = event.round
            self._round_chips = self.chips
            self._insured = 0
        elif kind == "end" and self.seat in self.bets_seen:
            self._insurance_lost()
            self.bets_seen.discard(self.seat)
            self.say(round_result(self.chips - self._round_chips))
        elif kind == "deal":
            self._deal(event)
        elif kind == "reveal" and event.card is not None:
            if len(self.dealer) > 1:
                self.dealer[1] = event.card
        elif kind == "action" and event.seat is not None:
            self._action(event)
        elif kind == "chips" and event.seat is not None:
            self._chips(event)
        elif kind == "settle" and event.seat is not None:
            self._settle(event)
        elif kind == "default" and event.seat == self.seat:
            self.notice = default_text(self.phase, self.min_bet, event.reason)
            self.say(self.notice)
            return
        if kind == "action" and event.seat == self.seat and event.action != "bet":
            line: str | None = self._own_action(event)
        else:
            line = narrate(event, self.seat)
        if line:
            self.say(line)
        if kind == "peek" and event.outcome == "none":
            self._insurance_lost()

    def _again(self, round_: int) -> None:
        """Round ``round_`` begins again (the server restarted before settling it): what
        was seen of it and of any later round is void."""
        self.chips, self._won, self._lost, self._pushed = self._begun[round_]
        self._begun = {r: b for r, b in self._begun.items() if r < round_}
        self.dealer, self.hands, self.bets = [], {}, {}
        self.bets_seen.clear()
        self._cards_round = 0
        self.say(f"Round {round_} starts again from the beginning")

    def _own_action(self, event: Event) -> str:
        """What the person did, in words (the cards show the result, not the choice)."""
        you = "You" if not event.hand else f"Your hand {event.hand + 1}"
        verb = _OWN.get(event.action or "", event.action or "")
        if event.action == "insurance" and self._natural():
            verb = "take even money"
        elif event.action == "decline":
            verb = "do not surrender" if self.phase == "surrender" else "decline insurance"
        elif event.action == "raise":
            verb = f"raise the bet by {event.amount}"
        if event.hand:  # "Your hand 2 hits"
            verb = _third_person(verb)
        return f"{you} {verb}"

    def _natural(self) -> bool:
        hands = self.my_hands
        return len(hands) == 1 and len(hands[0].cards) == 2 and hand_total(hands[0].cards)[0] == 21

    def _insurance_lost(self) -> None:
        if self._insured:
            self.say(f"Your insurance is lost ({chips_text(self._insured)})")
            self._insured = 0

    def _new_round(self, round_: int) -> None:
        self._cards_round = round_
        self.dealer = []
        self.hands = {s: [HandState([], bet)] for s, bet in self.bets.items()}
        self.bets = {}

    def _deal(self, event: Event) -> None:
        if event.round != self._cards_round:
            self._new_round(event.round)
        code = event.card or HIDDEN
        if event.seat is None:
            self.dealer.append(code)
            return
        hands = self.hands.setdefault(event.seat, [HandState([], 0)])
        index = event.hand or 0
        while len(hands) <= index:
            hands.append(HandState([], hands[0].stake))
        hands[index].cards.append(code)

    def _action(self, event: Event) -> None:
        seat, index = event.seat or 0, event.hand or 0
        self.acting = (seat, index)
        hands = self.hands.get(seat, [])
        if index >= len(hands):
            return
        hand = hands[index]
        if event.action == "double":
            hand.stake *= 2
        elif event.action == "split" and hand.cards:
            hands.insert(index + 1, HandState([hand.cards.pop()], hand.stake))

    def _chips(self, event: Event) -> None:
        amount = event.amount or 0
        if event.seat == self.seat:
            self.chips += amount
            if event.reason == "insurance":
                self._insured = -amount
                self.say(f"You put {chips_text(-amount)} on insurance")
            elif event.reason == "insurance-win":
                self._insured = 0
                self.say(f"Insurance pays {chips_text(amount)}")
        if event.reason == "bet":
            self.bets[event.seat or 0] = -amount
            self.bets_seen.add(event.seat or 0)
        elif event.reason == "raise":
            seat, index = self.acting
            hands = self.hands.get(seat, [])
            if seat == event.seat and index < len(hands):
                hands[index].stake -= amount

    def _settle(self, event: Event) -> None:
        hands = self.hands.get(event.seat or 0, [])
        index = event.hand or 0
        if index < len(hands):
            hands[index].outcome = event.outcome
        if event.seat != self.seat:
            return
        if event.outcome in WON:
            self._won += 1
        elif event.outcome in LOST:
            self._lost += 1
        else:
            self._pushed += 1


def chips_text(n: int) -> str:
    """``"1 chip"``, ``"5 chips"``."""
    return f"{n} chip" if abs(n) == 1 else f"{n} chips"


def round_result(net: int) -> str:
    """The closing line of a round for the person: what it won or lost in all."""
    if net > 0:
        return f"Round over: you win {chips_text(net)}"
    if net < 0:
        return f"Round over: you lose {chips_text(-net)}"
    return "Round over: you break even"


_DEFAULTS = {
    "bet": "the dealer bet the minimum ({}) for you",
    "play": "the dealer stood for you",
    "insurance": "no insurance for you",
    "surrender": "no surrender for you",
}


def time_text(table: int, decision_time: float | None) -> str | None:
    """A warning for a table whose decision time is short for a person (None if it is not)."""
    if decision_time is None or decision_time >= PERSON_TIME:
        return None
    return f"Only {decision_time:g} s per decision at table {table}: then the dealer plays for you"


def default_text(phase: str | None, min_bet: int, reason: str | None) -> str:
    """What the table's default for the person's decision in ``phase`` did, and why:
    "Time ran out: the dealer stood for you"."""
    what = _DEFAULTS.get(phase or "", "the table played its default for you").format(min_bet)
    if reason is None or reason.startswith("timeout"):
        return f"Time ran out: {what}"
    return f"The table played for you ({reason}): {what}"


_OWN = {
    "hit": "hit",
    "stand": "stand",
    "double": "double down",
    "split": "split",
    "surrender": "surrender",
    "insurance": "take insurance",
}


def _third_person(verb: str) -> str:
    """ "hit" -> "hits", "double down" -> "doubles down", "do not" -> "does not"."""
    first, _, rest = verb.partition(" ")
    first = "does" if first == "do" else first + "s"
    return f"{first} {rest}".strip()


_OUTCOMES = {
    "win": "win",
    "natural": "win with a blackjack",
    "push": "push",
    "lose": "lose",
    "bust": "bust",
    "surrender": "surrender",
}


def narrate(event: Event, me: int) -> str | None:
    """The status-line sentence for ``event``, speaking to the person at seat ``me``;
    None for events the screen shows by other means (chips, round boundaries)."""
    mine = event.seat == me
    who = "You" if mine else ("The dealer" if event.seat is None else f"Seat {event.seat}")
    if event.hand and mine:
        who = f"Your hand {event.hand + 1}"
    kind = event.kind
    if kind == "deal":
        if event.card == HIDDEN:
            return "The dealer deals the hole card face down"
        you = mine and not event.hand  # "You" takes the plural verb
        if event.reason == "draw":
            verb = "draw" if you else "draws"
        else:
            verb = "are dealt" if you else "is dealt"
        return f"{who} {verb} the {card_name(event.card or HIDDEN)}"
    if kind == "reveal":
        return f"The dealer turns the {card_name(event.card or HIDDEN)}"
    if kind == "action":
        if event.action == "pass":
            return f"{who} sit{'' if mine else 's'} this round out"
        if event.action == "bet":
            return f"{who} bet{'' if mine and not event.hand else 's'} {event.amount}"
        if mine:
            return None  # the person knows what they pressed; the cards show the result
        extra = f" {event.amount}" if event.amount else ""
        return f"{who}: {event.action}{extra}"
    if kind == "settle":
        outcome = _OUTCOMES.get(event.outcome or "", event.outcome or "")
        return f"{who}: {outcome} ({event.total})"
    if kind in ("round", "end", "chips"):
        return None
    if kind == "leave" and mine:
        return "You cannot pay the minimum bet and leave the table"
    if kind == "refused" and mine:
        return f"The table refused your answer: {event.reason}"
    if kind == "default":
        why = "ran out of time" if (event.reason or "").startswith("timeout") else event.reason
        return f"{who} {why}: the table played its default"
    text = event.describe()
    return text[:1].upper() + text[1:]
