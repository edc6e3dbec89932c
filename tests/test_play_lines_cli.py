"""``croupier play --game NAME`` end to end through the CLI, its input a string: local tables
of baccarat and Three Card Poker (the table itself checked: chips conserved, the tally
its own), and the refusals of flags that are blackjack's."""

from __future__ import annotations

import io
import re

import pytest

import croupier.clients.play.lineplay as lineplay
from croupier.engine.gametable import GameTable
from croupier.engine.ledger import seat_account

TALLY = re.compile(r"Thanks for playing\. (\d+) rounds? played; (\d+) chips, net ([+-]\d+)")


@pytest.fixture
def tables(monkeypatch):
    """Every local table ``croupier play --game`` makes, to look at afterwards."""
    made: list[GameTable] = []

    class Kept(GameTable):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(lineplay, "GameTable", Kept)
    return made


@pytest.fixture
def play(cli, monkeypatch):
    """``play(input, *argv)``: ``croupier play *argv`` with ``input`` as its stdin."""

    def run(text: str, *argv: str) -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        return cli("play", *argv)

    return run


def tally(out: str) -> tuple[int, int, int]:
    found = TALLY.search(out)
    assert found, out
    rounds, chips, net = map(int, found.groups())
    return rounds, chips, net


def test_baccarat_locally_with_a_strategy_beside(play, tables):
    lines = [
        "help",
        "bet banker 20",  # round 1
        "bet banker=20 tie=20",  # round 2
        "bet tie 5",  # refused by the game: below the minimum
        "bet tie lots",  # refused here: not a number
        "fold",  # not an action
        "pass",  # round 3
        "b p 40",  # round 4
        "q",
    ]
    status, out, err = play(
        "\n".join(lines) + "\n",
        "--game",
        "baccarat",
        "--seed",
        "3",
        "--seats",
        "2",
        "--fill",
        "player",
    )
    assert status == 0, err
    assert "Traceback" not in out + err
    assert out.startswith(
        "baccarat (standard rules, seed 3) at a local table: seat 1 you; seat 2 player."
    )
    assert "Actions now" in out and "bet: stake one or more spots" in out
    assert "Seat 1 bets 20 on banker." in out
    assert "Seat 1 bets 20 on banker, 20 on tie." in out
    assert "refused: a stake is from 20 to 2000 chips, not 5 on tie" in out
    assert "  tie is a whole number, not 'lots'" in out
    assert "'fold' is not an action; you may bet or pass" in out
    assert "Seat 1 sits this coup out." in out
    assert "Seat 1 bets 40 on player." in out
    assert out.count("Seat 2 bets 20 on player.") == 4  # seat 1 speaks first in round 5
    assert "You leave the table." in out
    (table,) = tables
    assert table.ledger.conserved()
    rounds, chips, net = tally(out)
    assert table.core.round == 5  # round 5 was abandoned at the quit
    assert rounds == 3 == table.tally.hands[0]  # and round 3 sat out
    assert chips == table.ledger.balances[seat_account(1)] and net == chips - 2000
    assert f"Seat 1 has {chips} chips." in out  # as the table said at the last settlement


def test_three_card_poker_locally_to_the_end_of_the_input(play, tables):
    lines = ["bet 10 10", "p", "bet ante=20", "f", "bet 600", "bet 10", "fo", "bet 10", "play"]
    status, out, err = play("\n".join(lines), "--game", "three-card-poker", "--seed", "3")
    assert status == 0, err
    assert "Traceback" not in out + err
    assert "you may: bet [ante N] [pair_plus N] | pass" in out
    assert "you may: play | fold" in out
    assert "refused: the ante is from 10 to 500 chips, not 600" in out
    assert out.count("Seat 1 plays.") == 2 and out.count("Seat 1 folds.") == 2
    (table,) = tables
    assert table.ledger.conserved()
    rounds, chips, net = tally(out)
    assert rounds == 4 == table.core.round - 1  # the input ended at round 5
    assert chips == table.ledger.balances[seat_account(1)] and net == chips - 1000
    assert out.rstrip().endswith(
        f"Thanks for playing. 4 rounds played; {chips} chips, net {net:+d}"
    )


