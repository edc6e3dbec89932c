"""The terminal game's pieces without a terminal: the view built from events, the layout,
the key decoder."""

from __future__ import annotations

import trio
from bjtable import Scripted, blackjack_table, typed, typed_events

from croupier.clients.play.layout import MIN_HEIGHT, MIN_WIDTH, Prompt, layout, too_small
from croupier.clients.play.terminal import BACKSPACE, ENTER, ESCAPE, KeyDecoder, decode_keys
from croupier.clients.play.view import TableView, narrate, total_text
from croupier.plugins.blackjack.play import Action, Event


def play(manager, rules_name, seed, actions, rounds=1):
    rules = manager.rule_sets.get(rules_name).rules
    view = TableView(1, rules.starting_chips, rules_name)
    table = blackjack_table(
        manager, rules, seed, [Scripted(actions)], listeners=[typed(view.apply)]
    )
    trio.run(table.play, rounds)
    return view, table


def test_split_and_double_follow_the_table(manager):
    # seed 49 at vegas-s17 deals 9C 9D against an 8: split, double the first hand, stand
    view, table = play(
        manager, "vegas-s17", 49, [Action("bet", 10), Action("split"), Action("double")]
    )
    hands = view.my_hands
    assert [h.cards[0] for h in hands] == ["9C", "9D"]
    assert [h.stake for h in hands] == [20, 10]
    assert all(h.outcome is not None for h in hands)
    assert "#" not in view.dealer  # the hole card was turned
    assert view.chips == table.ledger.balances["seat-1"]
    assert view.tally.hands == 2
    assert view.tally.net == table.ledger.balances["seat-1"] - 1000


def test_tally_counts_every_settled_hand(manager):
    view, table = play(manager, "classic", 5, [Action("bet", 1), Action("stand")] * 3, 3)
    tally = view.tally
    assert tally.hands == 3 == tally.won + tally.lost + tally.pushed
    assert tally.net == table.ledger.balances["seat-1"] - 100
    assert view.log[-1].startswith("Round over: you ")


def test_totals_and_narration():
    assert total_text(["AS", "6H"]) == "Soft 17"
    assert total_text(["AS", "6H", "TD"]) == "17"
    assert total_text(["KS", "QH", "5C"]) == "Bust (25)"
    assert total_text(["5S", "#"]) == "5"
    me = 1
    assert narrate(Event("deal", 1, seat=1, hand=0, card="QC"), me) == (
        "You are dealt the Queen of Clubs"
    )
    assert narrate(Event("deal", 1, card="5H", reason="draw"), me) == (
        "The dealer draws the Five of Hearts"
    )
    assert narrate(Event("deal", 1, seat=1, hand=1, card="2D", reason="draw"), me) == (
        "Your hand 2 draws the Two of Diamonds"
    )
    assert narrate(Event("shuffle", 1), me) == "Shuffling..."
    assert narrate(Event("chips", 1, seat=1, amount=-5, reason="bet"), me) is None


def test_layout_shrinks_many_hands_to_one_line_each():
    view = TableView(1, 100, "test")
    for i, code in enumerate(["8S", "8H", "8D", "8C"]):
        view.apply(Event("deal", 1, seat=1, hand=i, card=code))
    for code in ("TS", "#"):
        view.apply(Event("deal", 1, card=code))
    prompt = Prompt("Your move:", (("H", "Hit"), ("S", "Stand")))
    spans = layout(view, prompt, MIN_WIDTH, MIN_HEIGHT, "ascii")
    texts = [s.text for s in spans]
    assert "Dealer shows 10" in texts
    assert sum(t.startswith(("Hand ", "> Hand ")) for t in texts) == 4
    assert all(0 <= s.row < MIN_HEIGHT and s.col + len(s.text) <= MIN_WIDTH for s in spans)
    assert too_small(MIN_WIDTH - 1, MIN_HEIGHT) and not too_small(MIN_WIDTH, MIN_HEIGHT)


def test_key_decoder():
    assert decode_keys(b"h\r20\x7f\x1b") == ["h", ENTER, "2", "0", BACKSPACE, ESCAPE]
    assert decode_keys(b"\x1b[A\x1bOPs") == ["s"]  # arrows and function keys are dropped
    decoder = KeyDecoder()
    assert decoder.feed("é".encode()[:1]) == []  # a character split across reads
    assert decoder.feed("é".encode()[1:]) == ["é"]


