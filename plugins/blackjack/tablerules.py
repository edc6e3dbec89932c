"""The interfaces of the two rule families a table plugs in: dealer rules and betting schemes.

Both are small frozen value classes: a few flags plus one pure function, so a plugin can
contribute a new dealer or a new scheme without touching the round engine. The built-in
ones (``s17``, ``h17``, ``koth``, ``classic``; ``casino``, ``koth``, ``classic``) live in
``croupier.plugins``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Literal

import attrs

Outcome = Literal["natural", "win", "push", "lose"]
OUTCOMES: tuple[str, ...] = ("natural", "win", "push", "lose")
"""What :attr:`BettingScheme.outcome` may return. The engine itself decides ``bust`` (a
busted hand always loses) and ``surrender`` (half the bet back)."""

Player21 = Literal["stand", "ask", "win"]


@attrs.frozen
class DealerRule:
    """How the dealer draws and what 21 means to a player.

    ``hits(total, soft, target)`` says whether the dealer takes another card holding
    ``total`` (``soft`` when an ace counts 11); ``target`` is the best total among the
    players' live hands (0 if none), which only a rule such as the classic console game's
    looks at. ``player_21``: ``"stand"`` ends a hand's turn at 21 (casino), ``"ask"`` keeps
    asking (the contest asks even at 21), ``"win"`` settles it as a win on the spot (the
    classic game). ``plays_out``: the dealer draws even when every hand is already decided.
    """

    name: str
    summary: str
    hits: Callable[[int, bool, int], bool]
    player_21: Player21 = "stand"
    plays_out: bool = False


@attrs.frozen
class BettingScheme:
    """Stakes and payouts.

    ``asks_bet``: each round a player chooses a stake in ``[min_bet, max_bet]`` (capped by
    its chips); otherwise ``min_bet`` is charged as a buy-in and ``raises`` may let the
    player add to it mid-hand. ``outcome(player_total, player_natural, dealer_total,
    dealer_natural)`` decides a hand that did not bust or surrender (a busted dealer has a
    total above 21). Payouts follow from the outcome: ``natural`` returns the stake plus
    ``stake * rules.blackjack_pays`` (rounded down to whole chips), ``win`` twice the stake,
    ``push`` the stake, ``lose`` nothing; insurance pays 2:1. ``pays_naturals`` False: the
    scheme never settles a hand as ``natural`` (no bonus), so a table refuses a payout other
    than 1:1 rather than ignore it.
    """

    name: str
    summary: str
    outcome: Callable[[int, bool, int, bool], Outcome]
    asks_bet: bool = True
    raises: bool = False
    pays_naturals: bool = True


def payout(outcome: str, stake: int, blackjack_pays: Fraction) -> int:
    """Chips returned to the player for a settled hand (the stake was paid at the bet)."""
    if outcome == "win":
        return 2 * stake
    if outcome == "push":
        return stake
    if outcome == "natural":
        return stake + (stake * blackjack_pays.numerator) // blackjack_pays.denominator
    if outcome == "surrender":
        return stake // 2
    return 0
