"""``croupier play`` driven as a person would: keystrokes in a pseudo-terminal, assertions on
the screen. The seeds are golden: same seed, same cards."""

from __future__ import annotations

import os
import re

from tests.termkit import CROUPIER, Term


def test_classic_session_from_deal_to_tally():
    term = Term("play", "--rules", "classic", "--seed", "5")
    screen = term.wait_for("Your bet (1-100): 1_", "[Enter] Deal", "Shuffling...")
    assert "Chips 100" in screen
    screen = term.press("\r", "King of Spades, Seven of Hearts", "[H] Hit")
    assert "Five of Spades, ?" in screen  # the hole card stays hidden
    assert "│ ? │" in screen
    assert "Dealer shows 5" in screen and "You: 17  ·  bet 1" in screen
    keys = re.findall(r"\[(\w)\] (\w+)", screen.splitlines()[-1])
    assert keys == [("H", "Hit"), ("S", "Stand"), ("Q", "Quit")]  # the legal keys only
    screen = term.press("h", "You draw the Ace of Diamonds", "You: 18")
    screen = term.press("s", "Round over: you lose 1 chip", "Play again? Your bet (1-99)")
    assert "The dealer turns the Two of Spades" in screen
    assert "The dealer draws the Ace of Spades" in screen  # draws to your 18
    assert "Dealer: Soft 18" in screen and "LOSE" in screen
    screen = term.press("20\r", "Round over: you win 20 chips")
    assert "Ten of Clubs, Ace of Diamonds" in screen  # 21 wins at once
    term.press("q")
    assert term.finish() == 0
    assert "Thanks for playing. 2 hands: 1 won, 1 lost, 0 pushed; net +19 chips" in term.output()


def test_classic_hint_is_the_exact_hit_or_stand_value(manager):
    rules = manager.rule_sets.get("classic").rules
    solution = manager.solvers.get("blackjack").solve(
        {"rules": rules.to_dict(), "hand": "K,7", "upcard": "5"}
    )
    ev = {kind: v["ev"] for kind, v in solution["hand"]["actions"].items()}
    best = max(ev, key=lambda kind: ev[kind])
    labels = {"stand": "Stand", "hit": "Hit"}
    term = Term("play", "--rules", "classic", "--seed", "5")
    term.wait_for("Your bet")
    term.press("\r", "King of Spades, Seven of Hearts", "[?] Hint")
    expected = [f"{labels[kind]} {ev[kind]:+.4f}" for kind in labels]
    screen = term.press(
        "?", "Exact EV per unit bet:", f"{labels[best]} {ev[best]:+.4f} (best)", *expected
    )
    assert "no blackjack" not in screen  # no peek under the classic dealer
    term.press("q", "forfeit")
    term.press("y")
    assert term.finish() == 0


def test_casino_soft_hand_offers_double_and_surrender():
    term = Term("play", "--rules", "vegas-s17", "--seed", "36")
    term.wait_for("Your bet (10-1000): 10_")
    screen = term.press("\r", "You: Soft 15", "[D] Double")
    assert "Ace of Spades, Four of Clubs" in screen
    keys = re.findall(r"\[(\w)\] (\w+)", screen.splitlines()[-1])
    assert keys == [
        ("H", "Hit"),
        ("S", "Stand"),
        ("D", "Double"),
        ("R", "Surrender"),
        ("Q", "Quit"),
    ]
    screen = term.press("d", "Round over", "Play again?")
    assert "bet 20" in screen  # the double
    term.press("q")
    assert term.finish() == 0


def test_split_hands_and_quitting_mid_hand():
    term = Term("play", "--rules", "vegas-s17", "--seed", "49")
    term.wait_for("Your bet")
    screen = term.press("\r", "[P] Split")
    assert "Nine of Clubs, Nine of Diamonds" in screen
    # 9C JD is played first (marked), 9D waits for its second card
    screen = term.press("p", "▶ Hand 1 of 2: 19", "Hand 2 of 2: 9", "[S] Stand")
    screen = term.press("s", "▶ Hand 2 of 2: 13")  # 9D 4C: its turn has come
    screen = term.press("q", "Quit now and forfeit the 20 chips on the table?")
    screen = term.press("n", "[S] Stand")  # changed my mind
    term.press("q", "forfeit")
    term.press("y")
    assert term.finish() == 0
    assert "0 hands: 0 won, 0 lost, 0 pushed; net -20 chips" in term.output()


def test_too_small_terminal_waits_until_enlarged():
    term = Term("play", "--seed", "5", rows=12, cols=40)
    term.wait_for("The terminal is too small", "(40x12, need 60x18)")
    term.resize(24, 80)
    screen = term.wait_for("Your bet (1-100): 1_")
    assert "too small" not in screen
    term.press("q")
    assert term.finish() == 0


def test_out_of_chips_ends_the_game():
    term = Term("play", "--seed", "5", "--chips", "1")
    term.wait_for("Your bet (1-1): 1_")
    term.press("\r", "[S] Stand")
    term.press("s", "Out of chips.", "the game is over")
    term.press("q")
    assert term.finish() == 0
    assert "1 hand: 0 won, 1 lost, 0 pushed; net -1 chip" in term.output()


def test_ctrl_c_restores_the_terminal():
    # the shell survives the Ctrl-C (a trap), then reports the status and the line mode
    shell = (
        f'trap : INT; {CROUPIER} play --seed 5; echo "status $?"; '
        "stty -a | grep -o -- '-\\?icanon'"
    )
    term = Term(shell=shell)
    term.wait_for("Your bet")
    term.press("\r", "[H] Hit")
    term.press("\x03")
    assert term.finish() == 0
    out = term.output()
    assert "croupier: interrupted" in out
    assert "status 130" in out
    assert "Thanks for playing. 0 hands" in out
    after = out[out.index("status 130") :]
    assert re.search(r"(?<!-)icanon", after)  # line editing is back on


def test_play_needs_a_terminal(cli):
    status, _out, err = cli("play", "--seed", "1")
    assert status == 1
    assert err.strip() == (
        "croupier: error: croupier play needs a terminal: "
        "run it without redirecting its input or output"
    )


def test_a_closed_terminal_ends_the_game_cleanly():
    term = Term("play", "--seed", "5")
    term.wait_for("Your bet")
    term.press("\r", "[H] Hit")
    os.close(term.child.child_fd)  # the window closes: SIGHUP, then no more input
    term.child.ptyproc.wait()
    assert term.child.ptyproc.signalstatus is None  # not killed by the hang-up
    assert term.child.ptyproc.exitstatus == 1  # "the terminal was closed"


def test_hint_shows_the_solvers_exact_ev_of_each_legal_action(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    solution = manager.solvers.get("blackjack").solve(
        {"rules": rules.to_dict(), "hand": "A,4", "upcard": "5"}
    )
    ev = {kind: v["ev"] for kind, v in solution["hand"]["actions"].items()}
    term = Term("play", "--rules", "vegas-s17", "--seed", "36")
    term.wait_for("Your bet")
    term.press("\r", "You: Soft 15", "[?] Hint")
    best = max(ev, key=lambda kind: ev[kind])
    labels = {"stand": "Stand", "hit": "Hit", "double": "Double", "surrender": "Surrender"}
    expected = [f"{labels[kind]} {ev[kind]:+.4f}" for kind in labels]
    # the whole hint must show; waiting on every piece avoids reading a half-drawn screen
    term.press("?", "Exact EV per unit bet", f"{labels[best]} {ev[best]:+.4f} (best)", *expected)
    term.press("q", "forfeit")
    term.press("y")
    assert term.finish() == 0
