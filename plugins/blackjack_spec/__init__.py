"""The Blackjack randomizer language (TetrisWiki "Blackjack") and its named presets.

Contributes the language ``blackjack`` (croupier's fallback: it claims every text and
points at the column of any mistake) and every example of the wiki page as a named
randomizer whose ``spec`` is its text. Grammar and decisions: docs/randomizers.md.
"""

from __future__ import annotations

from croupier.engine import (
    SUITS,
    Randomizer,
    RandomizerFactory,
    RandomizerKind,
    RandomizerLanguage,
    Stream,
    hookimpl,
)
from croupier.plugins.blackjack_spec.bags import BagRandomizer
from croupier.plugins.blackjack_spec.history import HistoryRandomizer
from croupier.plugins.blackjack_spec.lists import ListRandomizer, SequenceRandomizer
from croupier.plugins.blackjack_spec.parser import Spec, parse_spec
from croupier.plugins.blackjack_spec.randomizers import (
    FirstHistoryRandomizer,
    FirstRandomizer,
    Inner,
)

TETROMINOES = "I,J,L,O,S,T,Z"
_CARDS = ",".join(f"{rank}{suit}" for suit in SUITS for rank in "9TJQKA")
"""The euchre pack in croupier's card codes (:mod:`croupier.engine.cards`: rank first, T for
ten, suits S H D C), so a dealt card reads like any other card in croupier: ``9S``, ``TS``."""

PRESETS: tuple[tuple[str, str, str], ...] = (
    ("7-bag", "the Random Generator: a shuffled bag of the 7 tetrominoes", f"bag of {TETROMINOES}"),
    ("14-bag", "a shuffled bag of two of each tetromino", "bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z"),
    (
        "14-bag-halfway",
        "the 14-piece bag, reshuffled after dealing half of it",
        "7 bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z",
    ),
    ("memoryless", "each tetromino uniformly at random", TETROMINOES),
    (
        "memoryless-small",
        "memoryless, with the small pieces I2, I3 and L3",
        f"{TETROMINOES},I2,I3,L3",
    ),
    (
        "memoryless-hard",
        "memoryless and harder: 10% I",
        "I,I,J,J,J,L,L,L,O,O,O,S,S,S,T,T,T,Z,Z,Z",
    ),
    ("szsz", "S and Z only, memoryless", "S,Z"),
    (
        "move-to-back",
        "deal one of the 3 pieces dealt longest ago, which then goes to the back",
        f"{TETROMINOES} with 4 history",
    ),
    ("szsz-alternating", "S and Z, never the same twice: SZSZ...", "S,Z with 1 history"),
    (
        "lardarse",
        "Lardarse's more difficult: 5 of a 14-piece bag heavy in S and Z",
        "5 bag of I,T,J,J,L,L,O,O,S,S,S,Z,Z,Z",
    ),
    ("euchre", "a euchre hand: 5 cards of the 24-card pack (9 to ace)", f"5 bag of {_CARDS}"),
    (
        "tgm1-spec",
        "TGM1 in the extended language: 4 history from Z,Z,Z,Z, 4 rolls, first I/J/L/T",
        f"{TETROMINOES} with 4 history 4 rolls starting Z,Z,Z,Z first I,J,L,T",
    ),
    (
        "tgm2-spec",
        "TGM2 (TAP) in the extended language: 4 history from Z,S,Z,S, 6 rolls, first I/J/L/T",
        f"{TETROMINOES} with 4 history 6 rolls starting Z,S,Z,S first I,J,L,T",
    ),
)


def build(spec: Spec, stream: Stream) -> Randomizer:
    """A fresh randomizer for a parsed spec, drawing from ``stream``."""
    inner: Inner
    if spec.kind == "bag":
        inner = BagRandomizer(stream, spec.entries, spec.count)
    elif spec.kind == "sequence":
        inner = SequenceRandomizer(stream, spec.entries)
    elif spec.history or spec.rolls is not None or spec.starting is not None:
        inner = HistoryRandomizer(stream, spec.entries, spec.history, spec.rolls, spec.starting)
    else:
        inner = ListRandomizer(stream, spec.entries)
    if spec.first is None:
        return inner
    if isinstance(inner, HistoryRandomizer):
        return FirstHistoryRandomizer(stream, inner, spec.first)
    return FirstRandomizer(stream, inner, spec.first)


def compile_spec(text: str) -> RandomizerFactory:
    """Parse ``text`` now (errors surface at once) and return a factory for it."""
    spec = parse_spec(text)

    def factory(stream: Stream) -> Randomizer:
        return build(spec, stream)

    return factory


@hookimpl
def croupier_randomizer_languages() -> list[RandomizerLanguage]:
    return [
        RandomizerLanguage(
            "blackjack",
            "TetrisWiki's Blackjack language, e.g. '7 bag of I,J,L,O,S,T,Z' (the fallback)",
            compile_spec,
        )
    ]


@hookimpl
def croupier_randomizers() -> list[RandomizerKind]:
    return [
        RandomizerKind(name, summary, compile_spec(text), spec=text)
        for name, summary, text in PRESETS
    ]
