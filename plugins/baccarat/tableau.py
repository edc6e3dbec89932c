"""Punto banco's fixed drawing rules (the tableau) and the coup they make.

A card's baccarat value is its pip value mod 10 (ace 1, tens and faces 0); a hand's total
is the sum of its values mod 10. The deal is player, banker, player, banker. Either side
with 8 or 9 on two cards (a *natural*) ends the coup. Otherwise the player draws a third
card on 0-5 and stands on 6-7; the banker then draws on 0-5 when the player stood, and when
the player drew, by the banker's total and the value of the player's third card:

| banker | draws when the player's third card is |
| --- | --- |
| 0-2 | anything |
| 3 | anything but 8 |
| 4 | 2-7 |
| 5 | 4-7 |
| 6 | 6-7 |
| 7 | never |

Nobody decides anything here: the players' only choice is their bets.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from croupier.engine import VALUES

BACCARAT_VALUE: tuple[int, ...] = tuple(v % 10 for v in VALUES)
"""The baccarat value of each card 0..51."""


def player_draws(player: int) -> bool:
    """Whether the player, holding ``player`` on two cards (no natural), takes a third."""
    return player <= 5


def banker_draws(banker: int, third: int | None) -> bool:
    """Whether the banker, holding ``banker`` on two cards (no natural), takes a third;
    ``third`` is the value of the player's third card, or None when the player stood."""
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return third != 8
    if banker == 4:
        return 2 <= third <= 7
    if banker == 5:
        return 4 <= third <= 7
    if banker == 6:
        return third in (6, 7)
    return False


@attrs.frozen
class Coup:
    """The cards of one coup (as dealt, by card number) and its result."""

    player: tuple[int, ...]
    banker: tuple[int, ...]

    @property
    def player_total(self) -> int:
        return sum(BACCARAT_VALUE[c] for c in self.player) % 10

    @property
    def banker_total(self) -> int:
        return sum(BACCARAT_VALUE[c] for c in self.banker) % 10

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        p, b = self.player_total, self.banker_total
        return "player" if p > b else "banker" if b > p else "tie"


def deal_coup(draw: Callable[[], int]) -> Coup:
    """Deal one coup with ``draw()`` giving the next card, by the tableau."""
    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player, banker = [p1, p2], [b1, b2]
    pt = (BACCARAT_VALUE[p1] + BACCARAT_VALUE[p2]) % 10
    bt = (BACCARAT_VALUE[b1] + BACCARAT_VALUE[b2]) % 10
    if pt < 8 and bt < 8:
        third: int | None = None
        if player_draws(pt):
            card = draw()
            player.append(card)
            third = BACCARAT_VALUE[card]
        if banker_draws(bt, third):
            banker.append(draw())
    return Coup(tuple(player), tuple(banker))
