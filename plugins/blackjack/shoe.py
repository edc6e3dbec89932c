"""The shoe a blackjack table's rules name."""

from __future__ import annotations

from collections.abc import Callable

from croupier.engine import CroupierError, Shoe, Stream
from croupier.plugins.blackjack.rules import BlackjackRules


def make_shoe(
    rules: BlackjackRules, stream: Stream, shuffler: Callable[[list[int]], None] | None = None
) -> Shoe:
    """The shoe ``rules.shoe`` names, built from the rules' decks and penetration
    (``shuffler``: see :class:`~croupier.engine.Shoe`)."""
    if rules.decks is None:
        raise CroupierError("a table needs a finite number of decks, not an infinite deck")
    if rules.shoe == "koth":
        return Shoe(stream, kind="koth", decks=1, refill=True, shuffler=shuffler)
    if rules.shoe == "fresh-pack":
        return Shoe(
            stream, kind="fresh-pack", decks=rules.decks, every_round=True, shuffler=shuffler
        )
    return Shoe(
        stream,
        kind="casino",
        decks=rules.decks,
        penetration=rules.penetration,
        shuffler=shuffler,
    )
