"""The round engine on stacked shoes: every payout and rule, hand by hand."""

from __future__ import annotations

import pytest
from tablekit import drive, stacked_core

from croupier.plugins.blackjack.play import Action
from croupier.plugins.blackjack.round import check_action, default_action


def rules_of(manager, name, **changes):
    return manager.rule_sets.get(name).rules.evolve(**changes)


def script(*answers):
    """Answer decisions in order: 'bet 10', 'hit', ...; checks each answer is legal."""
    queue = [Action.parse(a) for a in answers]

    def answer(d):
        action = queue.pop(0)
        assert check_action(d, action) is None, (d.phase, d.legal, action)
        return action

    return answer


def balance(core, seat=1):
    return core.ledger.balances[f"seat-{seat}"]


def test_natural_pays_3_to_2(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "AS 9D KH 7C")
    assert drive(core, script("bet 10")) is True
    assert balance(core) == 1015
    assert core.ledger.conserved()


def test_natural_pays_6_to_5_and_rounds_down(manager):
    core = stacked_core(manager, rules_of(manager, "downtown-h17-6to5"), "AS 9D KH 7C")
    drive(core, script("bet 15"))
    assert balance(core) == 1000 - 15 + 15 + 18


def test_dealer_blackjack_under_a_ten_takes_the_bet_at_the_peek(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "9S KD 9H AC")
    drive(core, script("bet 10"))  # no play decision: the dealer peeked
    assert balance(core) == 990


def test_insurance_pays_2_to_1(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "9S AD 9H KC")
    drive(core, script("bet 10", "insurance"))
    assert balance(core) == 1000 - 10 - 5 + 15
    totals = core.ledger.totals
    assert totals["insurance"] == -5 and totals["insurance-win"] == 15


def test_lost_insurance_then_play_on(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "TS AD 9H 7C")
    drive(core, script("bet 10", "insurance", "stand"))
    assert balance(core) == 1000 - 5 + 10  # insurance lost, 19 beats soft 18


def test_split_and_double_after_split(manager):
    # 8 8 vs 6; split: first 8 gets 3 (11) and doubles onto T (21); second gets T (18)
    # dealer 6 T then 9: busts. Three bets won.
    deal = "8S 6D 8H TC 3C TD TH 9S"
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), deal)
    drive(core, script("bet 10", "split", "double", "stand"))
    assert balance(core) == 1000 + 30
    seat = core.seats[0]
    assert (seat.splits, seat.doubles) == (1, 1)
    assert [h.bet for h in seat.hands] == [20, 10]


def test_no_double_after_split_when_the_rules_say_so(manager):
    core = stacked_core(
        manager, rules_of(manager, "vegas-s17", double_after_split=False), "8S 6D 8H TC 3C 5D TD"
    )
    seen = []

    def answer(d):
        seen.append(d.legal)
        return (
            Action("bet", 10)
            if d.phase == "bet"
            else Action("split" if len(seen) == 2 else "stand")
        )

    drive(core, answer)
    assert "double" not in seen[2]


def test_split_aces_get_one_card_and_21_is_not_a_natural(manager):
    deal = "AS 9D AH 8C KD KS"  # A A vs 9 8: split, each ace gets a King: 21 and 21
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), deal)
    drive(core, script("bet 10", "split"))  # no further decisions: split aces are done
    assert balance(core) == 1000 + 20  # two wins at 1:1, no 3:2


def test_resplit_aces_when_allowed(manager):
    deal = "AS 9D AH 8C AD KS 5C 9H"
    rules = rules_of(manager, "vegas-s17", resplit_aces=True)
    core = stacked_core(manager, rules, deal)
    drive(core, script("bet 10", "split", "split"))
    assert [len(h.cards) for h in core.seats[0].hands] == [2, 2, 2]


def test_late_surrender_returns_half(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "TS 9D 6H 7C")
    drive(core, script("bet 10", "surrender"))
    assert balance(core) == 995


def test_early_surrender_beats_the_dealer_blackjack(manager):
    rules = rules_of(manager, "vegas-s17", surrender="early")
    core = stacked_core(manager, rules, "TS AD 6H KC")
    drive(core, script("bet 10", "surrender", "decline"))
    assert balance(core) == 995


def test_busted_hand_loses_even_when_the_dealer_busts(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "TS 6D 6H TC 9C TD")
    drive(core, script("bet 10", "hit"))
    assert balance(core) == 990


def test_double_9_to_11_only(manager):
    rules = rules_of(manager, "vegas-s17", double="9-11")
    seen = []
    core = stacked_core(manager, rules, "TS 6D 2H TC 9C")

    def answer(d):
        seen.append(d.legal)
        return Action("bet", 10) if d.phase == "bet" else Action("stand")

    drive(core, answer)
    assert "double" not in seen[1]  # hard 12


