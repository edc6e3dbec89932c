"""Built-in betting schemes: casino, the King-of-the-Hill contest, the classic console game."""

from __future__ import annotations

from croupier.engine import hookimpl
from croupier.plugins.blackjack.tablerules import BettingScheme, Outcome


def _casino(player: int, player_natural: bool, dealer: int, dealer_natural: bool) -> Outcome:
    if player_natural or dealer_natural:
        if player_natural and dealer_natural:
            return "push"
        return "natural" if player_natural else "lose"
    if dealer > 21 or player > dealer:
        return "win"
    return "push" if player == dealer else "lose"


def _above_dealer(player: int, player_natural: bool, dealer: int, dealer_natural: bool) -> Outcome:
    """Win only with a score above the dealer's (a busted dealer scores below any hand);
    ties lose and a natural earns no bonus."""
    return "win" if dealer > 21 or player > dealer else "lose"


BETTING_SCHEMES = (
    BettingScheme(
        "casino",
        "stake between the table min and max; natural pays the rules' payout (3:2, 6:5), "
        "win 1:1, push returns the stake, insurance 2:1",
        _casino,
    ),
    BettingScheme(
        "koth",
        "contest: the minimum bet is a buy-in charged at the deal, 'raise' (B n) adds |n| "
        "up to the chips held, a win pays the stake back twice, ties lose, no bonus",
        _above_dealer,
        asks_bet=False,
        raises=True,
        pays_naturals=False,
    ),
    BettingScheme(
        "classic",
        "classic console game: a chosen stake, a win pays 1:1, ties go to the dealer",
        _above_dealer,
        pays_naturals=False,
    ),
)


@hookimpl
def croupier_betting_schemes() -> tuple[BettingScheme, ...]:
    return BETTING_SCHEMES
