"""Basic-strategy charts: the conventional letters, and a chart that decides like a player.

A chart has one letter per row and dealer upcard (2..9, T, A in display order):

* ``H`` hit, ``S`` stand;
* ``Dh`` / ``Ds`` double if allowed, otherwise hit / stand;
* ``P`` split; ``Ph`` split (the rules allow doubling after the split), otherwise hit;
* ``Rh`` / ``Rs`` / ``Rp`` surrender if allowed, otherwise hit / stand / split.

Rows are hard totals 4..21, soft totals 12..21 and pairs A,A..T,T. Pairs that cannot be
split any more (the hand limit is reached) are played by their total's row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from croupier.engine import CroupierError
from croupier.plugins.blackjack.charts import first_legal
from croupier.plugins.blackjack.solver.cards import ACE, RANKS, hand_total, rank_of

UPCARD_ORDER: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)  # 2..9, T, A
HARD_ROWS = tuple(range(4, 22))
SOFT_ROWS = tuple(range(12, 22))
PAIR_ROWS = tuple(range(10))
LETTERS = ("H", "S", "Dh", "Ds", "P", "Ph", "Rh", "Rs", "Rp")
ACTIONS = ("hit", "stand", "double", "split", "surrender")


def card_rank(card: str | int) -> int:
    """A card as a rank index: names (``"A"``, ``"7"``, ``"K"``) or values (1 or 11 = ace)."""
    if isinstance(card, int):
        if card in (1, 11):
            return ACE
        if 2 <= card <= 10:
            return card - 1
        raise CroupierError(f"a card value is 1-11, not {card}")
    return rank_of(card)


@attrs.frozen
class Chart:
    """A strategy chart: ``hard[t]``, ``soft[t]`` and ``pairs[rank]`` map to one letter per
    upcard rank index (0 = ace .. 9 = ten)."""

    hard: Mapping[int, Sequence[str]]
    soft: Mapping[int, Sequence[str]]
    pairs: Mapping[int, Sequence[str]]

    def letter(self, cards: Sequence[int], upcard: int, can_split: bool = True) -> str:
        """The chart's letter for a hand (rank indices) against an upcard rank index."""
        value, soft = hand_total(cards)
        if value >= 21:
            return "S"
        if len(cards) == 2 and cards[0] == cards[1] and can_split:
            return self.pairs[cards[0]][upcard]
        row = (self.soft if soft else self.hard).get(value)
        return "H" if row is None else row[upcard]  # one card (a split hand) draws

    def decide(
        self,
        hand_cards: Sequence[str | int],
        upcard: str | int,
        legal_actions: Iterable[str],
    ) -> str:
        """The action to take: one of ``legal_actions`` (names from :data:`ACTIONS`).

        Cards are names (``"A"``, ``"T"``, ``"10"``, ``"K"``) or values (ace = 1 or 11).
        The letter's first legal action wins; a split pair's hands, three-card hands and
        the like fall back as the letters say. A pair is read from the pairs rows only
        when ``"split"`` is legal.
        """
        cards = [card_rank(c) for c in hand_cards]
        return self.decide_ranks(cards, card_rank(upcard), legal_actions)

    def decide_ranks(self, cards: Sequence[int], upcard: int, legal_actions: Iterable[str]) -> str:
        """:meth:`decide` with cards and upcard as rank indices (0 = ace .. 9 = ten)."""
        legal = tuple(legal_actions)
        if not legal:
            raise CroupierError("no legal action to choose from")
        return first_legal(self.letter(cards, upcard, can_split="split" in legal), legal)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: upcards ``2``..``A`` and one list of letters per row."""

        def rows(table: Mapping[int, Sequence[str]], name: Any) -> dict[str, list[str]]:
            return {name(k): [v[u] for u in UPCARD_ORDER] for k, v in table.items()}

        return {
            "upcards": [RANKS[u] for u in UPCARD_ORDER],
            "hard": rows(self.hard, str),
            "soft": rows(self.soft, str),
            "pairs": rows(self.pairs, lambda r: f"{RANKS[r]},{RANKS[r]}"),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Chart:
        """The inverse of :meth:`to_dict` (so a chart can travel over the wire)."""
        try:
            order = [rank_of(u) for u in data["upcards"]]

            def rows(table: Mapping[str, Sequence[str]], key: Any) -> dict[int, list[str]]:
                out = {}
                for name, letters in table.items():
                    cells = [""] * 10
                    for u, letter in zip(order, letters, strict=True):
                        if letter not in LETTERS:
                            raise CroupierError(f"unknown chart letter {letter!r}")
                        cells[u] = letter
                    out[key(name)] = cells
                return out

            return cls(
                hard=rows(data["hard"], int),
                soft=rows(data["soft"], int),
                pairs=rows(data["pairs"], lambda n: rank_of(n.split(",")[0])),
            )
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            raise CroupierError(f"not a chart: {exc}") from None