def test_koth_ties_lose_an_over_bet_stands_and_21_is_asked(manager):
    rules = rules_of(manager, "koth")
    # player T A (21), dealer T then A: the dealer's 21 ties: the player loses.
    events = []
    core = stacked_core(manager, rules, "TS TD AH AC", chips=(200,), emit=events.append)
    seen = []

    def answer(d):
        seen.append((d.phase, d.legal))
        return Action("raise", -500)  # |n| = 500 > the 190 chips held

    drive(core, answer)
    # the original controller: an over-bet is a stand, the stake unchanged, asked once
    assert seen == [("play", ("hit", "stand", "double", "raise"))]  # asked even holding 21
    assert balance(core) == 190
    assert core.ledger.totals == {"bet": -10}
    (raised,) = [e for e in events if e.kind == "action"]
    assert raised.action == "raise" and raised.amount == -500
    assert raised.reason == "over-bet: 500 > 190 chips held, stands"


def test_koth_over_bet_all_in_is_a_rule_option(manager):
    rules = rules_of(manager, "koth").evolve(overbet="all-in")
    core = stacked_core(manager, rules, "TS TD AH AC", chips=(200,))
    answers = iter([Action("raise", -500), Action("stand")])
    drive(core, lambda d: next(answers))
    assert balance(core) == 0
    assert core.ledger.totals == {"bet": -10, "raise": -190}


def test_koth_raise_within_the_chips_held_is_asked_again(manager):
    rules = rules_of(manager, "koth")
    core = stacked_core(manager, rules, "TS TD AH AC", chips=(200,))
    answers = iter([Action("raise", 190), Action("raise", 1), Action("stand")])
    drive(core, lambda d: next(answers))  # all in exactly, then over-bets by 1: stands
    assert core.ledger.totals == {"bet": -10, "raise": -190}


def test_koth_win_pays_the_stake_twice_and_broke_players_leave(manager):
    rules = rules_of(manager, "koth")
    core = stacked_core(manager, rules, "TS TD 9H 7C 9C 5S 9D", chips=(10, 5))
    drive(core, script("stand"))  # seat 2 cannot pay the buy-in and leaves
    assert not core.seats[1].present
    assert balance(core) == 20


def test_koth_dealer_plays_out_even_when_every_player_busts(manager):
    rules = rules_of(manager, "koth")
    core = stacked_core(manager, rules, "TS TD 6H 5C KC 4C", chips=(100,))
    drive(core, script("hit"))
    assert len(core.dealer_cards) == 3


def test_classic_21_wins_at_once_and_the_dealer_draws_to_the_player(manager):
    rules = rules_of(manager, "classic")
    core = stacked_core(manager, rules, "TS 9D 5H 2C 6C", chips=(100,))
    drive(core, script("bet 5", "hit"))  # 15 + 6 = 21: wins at once
    assert balance(core) == 105
    assert len(core.dealer_cards) == 2  # no live hand: the dealer does not draw

    core = stacked_core(manager, rules, "TS 9D 8H 2C 4C 4D", chips=(100,))
    drive(core, script("bet 5", "stand"))  # 18 vs 11: draws 4 (15), 4 (19): dealer wins
    assert balance(core) == 95


def test_classic_tie_goes_to_the_dealer(manager):
    core = stacked_core(manager, rules_of(manager, "classic"), "TS 9D 8H 9C", chips=(100,))
    drive(core, script("bet 5", "stand"))
    assert balance(core) == 95


def test_check_action_reasons(manager):
    core = stacked_core(manager, rules_of(manager, "vegas-s17"), "TS 9D 6H 7C")
    gen = core.play_round()
    d = gen.send(None)
    assert check_action(d, Action("bet", 5)) == "a bet must be between 10 and 1000, not 5"
    assert "not allowed" in check_action(d, Action("hit"))
    assert default_action(d) == Action("bet", 10)
    d = gen.send(Action("bet", 10))
    assert d.legal == ("hit", "stand", "double", "surrender")
    assert default_action(d) == Action("stand")


def test_seats_are_dealt_in_order(manager):
    core = stacked_core(
        manager, rules_of(manager, "vegas-s17"), "2S 3S 4S 5S 6S 7S", chips=(1000, 1000)
    )
    gen = core.play_round()
    d = gen.send(None)
    d = gen.send(Action("bet", 10))
    d = gen.send(Action("bet", 10))
    obs = core.observe(d)
    assert obs.hands == (("2S", "5S"),)
    assert obs.visible == ("4S", "#", "2S", "3S", "5S", "6S")
    assert obs.koth_arguments() == ["7", "25", "4#2356", "10", "990"]


@pytest.mark.parametrize("seats", [0, 8])
def test_one_to_seven_seats(manager, seats):
    from croupier.engine import CroupierError

    with pytest.raises(CroupierError, match="1 to 7 seats"):
        stacked_core(manager, rules_of(manager, "vegas-s17"), "", chips=(100,) * seats)
