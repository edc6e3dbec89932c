"""The ``hilo`` sample bot: its count from the count plugins (tags with suit exceptions,
the system's true-count reading), its bet spread, and the generated Hi-Lo deviations and
insurance index it plays by the count."""

from __future__ import annotations

import math

from croupier.clients.bot.samples import Count, HiLo, sample_bot
from croupier.engine.cards import VALUES, card
from croupier.plugins.blackjack.play import Event, Observation
from croupier.plugins.blackjack.strategy import local_strategy, strategy_action
from croupier.plugins.blackjack.values import total_of


def test_hilo_counts_what_it_sees_and_spreads_its_bets(manager):
    hilo = manager.count_systems.get("hilo")
    count = Count(1, hilo)
    for code in ("2S", "3H", "4D", "5C", "6S", "#"):
        count.see(Event("deal", 1, card=code))
    assert count.running == 5 and count.remaining == 52 - 6
    count.see(Event("reveal", 1, card="KS"))
    assert count.running == 4 and count.remaining == 46
    assert count.true_count == math.floor(4 / (46 / 52))  # Hi-Lo's reading: floored
    bot = sample_bot("hilo", manager)
    assert isinstance(bot, HiLo)
    bot.setup({"rules": manager.rule_sets.get("vegas-s17").rules.to_dict()})
    assert bot.count == Count(6, hilo)
    bot.count = Count(1, hilo)  # a single deck, to see the spread after a few cards
    for event in (Event("deal", 1, card=c) for c in ("2S", "3H", "4D", "5C", "6S", "5H")):
        bot.on_event(event)
    observation = Observation("bet", 2, 1, ("bet",), 1000, min_bet=10, max_bet=1000)
    assert bot.units() == 6 - 1 and bot.bet(observation) == 50
    assert bot.insurance(observation)
    bot.on_event(Event("shuffle", 2))
    assert bot.bet(observation) == 10 and not bot.insurance(observation)


def test_hilo_plays_the_generated_deviations_by_the_count(manager):
    """Indices from the shipped generated set (6 decks S17): stand 16 v T at +1, split TT v
    6 at +5, double 10 v T at +3, insurance at +3; elsewhere basic strategy."""
    bot = sample_bot("hilo", manager)
    assert isinstance(bot, HiLo)
    bot.setup({"rules": manager.rule_sets.get("vegas-s17").rules.to_dict()})
    every = ("hit", "stand", "double", "split", "surrender")

    def play(tc: int, cards: tuple[str, str], up: str, legal=every) -> str:
        bot.count = Count(6, manager.count_systems.get("hilo"))
        bot.count.running = 6 * tc  # six decks left: the true count is tc
        total, soft = total_of(VALUES[card(c)] for c in cards)
        observation = Observation(
            "play", 1, 1, legal, 990, hands=(cards,), total=total, soft=soft, stake=10,
            dealer_upcard=up,
        )  # fmt: skip
        return bot.decide(observation).kind

    no_surrender = ("hit", "stand", "double")
    assert play(0, ("TS", "6H"), "KD") == "surrender"  # at every count from -3 up
    assert play(0, ("TS", "6H"), "KD", no_surrender) == "hit"
    assert play(1, ("TS", "6H"), "KD", no_surrender) == "stand"
    assert (play(4, ("TS", "KH"), "6D"), play(5, ("TS", "KH"), "6D")) == ("stand", "split")
    assert (play(2, ("4S", "6H"), "TD"), play(3, ("4S", "6H"), "TD")) == ("hit", "double")
    assert play(3, ("4S", "6H"), "TD", ("hit", "stand")) == "hit"  # no double: as basic
    rules = manager.rule_sets.get("vegas-s17").rules
    basic = local_strategy(manager, "basic", rules)
    seven = Observation(
        "play", 1, 1, every, 990, hands=(("5S", "2H"),), total=7, stake=10, dealer_upcard="9C"
    )
    assert play(9, ("5S", "2H"), "9C") == strategy_action(basic, seven).kind == "hit"
    insurance = Observation("insurance", 1, 1, ("insure", "decline"), 990, min_bet=10, max_bet=500)
    for tc, insured in ((2, False), (3, True)):
        bot.count = Count(6, manager.count_systems.get("hilo"))
        bot.count.running = 6 * tc
        assert bot.insurance(insurance) is insured


def test_a_count_reads_a_plugins_tags_suits_included(manager):
    """Red 7 counts red sevens only, and an unbalanced count starts from its IRC and reads
    its true count relative to its drift (the count plugin's own true_count)."""
    red7 = Count(2, manager.count_systems.get("red7"))
    start = red7.running
    for code in ("7H", "7S", "7D", "2C"):
        red7.see(Event("deal", 1, card=code))
    assert red7.running - start == 2 + 1  # two red sevens and a deuce; the black seven is 0
    ko = Count(6, manager.count_systems.get("ko"))
    assert ko.running == manager.count_systems.get("ko").irc(6) != 0
    ko.see(Event("shuffle", 1))
    assert ko.running == manager.count_systems.get("ko").irc(6)
