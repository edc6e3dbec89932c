"""``croupier solve blackjack``: chart, hand, dealer, JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest


def test_chart_json_infinite_deck(cli):
    status, out, err = cli("solve", "blackjack", "--decks", "inf", "--surrender", "none", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert round(100 * data["house_edge"]["composition_dependent"], 4) == 0.5117
    assert data["chart"]["upcards"] == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    assert data["chart"]["hard"]["16"][-2] == "H"
    assert data["rules"]["decks"] is None


def test_chart_is_printed_as_a_table(cli):
    status, out, _ = cli("solve", "blackjack", "--decks", "inf", "--chart")
    assert status == 0
    assert "Hard totals" in out and "Soft totals" in out and "Pairs" in out
    assert "house edge" in out and "conditioned on the dealer not having blackjack" in out


def test_hand_query(cli):
    status, out, _ = cli(
        "solve", "blackjack", "--decks", "inf", "--hand", "T,6", "--upcard", "T", "--json"
    )
    assert status == 0
    hand = json.loads(out)["hand"]
    assert hand["total"] == 16 and hand["soft"] is False
    assert set(hand["actions"]) == {"stand", "hit", "double", "surrender"}
    assert hand["best"] == "surrender"
    assert "chart" not in json.loads(out)
    status, out, _ = cli("solve", "blackjack", "--hand", "8,8", "--upcard", "6")
    assert status == 0 and "best: split" in out


def test_dealer_table(cli):
    status, out, _ = cli("solve", "blackjack", "--decks", "inf", "--dealer")
    assert status == 0
    assert "0.42315" in out and "0.35361" in out


def test_win_probability_objective(cli):
    status, out, _ = cli(
        "solve", "blackjack", "--decks", "inf", "--h17", "--objective", "win-probability", "--json"
    )
    assert status == 0
    data = json.loads(out)
    letters = {
        x for section in ("hard", "soft") for row in data["chart"][section].values() for x in row
    }
    assert letters <= {"H", "S"}
    assert 0.4 < data["win_probability"]["optimal"] < 0.5


def test_solve_call_reaches_the_plugin(cli):
    status, out, _ = cli(
        "solve", "call", "blackjack", '{"rules": {"decks": "inf"}, "dealer": true}'
    )
    assert status == 0
    assert json.loads(out)["dealer"]["6"]["bust"] == pytest.approx(0.42315, abs=5e-6)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--rules", "koth", "--peek"), "without the dealer's peek"),
        (("--hand", "T,6"), "go together"),
        (("--hand", "T,Q,Z", "--upcard", "5"), "at column 5 of 'T,Q,Z'"),
        (("--rules", "nope"), "unknown rule set"),
        (("--hand", "T,6", "--upcard", ""), "the upcard is one card, not ''"),
    ],
)
def test_errors_are_one_line(cli, argv, message):
    status, out, err = cli("solve", "blackjack", *argv)
    assert status != 0
    assert out == ""
    assert message in err and err.count("\n") == 1


def test_solve_call_takes_cards_as_text_or_a_list_and_checks_option_types(cli):
    as_text = cli("solve", "call", "blackjack", '{"hand": "T,6", "upcard": "T"}')
    as_list = cli("solve", "call", "blackjack", '{"hand": ["T", "6"], "upcard": ["T"]}')
    assert as_text[0] == as_list[0] == 0 and json.loads(as_text[1]) == json.loads(as_list[1])
    for problem, message in [
        ('{"hand": 16, "upcard": "T"}', "'hand' is cards as text"),
        ('{"rules": {"decks": 1.5}}', "decks must be a whole number"),
        ('{"rules": {"double_after_split": "no"}}', "double_after_split must be true or false"),
        ('{"rules": {"blackjack_pays": 1.5}, "hand": "T,6", "upcard": "T"}', None),
    ]:
        status, _, err = cli("solve", "call", "blackjack", problem)
        if message is None:
            assert status == 0, err  # 1.5 from JSON is 3:2
        else:
            assert status == 1 and message in err and err.count("\n") == 1, err


def test_the_betting_scheme_is_an_override_too(cli):
    argv = ("solve", "blackjack", "--rules", "classic", "--hand", "T,7", "--upcard", "T", "--json")
    status, out, err = cli(*argv, "--betting", "casino")
    assert status == 0, err
    casino = json.loads(out)
    classic = json.loads(cli(*argv)[1])
    assert casino["rules"]["betting"] == "casino" and classic["rules"]["betting"] == "classic"
    # standing on 17 against a ten: a tie pushes under casino betting, loses under classic
    stand = lambda s: s["hand"]["actions"]["stand"]["ev"]  # noqa: E731
    assert stand(casino) > stand(classic)
