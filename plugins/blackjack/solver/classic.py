"""The classic console game solved exactly: hit or stand against a dealer who draws to you.

Under the ``classic`` dealer rule the dealer, after his hole card, draws until his points
reach the player's total (or 21); a player who reaches 21 wins at once, a player's bust
loses, and a tie goes to the dealer (a push when the table's betting is ``casino``). There
is no double, split, surrender or insurance, so a decision is hit or stand.

Every hand of the classic game comes from a fresh pack, so the values are exact for the
cards in sight: the pack minus the player's cards and the upcard. The hole card was dealt
before the player draws but is unseen, so it and every later card are uniform over the
unseen cards (exchangeability): the recursion draws the player's cards, then the hole card
and the dealer's cards, from the same unseen pack. Memo tables are keyed by the unseen
counts, so a whole hand solves in milliseconds.

With several seats the dealer draws to the best of their totals; these values take the
player's own total as the target, which is exact for the one-seat console game.

Without a hand the solver gives the whole game's value: every first card, upcard and second
card in deal order (a two-card 21 wins at once), every hand then played optimally, a few
seconds for one pack. :class:`ClassicPlayer` plays that way (the ``basic`` strategy under
the classic dealer).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from croupier.engine import CroupierError, Solution
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import TIES_LOSE
from croupier.plugins.blackjack.solver.cards import (
    ACE,
    RANKS,
    Counts,
    full_shoe,
    hand_text,
    parse_hand,
)

NOTE = (
    "classic dealer: he draws until his points reach the player's total, 21 wins at once; "
    "values take the player's total as the dealer's target (exact with one seat)"
)
INFINITE = (1,) * 9 + (4,)  # draw weights of an infinite deck (never depleted)


def best_total(hard: int, ace: bool) -> int:
    """Points of a hand: one ace counts 11 when that does not bust it."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


@lru_cache(maxsize=1 << 16)
def dealer_odds(
    unseen: Counts, hard: int, ace: bool, target: int, infinite: bool
) -> tuple[float, float]:
    """``(P(bust), P(tie))`` for a dealer holding ``hard``/``ace`` who draws a card now
    (his hole card, or a hit below ``target``) and then draws until he reaches it."""
    bust = tie = 0.0
    for p, r, h, a in _draws(unseen, hard, ace):
        if h > 21:
            bust += p
            continue
        total = best_total(h, a)
        if total >= target or total == 21:  # he stands
            tie += p if total == target else 0.0
            continue
        rest = unseen if infinite else _without(unseen, r)
        b, t = dealer_odds(rest, h, a, target, infinite)
        bust += p * b
        tie += p * t
    return bust, tie


def _draws(unseen: Counts, hard: int, ace: bool) -> Iterator[tuple[float, int, int, bool]]:
    """``(probability, rank, hard total, holds an ace)`` after each possible next card."""
    n = sum(unseen)
    for r, count in enumerate(unseen):
        if count:
            yield count / n, r, hard + r + 1, ace or r == ACE


def _without(counts: Counts, r: int) -> Counts:
    return (*counts[:r], counts[r] - 1, *counts[r + 1 :])


class ClassicHand:
    """Exact values of one upcard's decisions under a payoff ``(win, tie, lose)``."""

    def __init__(self, upcard: int, payoff: tuple[float, float, float], infinite: bool) -> None:
        self.upcard = upcard
        self.win, self.tie, self.lose = payoff
        self.infinite = infinite
        self._best: dict[tuple[Counts, int, bool], float] = {}

    def stand(self, unseen: Counts, hard: int, ace: bool) -> float:
        target = best_total(hard, ace)
        # the upcard alone: his next draw is the hole card, dealt whatever the rule says
        up = self.upcard
        bust, tie = dealer_odds(unseen, up + 1, up == 0, target, self.infinite)
        return bust * self.win + tie * self.tie + (1 - bust - tie) * self.lose

    def hit(self, unseen: Counts, hard: int, ace: bool) -> float:
        value = 0.0
        for p, r, h, a in _draws(unseen, hard, ace):
            if h > 21:
                value += p * self.lose
            elif best_total(h, a) == 21:
                value += p * self.win  # 21 wins at once
            else:
                rest = unseen if self.infinite else _without(unseen, r)
                value += p * self.best(rest, h, a)
        return value

    def best(self, unseen: Counts, hard: int, ace: bool) -> float:
        key = (unseen, hard, ace)
        if key not in self._best:
            self._best[key] = max(self.stand(unseen, hard, ace), self.hit(unseen, hard, ace))
        return self._best[key]


@lru_cache(maxsize=64)
def hand_solver(upcard: int, payoff: tuple[float, float, float], infinite: bool) -> ClassicHand:
    """One :class:`ClassicHand` per upcard and payoff, so that every caller shares its memo."""
    return ClassicHand(upcard, payoff, infinite)