def test_hint_offered_only_where_the_solver_plays_the_rules(manager):
    from croupier.clients.play.hint import make_hint, rank_text

    koth = manager.rule_sets.get("koth").rules
    assert make_hint(manager, koth.evolve(peek=True)) is None  # a rule set it refuses
    assert make_hint(manager, koth) is not None
    classic = make_hint(manager, manager.rule_sets.get("classic").rules)
    assert classic is not None
    hint = make_hint(manager, manager.rule_sets.get("vegas-s17").rules)
    assert hint is not None
    assert [rank_text(c) for c in ("AS", "9H", "TD", "KC")] == ["A", "9", "T", "T"]
    from croupier.plugins.blackjack.play import Observation

    seen = Observation(
        "play",
        1,
        1,
        ("hit", "stand"),
        990,
        hands=(("KS", "6D", "2C"),),
        total=18,
        stake=10,
        dealer_upcard="9H",
    )
    lines = hint(seen)
    assert lines[0].startswith("Exact EV per unit bet")
    assert "Double" not in " ".join(lines)  # only the legal actions
    assert "(best)" in lines[1]
    lines = classic(seen)  # under the classic dealer: hit or stand, no blackjack condition
    values = manager.solvers.get("blackjack").solve(
        {"rules": manager.rule_sets.get("classic").rules.to_dict(), "hand": "T,6,2", "upcard": "9"}
    )["hand"]["actions"]
    assert lines[0] == "Exact EV per unit bet:"
    assert f"Stand {values['stand']['ev']:+.4f}" in " ".join(lines)
    assert f"Hit {values['hit']['ev']:+.4f}" in " ".join(lines)


def test_a_long_title_is_cut_visibly_and_kept_apart_from_the_counters():
    view = TableView(1, 100, "classic (table 1, seed 5123053658780316664)")
    for charset, mark in (("unicode", "…"), ("ascii", "~")):
        bar = layout(view, None, 60, MIN_HEIGHT, charset)[0].text
        assert len(bar) == 60 and bar.endswith("Round 0  Chips 100  Bet 0 ")
        assert f"{mark} Round 0" in bar  # cut, marked, then a blank before the counters


def test_a_server_tables_title_keeps_its_number_at_80_columns():
    # server table numbers are 11 digits: the bar gives up its name before the title
    view = TableView(1, 1000, "vegas-s17 (table 28347645826, seed 9)")
    bar = layout(view, None, 80, MIN_HEIGHT, "unicode")[0].text
    assert bar.startswith(" vegas-s17 (table 28347645826, seed 9) ")
    bar = layout(TableView(1, 100, "classic (seed 5)"), None, 80, MIN_HEIGHT, "unicode")[0].text
    assert bar.startswith(" croupier blackjack · classic (seed 5) ")


def test_a_round_played_again_after_a_server_restart_counts_once(manager):
    """A server stopped before it kept a round plays it again from its start after the
    restart: the view goes back to the chips and counts it had when that round began,
    whether the round was cut short or had even been settled on screen."""
    rules = manager.rule_sets.get("classic").rules
    events: list[Event] = []
    moves = [Action("bet", 1), Action("stand")] * 3
    table = blackjack_table(manager, rules, 5, [Scripted(moves)], listeners=[typed_events(events)])
    trio.run(table.play, 3)
    once = TableView(1, 100, "classic")
    for event in events:
        once.apply(event)
    assert once.tally.hands == 3 and once.chips == table.ledger.balances["seat-1"]
    third = [e for e in events if e.round == 3]
    cut = next(i for i, e in enumerate(third) if e.kind == "settle")
    for seen in (third[:cut], third):  # cut before its settlement, or after it
        view = TableView(1, 100, "classic")
        for event in [*events[: -len(third)], *seen, *third]:
            view.apply(event)
        assert (view.tally, view.chips) == (once.tally, once.chips)
        assert "Round 3 starts again from the beginning" in view.log


def test_another_seat_dealt_no_card_yet_shows_its_bet_not_an_empty_hand():
    view = TableView(1, 100, "test")
    view.apply(Event("round", 1))
    for seat, amount in ((1, 10), (2, 20)):
        view.apply(Event("action", 1, seat=seat, hand=0, action="bet", amount=amount))
        view.apply(Event("chips", 1, seat=seat, amount=-amount, reason="bet"))
    view.apply(Event("deal", 1, seat=1, hand=0, card="3C"))  # seat 2's card comes next
    texts = [s.text for s in layout(view, None, MIN_WIDTH, MIN_HEIGHT, "ascii")]
    assert "Seat 2: bet 20" in texts and "Seat 2:  ()" not in texts
    view.apply(Event("deal", 1, seat=2, hand=0, card="5S"))
    texts = [s.text for s in layout(view, None, MIN_WIDTH, MIN_HEIGHT, "ascii")]
    assert "Seat 2: 5S (5)" in texts
