"""Card shoes as randomizers: ``casino-shoe``, ``koth-shoe`` and ``fresh-pack-shoe``.

Each deals two-letter card codes (``QC``); a table builds the same shoes from its rules
(``BlackjackRules.shoe`` names the kind, see ``croupier.engine.shoes``).
"""

from __future__ import annotations

from croupier.engine import RandomizerKind, Shoe, ShoeRandomizer, Stream, hookimpl


def _casino(stream: Stream) -> ShoeRandomizer:
    return ShoeRandomizer(Shoe(stream, kind="casino", decks=6, penetration=0.75))


def _koth(stream: Stream) -> ShoeRandomizer:
    return ShoeRandomizer(Shoe(stream, kind="koth", decks=1, refill=True))


def _fresh_pack(stream: Stream) -> ShoeRandomizer:
    return ShoeRandomizer(Shoe(stream, kind="fresh-pack", decks=1, every_round=True))


SHOES = (
    RandomizerKind("casino-shoe", "6 decks, reshuffled once the cut card at 75% is out", _casino),
    RandomizerKind("koth-shoe", "one deck; a fresh shuffled deck is added when empty", _koth),
    RandomizerKind(
        "fresh-pack-shoe", "a fresh shuffled pack of 52 each time it runs out", _fresh_pack
    ),
)


def shoe_randomizer_name(kind: str) -> str:
    """The randomizer that deals a rule set's shoe kind (``casino`` -> ``casino-shoe``)."""
    return f"{kind}-shoe"


@hookimpl
def croupier_randomizers() -> tuple[RandomizerKind, ...]:
    return SHOES
