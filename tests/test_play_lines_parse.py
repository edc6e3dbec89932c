"""How ``croupier play --game`` reads a line into a game's action, and shows a decision."""

from __future__ import annotations

import pytest

from croupier.clients.play.lines import BadLine, decision_lines, help_lines, parse_action
from croupier.engine.games import ActionSpec, Field
from croupier.plugins.baccarat import BACCARAT
from croupier.plugins.three_card_poker import THREE_CARD_POKER

BET_OR_PASS = ["bet", "pass"]
COIN = (
    ActionSpec(
        "bet",
        "call the toss",
        (Field("on", "str", "your call", ("heads", "tails")), Field("amount", "int", "chips")),
    ),
)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("bet banker 20", {"kind": "bet", "banker": 20}),
        ("bet banker=20 tie=5", {"kind": "bet", "banker": 20, "tie": 5}),
        ("b b=20 t 5", {"kind": "bet", "banker": 20, "tie": 5}),
        ("BET Banker 20", {"kind": "bet", "banker": 20}),
        ("bet 20", {"kind": "bet", "player": 20}),  # a bare value: the first field
        ("bet 20 40", {"kind": "bet", "player": 20, "banker": 40}),
        ("bet tie 5 20", {"kind": "bet", "tie": 5, "player": 20}),
        ("pass", {"kind": "pass"}),
        ("pa", {"kind": "pass"}),
        ("  pass  ", {"kind": "pass"}),
    ],
)
def test_baccarat_lines(line, action):
    assert parse_action(line, BACCARAT.actions, BET_OR_PASS) == action


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("", "type an action: bet or pass"),
        ("fold", "'fold' is not an action; you may bet or pass"),
        ("bet banker", "give banker a value: banker N"),
        ("bet banker lots", "banker is a whole number, not 'lots'"),
        ("bet banker 2.5", "banker is a whole number, not '2.5'"),
        ("bet banker=20 banker=5", "banker is given twice"),
        ("bet spot=20", "bet has no field 'spot'; its fields: player, banker, tie"),
        ("bet 1 2 3 4", "'4' is one value too many: bet [player N] [banker N] [tie N]"),
        ("pass 20", "pass takes nothing more, not '20'"),
        ("x", "'x' is not an action"),
    ],
)
def test_baccarat_bad_lines_say_why_in_one_line(line, said):
    with pytest.raises(BadLine) as caught:
        parse_action(line, BACCARAT.actions, BET_OR_PASS)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_kind_is_a_prefix_of_the_legal_ones_first():
    actions = THREE_CARD_POKER.actions
    assert parse_action("p", actions, ["play", "fold"]) == {"kind": "play"}
    assert parse_action("f", actions, ["play", "fold"]) == {"kind": "fold"}
    two = (ActionSpec("bet", ""), ActionSpec("bump", ""))
    with pytest.raises(BadLine, match="'b' could be the action bet or bump; type more of it"):
        parse_action("b", two, ["bet", "bump"])
    with pytest.raises(BadLine, match="bet is not possible now; you may play or fold"):
        parse_action("bet 10", actions, ["play", "fold"])
    assert parse_action("bet 10 5", actions, ["bet", "pass"]) == {
        "kind": "bet",
        "ante": 10,
        "pair_plus": 5,
    }


def test_choices_are_values_and_a_bare_value_goes_to_the_field_that_takes_it():
    assert parse_action("bet heads 5", COIN, ["bet"]) == {"kind": "bet", "on": "heads", "amount": 5}
    assert parse_action("bet t 5", COIN, ["bet"]) == {"kind": "bet", "on": "tails", "amount": 5}
    assert parse_action("bet 5 h", COIN, ["bet"]) == {"kind": "bet", "amount": 5, "on": "heads"}
    assert parse_action("bet on=tails a=3", COIN, ["bet"]) == {
        "kind": "bet",
        "on": "tails",
        "amount": 3,
    }
    with pytest.raises(BadLine, match="on is heads or tails, not 'edge'"):
        parse_action("bet on edge", COIN, ["bet"])


def test_a_decision_shows_the_fields_the_refusal_and_the_legal_actions():
    observation = {
        "phase": "play",
        "round": 3,
        "seat": 1,
        "chips": 980,
        "cards": ["5H", "4H", "3H"],
        "ante": 10,
        "pair_plus": 0,
        "legal": ["play", "fold"],
        "refused": "not now",
    }
    lines = decision_lines(observation, THREE_CARD_POKER.observation, THREE_CARD_POKER.actions)
    text = "\n".join(lines)
    assert "phase play · round 3 · seat 1 · chips 980 · cards 5H 4H 3H" in text
    assert "refused: not now" in text
    assert lines[-1] == "  you may: play | fold"
    assert "legal" not in text.replace("you may", "")
    helped = "\n".join(help_lines(THREE_CARD_POKER.observation, THREE_CARD_POKER.actions, ["bet"]))
    assert "ante N: the ante" in helped and "e.g. bet ante 10; bet ante=10 pair_plus=10" in helped
    assert "cards: your three cards (play phase)" in helped


def test_ambiguous_prefixes_of_fields_and_choices():
    spec = (
        ActionSpec(
            "bet",
            "",
            (
                Field("pick", "str", "", ("high", "hold")),
                Field("plus", "int", ""),
                Field("amount", "int", ""),
            ),
        ),
    )
    with pytest.raises(BadLine, match="'p' could be the field pick or plus; type more of it"):
        parse_action("bet p=3", spec, ["bet"])
    with pytest.raises(BadLine, match="'h' could be high or hold; type more of it"):
        parse_action("bet h 5", spec, ["bet"])
    with pytest.raises(BadLine, match="'h' could be high or hold"):
        parse_action("bet pick=h", spec, ["bet"])
    assert parse_action("bet ho 5 a 2", spec, ["bet"]) == {
        "kind": "bet",
        "pick": "hold",
        "plus": 5,  # a bare value: the first free field that takes it
        "amount": 2,
    }
    with pytest.raises(BadLine, match="plus is given twice"):
        parse_action("bet 5 plus 2", spec, ["bet"])
