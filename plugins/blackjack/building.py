"""Building a blackjack round engine from rules: the dealer rule and betting scheme they name
(each a plugin's contribution), the shoe, the seats' chips."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from croupier.engine import CroupierError, PluginManager, Stream
from croupier.plugins.blackjack.play import Event
from croupier.plugins.blackjack.round import TableCore
from croupier.plugins.blackjack.rules import BlackjackRules, format_payout
from croupier.plugins.blackjack.shoe import make_shoe
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule


def resolve_rules(
    manager: PluginManager, rules: BlackjackRules
) -> tuple[DealerRule, BettingScheme]:
    """The dealer rule and betting scheme ``rules`` names, checked to be the right kind."""
    dealer = manager.dealer_rules.get(rules.dealer)
    scheme = manager.betting_schemes.get(rules.betting)
    if not isinstance(dealer, DealerRule):
        raise CroupierError(f"dealer rules {rules.dealer!r} is not a DealerRule")
    if not isinstance(scheme, BettingScheme):
        raise CroupierError(f"betting scheme {rules.betting!r} is not a BettingScheme")
    if not scheme.pays_naturals and rules.blackjack_pays != 1:
        raise CroupierError(
            f"the {scheme.name} betting pays no bonus for a natural, so a "
            f"{format_payout(rules.blackjack_pays)} payout cannot apply (leave it at 1:1)"
        )
    return dealer, scheme


def build_core(
    manager: PluginManager,
    rules: BlackjackRules,
    seed: int,
    chips: Sequence[int],
    *,
    keep_entries: bool = True,
    emit: Callable[[Event], None] | Callable[[dict[str, Any]], None] | None = None,
    plain_events: bool = False,
) -> TableCore:
    """A round engine for ``rules``; its cards come from ``Stream(seed).child("shoe")``.
    ``emit`` gets :class:`Event` values, or plain maps with their words (``plain_events``:
    a game table's events, built directly)."""
    dealer, scheme = resolve_rules(manager, rules)
    shoe = make_shoe(rules, Stream(seed).child("shoe"))
    return TableCore(
        rules,
        dealer,
        scheme,
        shoe,
        list(chips),
        keep_entries=keep_entries,
        emit=emit,
        plain_events=plain_events,
    )
