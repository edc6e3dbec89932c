"""Blackjack's index sets shipped as data (``data/``): published Hi-Lo sets, and the one
croupier generates (``croupier solve blackjack --indices hilo``)."""

from __future__ import annotations

from importlib import resources

from croupier.plugins.blackjack.indices import IndexEntry, read_indices

PUBLISHED = {
    "hilo-i18": "hilo_illustrious18.csv",
    "hilo-fab4": "hilo_fab4.csv",
    "hilo-6d-s17": "hilo_6d_s17_generated.csv",
}
"""Hi-Lo index sets shipped as data (6 decks, S17, DAS, late surrender): the published
Illustrious 18 and Fab 4, and the full set croupier generates for those rules."""


def published_indices(name: str) -> list[IndexEntry]:
    """A shipped index table by name (see :data:`PUBLISHED`)."""
    text = (
        resources.files("croupier.plugins.blackjack").joinpath("data", PUBLISHED[name]).read_text()
    )
    return read_indices(text)