def test_out_of_chips_ends_the_game(play, tables):
    status, out, err = play(
        "bet tie 20\n" * 50, "--game", "baccarat", "--seed", "1", "--chips", "40", "--seats", "3"
    )
    assert status == 0, err
    assert "You are out of chips: the game is over." in out
    (table,) = tables
    assert table.ledger.conserved()
    rounds, chips, _ = tally(out)
    assert chips == table.ledger.balances[seat_account(1)] < 20
    assert rounds == table.core.round  # the strategies' seats were not played on
    assert out.count("Seat 2 bets 20 on player.") == rounds  # the game's first strategy


def test_a_game_option_from_a_shared_flag_and_from_set(play, tables):
    status, out, err = play(
        "pass\n",
        "--game",
        "baccarat",
        "--seed",
        "2",
        "--min-bet",
        "10",
        "--set",
        "commission=none",
        "--rules",
        "six-deck",
    )
    assert status == 0, err
    assert "baccarat (six-deck with commission=none, min_bet=10, seed 2)" in out
    (table,) = tables
    assert table.options["commission"] == "none" and table.options["decks"] == 6


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--game", "baccarat", "--ascii"], "--ascii draws blackjack's cards; baccarat plays"),
        (["--game", "baccarat", "--h17"], "--h17/--s17 is a blackjack rule; baccarat's options"),
        (["--game", "baccarat", "--set", "nope=1"], "baccarat has no option 'nope'"),
        (["--game", "baccarat", "--rules", "classic"], "baccarat has no rule set 'classic'"),
        (["--game", "nogame"], "unknown game 'nogame'; known: baccarat, blackjack"),
        (["--game", "baccarat", "--fill", "tie"], "--fill names the strategies of seats 2 to 1"),
        (["--game", "baccarat", "--seats", "2", "--fill", "x"], "baccarat has no strategy 'x'"),
        (["--game", "baccarat", "--seats", "8"], "a baccarat table has 1 to 7 seats"),
        (["--game", "baccarat", "--table", "3"], "--table T joins a table on a server"),
        (["--game", "baccarat", "--seats", "2", "--fill", "-"], "--fill - leaves a seat for a"),
        (["--game", "baccarat", "--chips", "10"], "10 starting chips cannot play a round"),
        (["--set", "decks=2"], "--set applies to --game; blackjack's play has a flag per rule"),
        (["--fill", "basic"], "blackjack's local game has one seat; give --connect"),
    ],
)
def test_refusals_are_one_line(play, argv, said):
    status, _out, err = play("", *argv)
    assert status == 1 and said in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_readmes_baccarat_examples_are_accepted_at_a_default_table(play):
    """What README tells a newcomer to type at baccarat is taken as typed (its `bet
    banker=20 tie=5` was once refused: every spot's stake is at least the minimum, 20)."""
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    typed = sorted(set(re.findall(r"`(bet (?:banker|player|tie)[^`]*)`", readme)))
    assert "bet banker 20" in typed and len(typed) >= 2
    status, out, err = play("\n".join([*typed, "q"]) + "\n", "--game", "baccarat", "--seed", "3")
    assert status == 0, err
    assert "refused" not in out and out.count("Seat 1 bets ") == len(typed)


@pytest.mark.parametrize(
    ("argv", "label"),
    [
        ((), "standard rules"),
        (("--set", "commission=none"), "no-commission"),  # issue 34: was "standard rules"
        (("--rules", "no-commission"), "no-commission"),
        (("--set", "tie_pays=9"), "standard rules with tie_pays=9"),
        (("--rules", "no-commission", "--set", "tie_pays=9"), "no-commission with tie_pays=9"),
    ],
)
def test_the_greeting_names_the_rules_the_table_plays(play, argv, label):
    status, out, err = play("q\n", "--game", "baccarat", "--seed", "3", *argv)
    assert status == 0, err
    assert out.startswith(f"baccarat ({label}, seed 3) at a local table: seat 1 you.")
