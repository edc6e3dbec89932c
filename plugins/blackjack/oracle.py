"""Blackjack's oracle: composition-dependent values of every play from the remaining shoe.

The oracle follows a table's public events (shuffles, decks added, every card dealt or
turned), so it knows the cards seen since the shuffle, as any seat could. At a seat's play
decision it asks the exact solver (:func:`action_values`, the one call into it, so a
faster solver can take its place) for the value of each legal action on that hand against
the upcard, from the shoe less every card seen but the hand's and the upcard (the hole
card is unseen), after the splits the seat has made so far: values per chip staked,
conditioned on what the seat knows (no dealer blackjack once the dealer has peeked),
times the hand's stake. Insurance is valued exactly from the chance that the hole card is
a ten. A bet is valued by the exact edge of the round it goes into, from the shoe left
(:mod:`croupier.plugins.blackjack.round_edge`: a whole solve per shoe): it loses nothing,
and its edge shows whether a bot's bets followed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import attrs

from croupier.engine import (
    CroupierError,
    Plain,
    Question,
    Turn,
    Valuation,
    phase_of,
)
from croupier.plugins.blackjack.round_edge import BetQuestion, value_bet
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.solver.analysis import UpcardSolver, check_rules
from croupier.plugins.blackjack.solver.cards import TEN, Counts, full_shoe, rank_of
from croupier.plugins.blackjack.solver.hand import make_hand

PLAYS = ("hit", "stand", "double", "split", "surrender")
REFILLED_LOW = 20
"""A shoe refilled by a fresh deck when dry (the contest's) is not valued below this many
unseen cards: the cards to come may then be partly a new deck's, which the solver does not
model, so such a decision stays unscored."""


def action_values(
    rules: BlackjackRules,
    shoe: Counts,
    hand: tuple[int, ...],
    upcard: int,
    splits: int,
    legal: tuple[str, ...],
) -> dict[str, float]:
    """The exact EV per chip staked of each of ``legal`` (among hit, stand, double, split,
    surrender) on ``hand`` (rank indices) against ``upcard``, from ``shoe`` (the counts
    of every card not seen, the hand's and the upcard included), after ``splits`` splits;
    conditioned on no dealer blackjack when the dealer has peeked."""
    pair = len(hand) == 2 and hand[0] == hand[1] and "split" in legal
    if pair:  # the hands this split may still make
        rules = rules.evolve(max_split_hands=max(2, rules.max_split_hands - splits))
    solver = _solver(rules, tuple(shoe), upcard, hand[0] if pair else None)
    ev = solver.main
    cards = make_hand(list(hand), True)
    mass = ev.mass(cards)
    values: dict[str, float] = {}
    for action in legal:
        if action == "stand":
            values[action] = ev.stand(cards)
        elif action == "hit":
            values[action] = ev.hit(cards)
        elif action == "double":
            values[action] = ev.double(cards)
        elif action == "split" and pair:
            values[action] = solver.split(hand[0])
        elif action == "surrender":
            values[action] = -0.5 * mass if rules.peek else -0.5
    return {k: v / mass for k, v in values.items()}


@lru_cache(maxsize=16)
def _solver(rules: BlackjackRules, shoe: Counts, upcard: int, pair: int | None) -> UpcardSolver:
    """The solver of one shoe and upcard, kept: the next decision on the same hand asks
    about the same shoe (the card drawn left the unseen cards and joined the hand), and
    finds its values memoised."""
    return UpcardSolver(
        rules,
        upcard,
        "ev",
        precompute_all=False,
        shoe=tuple(float(n) for n in shoe),
        split_ranks=set() if pair is None else {pair},
    )


@attrs.frozen
class PlayQuestion:
    """A play decision as plain data (see :func:`action_values`)."""

    rules: dict[str, Any]
    shoe: Counts
    hand: tuple[int, ...]
    upcard: int
    splits: int
    legal: tuple[str, ...]
    taken: str
    stake: int
    covers: bool


def value_play(q: PlayQuestion) -> Valuation:
    rules = rules_from_options(BlackjackRules(), dict(q.rules))
    per_chip = action_values(rules, q.shoe, q.hand, q.upcard, q.splits, q.legal)
    return Valuation({k: v * q.stake for k, v in per_chip.items()}, q.taken, covers=q.covers)


@attrs.frozen
class InsuranceQuestion:
    tens: int
    unseen: int
    stake: int
    taken: str


def value_insurance(q: InsuranceQuestion) -> Valuation:
    """Insurance costs half the stake and pays 2:1 when the hole card is a ten."""
    p = q.tens / q.unseen
    return Valuation({"insurance": q.stake / 2 * (3 * p - 1), "decline": 0.0}, q.taken)


def _rank(code: str) -> int:
    return rank_of(code[:-1] if len(code) > 2 else code[0])


class BlackjackOracle:
    """One table's oracle (see the module's text)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.rules = rules_from_options(BlackjackRules(), dict(options))
        if self.rules.decks is None:
            raise CroupierError("blackjack's oracle needs a finite shoe")
        check_rules(self.rules)  # rules the solver cannot value: one line, at the start
        self.options = self.rules.to_dict()
        self.deck = full_shoe(1)
        self.unseen = list(full_shoe(self.rules.decks))
        self.refilled = self.rules.shoe == "koth"
        self.known = False  # the shoe is known once a shuffle was seen
        self.played: set[int] = set()  # seats that made a play decision this round
        self.insured: set[int] = set()

    def see(self, event: Plain) -> None:
        kind = event.get("kind")
        if kind == "shuffle":
            self.unseen = list(full_shoe(self.rules.decks or 1))
            self.known = True
        elif kind == "deck-added":
            self.unseen = [a + b for a, b in zip(self.unseen, self.deck, strict=True)]
        elif kind in ("deal", "reveal"):
            card = event.get("card")
            if isinstance(card, str) and card != "#":
                self.unseen[_rank(card)] -= 1
        elif kind == "round":
            self.played.clear()
            self.insured.clear()
        elif kind == "action" and event.get("action") == "insurance":
            seat = event.get("seat")
            if isinstance(seat, int):
                self.insured.add(seat)

    def ask(self, turn: Turn, action: Plain) -> Question | None:
        if not self.known or min(self.unseen) < 0:
            return None
        if self.refilled and sum(self.unseen) < REFILLED_LOW:
            return None
        obs = turn.observation
        taken = str(action.get("kind"))
        if phase_of(turn) == "bet":  # valued by the round's exact edge (round_edge.py)
            amount = action.get("amount")
            if taken != "bet" or isinstance(amount, bool) or not isinstance(amount, int):
                return None
            if amount <= 0:  # sitting the round out
                return None
            data = BetQuestion(self.options, tuple(self.unseen), amount)
            return Question(value_bet, data, bet=True)  # a whole solve: only when asked
        upcode = obs.get("dealer_upcard")
        if not isinstance(upcode, str):
            return None
        if phase_of(turn) == "insurance":
            tens = self.unseen[TEN]
            return Question(
                value_insurance,
                InsuranceQuestion(tens, sum(self.unseen), int(obs["stake"]), taken),
            )
        if phase_of(turn) != "play" or taken not in PLAYS:
            return None
        legal = tuple(a for a in turn.legal if a in PLAYS)
        hands = obs["hands"]
        hand = tuple(_rank(c) for c in hands[obs["hand"]])
        upcard = _rank(upcode)
        shoe = list(self.unseen)
        shoe[upcard] += 1
        for rank in hand:
            shoe[rank] += 1
        covers = turn.seat not in self.played and turn.seat not in self.insured
        self.played.add(turn.seat)
        question = PlayQuestion(
            self.options,
            tuple(shoe),
            hand,
            upcard,
            len(hands) - 1,
            legal,
            taken,
            int(obs["stake"]),
            covers and len(hands) == 1,
        )
        return Question(value_play, question)
