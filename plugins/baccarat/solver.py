"""Exact baccarat odds for any shoe: every coup enumerated, weighted by its exact chance.

The cards left in a shoe matter only by value (0-9), so a shoe is ten counts. A coup
uses four to six cards; the solver walks every sequence of values the tableau can deal
from the shoe, each weighted by the product of the counts it draws without replacement,
and scales a coup of k cards by the ways to draw the 6 - k cards it leaves unused, so
that every weight is over the same denominator N(N-1)...(N-5). The sums are exact
integers: probabilities and house edges come out as exact fractions.

House edges are per hand bet, ties included (a player or banker bet pushes on a tie):

- player (1:1): ``P(banker) - P(player)``;
- banker with 5% commission (pays 19:20): ``P(player) - 19/20 P(banker)``;
- banker with no commission (pays 1:1 except 1:2 on a banker win with a total of 6):
  ``P(player) - P(banker, not 6) - 1/2 P(banker with 6)``;
- tie (``tie_pays``:1, default 8): ``P(not tie) - tie_pays P(tie)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from croupier.engine import CroupierError
from croupier.plugins.baccarat.tableau import banker_draws

PER_DECK: tuple[int, ...] = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
"""Cards of each baccarat value 0..9 in one deck (the tens and faces are 0)."""


def shoe_counts(decks: int) -> list[int]:
    return [decks * n for n in PER_DECK]


@attrs.frozen
class Odds:
    """Exact chances of each result of the next coup from a shoe."""

    player: Fraction
    banker: Fraction
    banker_six: Fraction
    """The banker wins with a total of 6 (part of :attr:`banker`)."""
    tie: Fraction

    def edges(self, tie_pays: int = 8) -> dict[str, Fraction]:
        """Each bet's house edge per hand bet (see the module's text)."""
        return {
            "player": self.banker - self.player,
            "banker": self.player - Fraction(19, 20) * self.banker,
            "banker_no_commission": self.player
            - (self.banker - self.banker_six)
            - self.banker_six / 2,
            "tie": (1 - self.tie) - tie_pays * self.tie,
        }


def odds(counts: list[int]) -> Odds:
    """The next coup's odds from a shoe holding ``counts[v]`` cards of value ``v``."""
    if len(counts) != 10 or any(not isinstance(c, int) or c < 0 for c in counts):
        raise CroupierError("a baccarat shoe is ten counts of cards by value 0-9, none negative")
    n = sum(counts)
    if n < 6:
        raise CroupierError(f"a coup may need 6 cards; this shoe holds {n}")
    c = list(counts)
    tally = [0, 0, 0, 0]  # player, banker, banker with 6, tie
    spare2 = (n - 4) * (n - 5)  # ways to draw the two cards a four-card coup leaves unused
    spare1 = n - 5

    def book(pt: int, bt: int, weight: int) -> None:
        if pt > bt:
            tally[0] += weight
        elif bt > pt:
            tally[1] += weight
            if bt == 6:
                tally[2] += weight
        else:
            tally[3] += weight

    values = range(10)
    for p1 in values:
        w1 = c[p1]
        if not w1:
            continue
        c[p1] -= 1
        for b1 in values:
            w2 = w1 * c[b1]
            if not w2:
                continue
            c[b1] -= 1
            for p2 in values:
                w3 = w2 * c[p2]
                if not w3:
                    continue
                c[p2] -= 1
                pt = (p1 + p2) % 10
                for b2 in values:
                    w4 = w3 * c[b2]
                    if not w4:
                        continue
                    c[b2] -= 1
                    bt = (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:
                        book(pt, bt, w4 * spare2)
                    elif pt <= 5:
                        for p3 in values:
                            w5 = w4 * c[p3]
                            if not w5:
                                continue
                            pt3 = (pt + p3) % 10
                            if banker_draws(bt, p3):
                                c[p3] -= 1
                                for b3 in values:
                                    if c[b3]:
                                        book(pt3, (bt + b3) % 10, w5 * c[b3])
                                c[p3] += 1
                            else:
                                book(pt3, bt, w5 * spare1)
                    elif banker_draws(bt, None):
                        for b3 in values:
                            if c[b3]:
                                book(pt, (bt + b3) % 10, w4 * c[b3] * spare1)
                    else:
                        book(pt, bt, w4 * spare2)
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    if sum(tally) - tally[2] != total:  # every way to deal six cards, counted once
        raise AssertionError("baccarat enumeration lost weight")
    return Odds(*(Fraction(t, total) for t in tally))


def solve(problem: Mapping[str, Any]) -> dict[str, Any]:
    """The ``baccarat`` solver: ``{"decks": 8}`` or ``{"counts": [c0, ..., c9]}`` (cards
    left by value), optionally ``"tie_pays"`` (default 8); exact odds and house edges."""
    if not isinstance(problem, Mapping):
        raise CroupierError('a baccarat problem is a mapping such as {"decks": 8}')
    unknown = set(problem) - {"decks", "counts", "tie_pays"}
    if unknown:
        raise CroupierError(f"unknown baccarat problem field(s): {', '.join(sorted(unknown))}")
    if "counts" in problem:
        counts = problem["counts"]
        if not isinstance(counts, list):
            raise CroupierError("counts is a list of ten numbers of cards, by value 0-9")
    else:
        decks = problem.get("decks", 8)
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 64:
            raise CroupierError(f"decks is a whole number from 1 to 64, not {decks!r}")
        counts = shoe_counts(decks)
    tie_pays = problem.get("tie_pays", 8)
    if isinstance(tie_pays, bool) or not isinstance(tie_pays, int) or not 1 <= tie_pays <= 100:
        raise CroupierError(f"tie_pays is a whole number from 1 to 100, not {tie_pays!r}")
    result = odds(list(counts))
    probabilities = {
        "player": result.player,
        "banker": result.banker,
        "banker_six": result.banker_six,
        "tie": result.tie,
    }
    edges = result.edges(tie_pays)
    return {
        "cards": sum(counts),
        "tie_pays": tie_pays,
        "probabilities": {k: float(v) for k, v in probabilities.items()},
        "edges": {k: float(v) for k, v in edges.items()},
        "exact": {
            "probabilities": {k: str(v) for k, v in probabilities.items()},
            "edges": {k: str(v) for k, v in edges.items()},
        },
    }
