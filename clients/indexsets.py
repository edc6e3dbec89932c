"""Index tables shipped as data by the built-in counts plugin, read as package files (a
client finds plugins through the engine and never imports one): the published Hi-Lo
Illustrious 18 and Fab 4, and the full Hi-Lo set croupier generates for 6 decks, S17, DAS
(``croupier solve blackjack --indices hilo``)."""

from __future__ import annotations

from importlib import resources

from croupier.engine.indices import IndexEntry, read_indices

SHIPPED = {
    "i18": "hilo_illustrious18.csv",
    "fab4": "hilo_fab4.csv",
    "generated": "hilo_6d_s17_generated.csv",
}


def shipped_indices(name: str) -> list[IndexEntry]:
    """A shipped index table by its short name (see :data:`SHIPPED`)."""
    data = resources.files("croupier.plugins.counts").joinpath("data", SHIPPED[name])
    return read_indices(data.read_text())
