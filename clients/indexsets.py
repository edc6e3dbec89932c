"""The blackjack plugin's shipped index tables by the short names the CLI and the sample
bots use: the published Hi-Lo Illustrious 18 and Fab 4, and the full Hi-Lo set croupier
generates for 6 decks, S17, DAS (``croupier solve blackjack --indices hilo``)."""

from __future__ import annotations

from croupier.plugins.blackjack.indexsets import published_indices
from croupier.plugins.blackjack.indices import IndexEntry

SHIPPED = {"i18": "hilo-i18", "fab4": "hilo-fab4", "generated": "hilo-6d-s17"}


def shipped_indices(name: str) -> list[IndexEntry]:
    """A shipped index table by its short name (see :data:`SHIPPED`)."""
    return published_indices(SHIPPED[name])