def payoff_of(rules: BlackjackRules, objective: str) -> tuple[float, float, float]:
    """``(win, tie, lose)`` per unit bet: EV, or the chance of winning (a push counts 1/2).
    Checks the rules the classic solver covers: the three built-in bettings, no peek."""
    if rules.betting not in (*TIES_LOSE, "casino"):
        raise CroupierError(
            f"the classic solver knows ties under the classic, koth and casino betting, "
            f"not {rules.betting!r}"
        )
    if rules.peek:  # a peeked blackjack would end the round before the player's 21 wins
        raise CroupierError("the classic dealer is solved without the dealer's peek")
    ties_lose = rules.betting in TIES_LOSE
    if objective == "ev":
        return (1.0, -1.0 if ties_lose else 0.0, -1.0)
    return (1.0, 0.0 if ties_lose else 0.5, 0.0)


def pack_of(rules: BlackjackRules) -> Counts:
    """The counts a hand is dealt from (draw weights when the deck is infinite)."""
    return INFINITE if rules.decks is None else full_shoe(rules.decks)


def game_value(rules: BlackjackRules, objective: str = "ev") -> float:
    """The whole game's exact value per unit bet, every hand played optimally: each first
    card, upcard and second card in deal order, a two-card 21 winning at once."""
    payoff = payoff_of(rules, objective)
    infinite = rules.decks is None
    pack = pack_of(rules)
    hands = {u: hand_solver(u, payoff, infinite) for u in range(10)}

    def draws(counts: Counts) -> list[tuple[int, float, Counts]]:
        n = sum(counts)
        return [
            (r, c / n, counts if infinite else _without(counts, r))
            for r, c in enumerate(counts)
            if c
        ]

    value = 0.0
    for first, p1, after_first in draws(pack):
        for up, p2, after_up in draws(after_first):
            for second, p3, unseen in draws(after_up):
                hard, ace = first + second + 2, ACE in (first, second)
                if best_total(hard, ace) == 21:
                    result = payoff[0]
                else:
                    result = hands[up].best(unseen, hard, ace)
                value += p1 * p2 * p3 * result
    return value


class ClassicPlayer:
    """Plays each hand exactly (the ``basic`` strategy under the classic dealer): hit when
    hitting and playing on optimally is worth more than standing, from the pack in sight."""

    def __init__(self, rules: BlackjackRules) -> None:
        payoff = payoff_of(rules, "ev")
        self.pack = pack_of(rules)
        self.infinite = rules.decks is None
        self.hands = {u: hand_solver(u, payoff, self.infinite) for u in range(10)}

    def decide(self, cards: Sequence[int], upcard: int) -> str:
        """``"hit"`` or ``"stand"`` for rank indices (0 = ace .. 9 = ten)."""
        unseen = self.pack
        if not self.infinite:
            for r in (*cards, upcard):
                if unseen[r]:  # a pack short of a rank (a shared deck) is read as it is
                    unseen = _without(unseen, r)
        hard, ace = sum(cards) + len(cards), ACE in cards
        solver = self.hands[upcard]
        return "hit" if solver.hit(unseen, hard, ace) > solver.stand(unseen, hard, ace) else "stand"


def solve_classic(problem: dict[str, Any], rules: BlackjackRules, objective: str) -> Solution:
    """A classic-dealer problem: one hand's values (``hand`` + ``upcard``), or without them
    the whole game's value (see the module docstring)."""
    if problem.get("chart") or problem.get("dealer"):
        raise CroupierError(
            "under the classic dealer there is no chart or dealer table (he draws to the "
            "player's total): give a hand and an upcard (e.g. T,6 and T), or neither for "
            "the whole game's value"
        )
    hand, upcard = problem.get("hand"), problem.get("upcard")
    if (hand is None) != (upcard is None):
        raise CroupierError("'hand' and 'upcard' go together (e.g. hand T,6 and upcard T)")
    out: Solution = {
        "rules": rules.to_dict(),
        "objective": objective,
        "conditioned_on_no_dealer_blackjack": False,
        "note": NOTE,
    }
    if hand is None:
        value = game_value(rules, objective)
        game = {"value": value}
        if objective == "ev":
            game["house_edge"] = -value
        out["game"] = game
        return out
    out["hand"] = hand_values(rules, str(hand), str(upcard), objective)
    return out


def hand_values(rules: BlackjackRules, hand: str, upcard: str, objective: str) -> dict[str, Any]:
    """Stand and hit (then optimal play) for one hand against one upcard."""
    payoff = payoff_of(rules, objective)
    cards, up = parse_hand(hand, upcard, rules.decks)
    hard = sum(r + 1 for r in cards)
    ace = ACE in cards
    total = best_total(hard, ace)
    if hard > 21:
        raise CroupierError(f"the hand {hand} is already bust")
    if total == 21:
        raise CroupierError(f"the hand {hand} has 21, which wins at once: nothing to decide")
    unseen = pack_of(rules)
    if rules.decks is not None:
        for r in (*cards, up):
            unseen = _without(unseen, r)
    solver = hand_solver(up, payoff, rules.decks is None)
    values = {"stand": solver.stand(unseen, hard, ace), "hit": solver.hit(unseen, hard, ace)}
    if objective == "ev":
        actions = {k: {"ev": v, "round_ev": v} for k, v in values.items()}
    else:
        actions = {k: {"win_probability": v} for k, v in values.items()}
    return {
        "cards": hand_text(cards),
        "upcard": RANKS[up],
        "total": total,
        "soft": ace and hard + 10 <= 21,
        "best": max(values, key=lambda k: values[k]),
        "actions": actions,
    }
