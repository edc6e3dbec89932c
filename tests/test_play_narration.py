"""What the terminal game says about the person's own seat: their actions, insurance and
even money, defaults, a seat that cannot pay; the dealer's upcard; ASCII lines; plurals."""

from __future__ import annotations

import trio
from bjtable import Scripted, blackjack_table, typed

from croupier.clients.play.layout import MIN_HEIGHT, MIN_WIDTH, dealer_label, layout
from croupier.clients.play.view import TableView, Tally
from croupier.plugins.blackjack.play import Action, Event


def played(manager, seed, actions, seat_rules="vegas-s17"):
    rules = manager.rule_sets.get(seat_rules).rules
    view = TableView(1, rules.starting_chips, seat_rules)
    table = blackjack_table(
        manager, rules, seed, [Scripted(actions)], listeners=[typed(view.apply)]
    )
    trio.run(table.play, 1)
    return view


def after(log, first):
    return log[log.index(first) :]


def test_even_money_is_narrated_with_its_payment(manager):
    # seed 301: the person's Ten and Ace against the dealer's Ace; the dealer has blackjack
    view = played(manager, 301, [Action("bet", 10), Action("insurance")])
    assert after(view.log, "You take even money") == [
        "You take even money",
        "You put 5 chips on insurance",
        "The dealer has blackjack",
        "The dealer turns the King of Spades",
        "Insurance pays 15 chips",
        "You: push (21)",
        "Round over: you win 10 chips",
    ]
    # seed 373: even money again, no dealer blackjack: the insurance is lost, said so
    view = played(manager, 373, [Action("bet", 10), Action("insurance")])
    log = after(view.log, "You take even money")
    assert log[1:4] == [
        "You put 5 chips on insurance",
        "The dealer checks: no blackjack",
        "Your insurance is lost (5 chips)",
    ]


def test_own_actions_are_narrated(manager):
    # seed 49: 9C 9D against an 8; split, double the first hand, stand on the second
    view = played(manager, 49, [Action("bet", 10), Action("split"), Action("double"),
                                Action("stand")])  # fmt: skip
    assert "You split" in view.log and "You double down" in view.log
    assert "Your hand 2 stands" in view.log
    view = TableView(2, 100, "t")
    view.phase = "surrender"
    view.apply(Event("action", 1, seat=2, hand=0, action="decline"))
    view.phase = "insurance"
    view.apply(Event("action", 1, seat=2, hand=0, action="decline"))
    view.apply(Event("action", 1, seat=1, hand=0, action="hit"))
    assert view.log == ["You do not surrender", "You decline insurance", "Seat 1: hit"]


def test_your_seat_is_you_in_every_line():
    view = TableView(2, 100, "t")
    view.apply(Event("leave", 3, seat=2))
    view.apply(Event("refused", 3, seat=2, hand=0, reason="no such action"))
    view.apply(Event("leave", 3, seat=1))
    assert view.log == [
        "You cannot pay the minimum bet and leave the table",
        "The table refused your answer: no such action",
        "Seat 1 cannot pay the minimum and leaves the table",
    ]


def test_the_dealers_upcard_is_a_card_not_a_soft_total():
    assert dealer_label(["AS", "#"]) == "Dealer shows an Ace"
    assert dealer_label(["TS", "#"]) == "Dealer shows 10"
    assert dealer_label(["AS", "6H"]) == "Dealer: Soft 17"


def test_ascii_screens_have_no_unicode():
    view = TableView(1, 100, "classic (seed 5)")
    view.apply(Event("chips", 1, seat=1, amount=-1, reason="bet"))
    view.apply(Event("deal", 1, seat=1, hand=0, card="KS"))
    view.apply(Event("deal", 1, card="AS"))
    view.apply(Event("deal", 1, seat=1, hand=0, card="7H"))
    view.apply(Event("deal", 1, card="#"))
    texts = [s.text for s in layout(view, None, MIN_WIDTH, MIN_HEIGHT, "ascii")]
    assert all(t.isascii() for t in texts), [t for t in texts if not t.isascii()]
    assert "Dealer shows an Ace" in texts


def test_the_tally_counts_in_words():
    assert Tally(1, 0, 1, 0, -1).line() == "1 hand: 0 won, 1 lost, 0 pushed; net -1 chip"
    assert Tally(2, 1, 1, 0, 19).line() == "2 hands: 1 won, 1 lost, 0 pushed; net +19 chips"
