"""The built-in card counts: Hi-Lo, KO, Hi-Opt I and II, Omega II, Zen, Wong Halves, Red 7.

Tags are as their authors published them (``source`` names each), listed A 2 3 4 5 6 7 8
9 T. Wong Halves' half-point tags are stored doubled (``scale=2``) so that running counts
stay integers. Red 7 counts a red seven +1 and a black one 0: ``red_tags`` says so per card,
never as an average tag of +1/2 for every seven. The unbalanced counts start at their
authors' initial running counts (KO ``4 - 4 * decks``, Red 7 ``-2 * decks``). Every count
forms its true count the same way by default (decks remaining exactly, the quotient
floored), so that generated index tables compare across systems.
"""

from __future__ import annotations

from croupier.engine import CountSystem, hookimpl

SNYDER = "Arnold Snyder, Blackbelt in Blackjack"

COUNTS = (
    CountSystem(
        "hilo",
        "Hi-Lo: 2-6 +1, 7-9 0, tens and aces -1 (balanced, level 1)",
        tags=(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
        source="Harvey Dubner (1963); as in Stanford Wong, Professional Blackjack",
    ),
    CountSystem(
        "ko",
        "Knock-Out: Hi-Lo with the 7 counted +1 (unbalanced, +4 a deck, starts at 4 - 4/deck)",
        tags=(-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
        balanced=False,
        irc_per_deck=-4,
        irc_offset=4,
        source="Olaf Vancura and Ken Fuchs, Knock-Out Blackjack (1998)",
    ),
    CountSystem(
        "hiopt1",
        "Hi-Opt I: 3-6 +1, tens -1, aces and 2, 7-9 0 (balanced, level 1)",
        tags=(0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
        source="Charles Einstein (1968); Lance Humble, The World's Greatest Blackjack Book",
    ),
    CountSystem(
        "hiopt2",
        "Hi-Opt II: 2,3,6,7 +1, 4,5 +2, tens -2, aces 0 (balanced, level 2)",
        tags=(0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
        source="Lance Humble and Carl Cooper, The World's Greatest Blackjack Book (1980)",
    ),
    CountSystem(
        "omega2",
        "Omega II: 2,3,7 +1, 4-6 +2, 9 -1, tens -2, aces 0 (balanced, level 2)",
        tags=(0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
        source="Bryce Carlson, Blackjack for Blood (1992)",
    ),
    CountSystem(
        "zen",
        "Zen: 2,3,7 +1, 4-6 +2, tens -2, aces -1 (balanced, level 2)",
        tags=(-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
        source=SNYDER,
    ),
    CountSystem(
        "halves",
        "Wong Halves: 5 +1.5, 3,4,6 +1, 2,7 +0.5, 9 -0.5, tens and aces -1 (stored doubled)",
        tags=(-2, 1, 2, 2, 3, 2, 1, 0, -1, -2),
        scale=2,
        source="Stanford Wong, Professional Blackjack",
    ),
    CountSystem(
        "red7",
        "Red 7: 2-6 and red sevens +1, tens and aces -1 (unbalanced, +2 a deck, starts at -2/deck)",
        tags=(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
        balanced=False,
        red_tags=((6, 1),),
        irc_per_deck=-2,
        source=SNYDER,
    ),
)


@hookimpl
def croupier_count_systems() -> tuple[CountSystem, ...]:
    return COUNTS
