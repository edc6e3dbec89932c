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
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from croupier.engine import BlackjackRules, CroupierError, Solution
from croupier.plugins.blackjack_solver.cards import RANKS, Counts, full_shoe, hand_text, parse_cards

# betting schemes whose tie is a loss; under "casino" a tie is a push
TIES_LOSE = ("classic", "koth")
NOTE = (
    "classic dealer: he draws until his points reach the player's total, 21 wins at once; "
    "values take this hand's total as the dealer's target (exact with one seat)"
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
    n = sum(unseen)
    for r, count in enumerate(unseen):
        if not count:
            continue
        p = count / n
        h, a = hard + r + 1, ace or r == 0
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
        n = sum(unseen)
        for r, count in enumerate(unseen):
            if not count:
                continue
            p = count / n
            h, a = hard + r + 1, ace or r == 0
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


def solve_classic(problem: dict[str, Any], rules: BlackjackRules, objective: str) -> Solution:
    """A ``hand`` + ``upcard`` problem under the classic dealer (see the module docstring)."""
    if problem.get("chart") or problem.get("dealer"):
        raise CroupierError(
            "under the classic dealer the solver answers a hand and an upcard (e.g. hand T,6 "
            "and upcard T): the dealer draws to the player's total, so there is no chart"
        )
    hand, upcard = problem.get("hand"), problem.get("upcard")
    if hand is None or upcard is None:
        raise CroupierError("under the classic dealer give a hand and an upcard (e.g. T,6 and T)")
    if rules.betting not in (*TIES_LOSE, "casino"):
        raise CroupierError(
            f"the classic solver knows ties under the classic, koth and casino betting, "
            f"not {rules.betting!r}"
        )
    ties_lose = rules.betting in TIES_LOSE
    if objective == "ev":
        payoff = (1.0, -1.0 if ties_lose else 0.0, -1.0)
    else:
        payoff = (1.0, 0.0 if ties_lose else 0.5, 0.0)
    cards = parse_cards(str(hand))
    ups = parse_cards(str(upcard))
    if len(ups) != 1:
        raise CroupierError(f"the upcard is one card, not {upcard!r}")
    if len(cards) < 2:
        raise CroupierError(f"a hand has at least two cards, not {hand!r}")
    hard = sum(r + 1 for r in cards)
    ace = 0 in cards
    total = best_total(hard, ace)
    if hard > 21:
        raise CroupierError(f"the hand {hand} is already bust")
    if total == 21:
        raise CroupierError(f"the hand {hand} has 21, which wins at once: nothing to decide")
    infinite = rules.decks is None
    unseen: Counts = INFINITE
    if rules.decks is not None:
        unseen = full_shoe(rules.decks)
        for r in (*cards, ups[0]):
            if unseen[r] == 0:
                raise CroupierError(f"{rules.decks} deck(s) hold too few cards of rank {RANKS[r]}")
            unseen = _without(unseen, r)
    solver = ClassicHand(ups[0], payoff, infinite)
    values = {"stand": solver.stand(unseen, hard, ace), "hit": solver.hit(unseen, hard, ace)}
    key = "ev" if objective == "ev" else "win_probability"
    actions = {
        k: ({"ev": v, "round_ev": v} if key == "ev" else {key: v}) for k, v in values.items()
    }
    return {
        "rules": rules.to_dict(),
        "objective": objective,
        "conditioned_on_no_dealer_blackjack": False,
        "note": NOTE,
        "hand": {
            "cards": hand_text(cards),
            "upcard": RANKS[ups[0]],
            "total": total,
            "soft": ace and hard + 10 <= 21,
            "best": max(values, key=lambda k: values[k]),
            "actions": actions,
        },
    }
