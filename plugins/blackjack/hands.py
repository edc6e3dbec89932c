"""The round engine's working parts: hands, seats, decisions, and the rules for answers.

:class:`Hand` and :class:`Seat` are mutable and internal to a round (strategies read a
hand through :class:`~croupier.plugins.blackjack.strategy.HandView`); :class:`Decision` is what the
round asks; :func:`check_action` and :func:`default_action` are the one place that says
what answer is acceptable and what a silent player gets, shared by every driver.
"""

from __future__ import annotations

from croupier.engine import VALUES, seat_account
from croupier.plugins.blackjack.play import Action

ACT: dict[str, Action] = {
    kind: Action(kind) for kind in ("hit", "stand", "double", "split", "surrender")
}
ACT["insurance"] = Action("insurance")
ACT["decline"] = Action("decline")
"""Shared instances of the amount-less actions (the fast path never builds one)."""


class Hand:
    """A hand being played (mutable, internal). Aces count 1 in ``hard``; ``total``,
    ``soft`` and ``natural`` are kept up to date by :meth:`add` (read on every decision,
    so they are plain attributes rather than computed on each read)."""

    __slots__ = (
        "ace",
        "bet",
        "cards",
        "done",
        "hard",
        "moves",
        "natural",
        "outcome",
        "soft",
        "split",
        "split_aces",
        "total",
    )

    def __init__(self, bet: int, split: bool = False) -> None:
        self.cards: list[int] = []
        self.hard = 0
        self.ace = False
        self.total = 0
        self.soft = False
        self.natural = False
        self.bet = bet
        self.split = split
        self.split_aces = False
        self.done = False
        self.moves = 0
        self.outcome: str | None = None

    def add(self, card: int) -> None:
        """Take ``card``: one ace counts 11 when that does not bust the hand; two cards
        making 21 are a natural unless the hand came from a split."""
        cards = self.cards
        cards.append(card)
        v = VALUES[card]
        hard = self.hard + v
        self.hard = hard
        if v == 1:
            self.ace = True
        if self.ace and hard <= 11:
            self.total = hard + 10
            self.soft = True
            self.natural = hard == 11 and len(cards) == 2 and not self.split
        else:
            self.total = hard
            self.soft = self.natural = False

    def split_off(self) -> int:
        """Split the pair: keep the first card, return the second (for the new hand)."""
        second = self.cards.pop()
        first = self.cards.pop()
        self.hard = 0
        self.ace = False
        self.split = True
        self.add(first)
        return second


class Seat:
    """A seat at the table and, after each round, what happened to it in that round."""

    __slots__ = (
        "account",
        "busts",
        "doubles",
        "hands",
        "index",
        "insurance",
        "natural",
        "net",
        "present",
        "splits",
    )

    def __init__(self, index: int) -> None:
        self.index = index
        self.account = seat_account(index)
        self.present = True
        self.hands: list[Hand] = []
        self.insurance = 0
        self.net = 0
        self.natural = False
        self.busts = 0
        self.doubles = 0
        self.splits = 0


class Decision:
    """A question the round asks: ``phase``, the seat, its hand (play phase) and the legal
    actions; ``low``/``high`` bound a bet."""

    __slots__ = ("hand", "high", "legal", "low", "phase", "seat")

    def __init__(
        self,
        phase: str,
        seat: Seat,
        hand: Hand | None,
        legal: tuple[str, ...],
        low: int = 0,
        high: int = 0,
    ) -> None:
        self.phase = phase
        self.seat = seat
        self.hand = hand
        self.legal = legal
        self.low = low
        self.high = high


def check_action(decision: Decision, action: Action) -> str | None:
    """Why ``action`` is not acceptable for ``decision``, or None when it is."""
    if action.kind not in decision.legal:
        return f"{action.kind} is not allowed now (legal: {', '.join(decision.legal)})"
    if action.kind == "bet" and not decision.low <= action.amount <= decision.high:
        return f"a bet must be between {decision.low} and {decision.high}, not {action.amount}"
    if action.kind == "raise" and action.amount == 0:
        return "a raise needs a non-zero number of chips"
    return None


def default_action(decision: Decision) -> Action:
    """What a silent, slow, broken or stubborn player gets: stand; the minimum bet; no
    insurance; no early surrender."""
    if decision.phase == "bet":
        return Action("bet", decision.low)
    if decision.phase == "play":
        return ACT["stand"]
    return ACT["decline"]
