"""Built-in dealer rules: casino S17 and H17, the contest dealer, the classic console dealer."""

from __future__ import annotations

from croupier.engine import hookimpl
from croupier.plugins.blackjack.tablerules import DealerRule


def _s17(total: int, soft: bool, target: int) -> bool:
    return total < 17


def _h17(total: int, soft: bool, target: int) -> bool:
    return total < 17 or (total == 17 and soft)


def _classic(total: int, soft: bool, target: int) -> bool:
    return total < target


DEALER_RULES = (
    DealerRule("s17", "casino dealer: hits below 17, stands on every 17", _s17),
    DealerRule("h17", "casino dealer: hits below 17 and on soft 17", _h17),
    DealerRule(
        "koth",
        "contest dealer: hits below 17, stands on 17 and up, always plays out his hand; "
        "players are asked even at 21",
        _s17,
        player_21="ask",
        plays_out=True,
    ),
    DealerRule(
        "classic",
        "classic console game: the dealer draws until his points reach the best player's; "
        "a player reaching 21 wins at once",
        _classic,
        player_21="win",
    ),
)


@hookimpl
def croupier_dealer_rules() -> tuple[DealerRule, ...]:
    return DEALER_RULES
