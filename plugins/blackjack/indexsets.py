"""Blackjack's index sets shipped as data (``data/``): the published Hi-Lo Illustrious 18 and
Fab 4, and the full Hi-Lo set croupier generates (``croupier solve blackjack --indices
hilo``), contributed to the ``croupier_index_sets`` family (:data:`INDEX_SETS`) so that
clients find them by name through the plugin manager, as they find a third party's."""

from __future__ import annotations

from importlib import resources

from croupier.plugins.blackjack.indices import IndexEntry, IndexSet

SCHLESINGER = (
    "Don Schlesinger, Blackjack Attack: Playing the Pros' Way, 3rd ed. (2005), ch. 5 (as "
    "commonly published, written from knowledge of that table; check against the source)"
)
SHOE_RULES = "6 decks, S17, DAS, late surrender"

PUBLISHED = (
    # name, file, summary, rules, source
    (
        "hilo-i18",
        "hilo_illustrious18.csv",
        "the Illustrious 18: Hi-Lo's 18 most valuable index plays, insurance first",
        SHOE_RULES,
        SCHLESINGER,
    ),
    (
        "hilo-fab4",
        "hilo_fab4.csv",
        "the Fab 4: Hi-Lo's late-surrender index plays",
        SHOE_RULES,
        SCHLESINGER,
    ),
    (
        "hilo-6d-s17",
        "hilo_6d_s17_generated.csv",
        "every Hi-Lo index croupier's exact solver generates for vegas-s17 (150 decisions)",
        SHOE_RULES + ", 75% penetration (vegas-s17)",
        "croupier solve blackjack --indices hilo (docs/counting.md)",
    ),
)
"""Hi-Lo index sets shipped as data (6 decks, S17, DAS, late surrender): the published
Illustrious 18 and Fab 4, and the full set croupier generates for those rules."""


def _read(file: str) -> str:
    return resources.files("croupier.plugins.blackjack").joinpath("data", file).read_text()


def shipped_sets() -> tuple[IndexSet, ...]:
    """The shipped sets as the ``croupier_index_sets`` family's contributions."""
    return tuple(
        IndexSet.from_csv(name, summary, "hilo", _read(file), rules=rules, source=source)
        for name, file, summary, rules, source in PUBLISHED
    )


def published_indices(name: str) -> list[IndexEntry]:
    """A shipped set's entries by name (see :data:`PUBLISHED`), for the plugin's own tests
    and benchmarks; clients ask the plugin manager's ``index_sets``."""
    files = {entry[0]: entry[1] for entry in PUBLISHED}
    return list(IndexSet.from_csv(name, "", "hilo", _read(files[name])).entries)
