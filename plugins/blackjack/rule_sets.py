"""The built-in named rule sets: casino tables, the King-of-the-Hill contest, the classic game.

A rule set is data only; the dealer rules and betting schemes it names are contributed by
other plugins. Every option can be overridden (``croupier sim --rules vegas-s17 --decks 2``).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.engine import hookimpl
from croupier.plugins.blackjack.rules import BlackjackRules, RuleSet

VEGAS_S17 = BlackjackRules(
    decks=6,
    penetration=0.75,
    dealer="s17",
    double="any",
    double_after_split=True,
    max_split_hands=4,
    resplit_aces=False,
    hit_split_aces=False,
    surrender="late",
    blackjack_pays=Fraction(3, 2),
    peek=True,
)

RULE_SETS = (
    RuleSet(
        "vegas-s17",
        "6 decks, S17, double any two, DAS, split to 4, no resplit aces, late surrender, 3:2",
        VEGAS_S17,
    ),
    RuleSet(
        "vegas-h17", "as vegas-s17 but the dealer hits soft 17", VEGAS_S17.evolve(dealer="h17")
    ),
    RuleSet(
        "downtown-h17-6to5",
        "2 decks, H17, double any two, DAS, split to 4, no surrender, naturals pay 6:5",
        VEGAS_S17.evolve(
            decks=2, penetration=0.65, dealer="h17", surrender="none", blackjack_pays="6:5"
        ),
    ),
    RuleSet(
        "single-deck",
        "1 deck, H17, double 10-11 only, no DAS, no resplits, no surrender, 3:2",
        VEGAS_S17.evolve(
            decks=1,
            penetration=0.6,
            dealer="h17",
            double="10-11",
            double_after_split=False,
            max_split_hands=2,
            surrender="none",
        ),
    ),
    RuleSet(
        "koth",
        "the King-of-the-Hill bot contest: one shared deck refilled when empty, buy-in 10, "
        "dealer hits below 17, wins only above the dealer",
        BlackjackRules(
            decks=1,
            penetration=1.0,
            shoe="koth",
            dealer="koth",
            betting="koth",
            double="any",
            double_after_split=False,
            max_split_hands=1,
            surrender="none",
            blackjack_pays=Fraction(1, 1),
            peek=False,
            insurance=False,
            min_bet=10,
            max_bet=1_000_000,
            starting_chips=200,
        ),
    ),
    RuleSet(
        "classic",
        "the classic console game: a fresh pack every hand, the dealer draws to your total, "
        "21 wins at once, ties go to the dealer",
        BlackjackRules(
            decks=1,
            penetration=1.0,
            shoe="fresh-pack",
            dealer="classic",
            betting="classic",
            double="none",
            double_after_split=False,
            max_split_hands=1,
            surrender="none",
            blackjack_pays=Fraction(1, 1),
            peek=False,
            insurance=False,
            min_bet=1,
            max_bet=1000,
            starting_chips=100,
        ),
    ),
)


@hookimpl
def croupier_rule_sets() -> tuple[RuleSet, ...]:
    return RULE_SETS
