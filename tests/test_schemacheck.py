"""The engine holds every answer and every option to the game's schema before the game sees
them (engine/schemacheck.py): a game whose own check() accepts anything is still refused
what its schema forbids, at a table as on the wire."""

from __future__ import annotations

import attrs
import pytest
from croupier_coin.toss import COIN_TOSS, TossCore

from croupier.engine import CroupierError
from croupier.engine.games import ActionSpec, Field, Turn
from croupier.engine.gametable import GameTable
from croupier.engine.schemacheck import action_problem, has_type


class Lax(TossCore):
    def check(self, turn, action):
        return None  # the game's own rules let everything through


LAX = attrs.evolve(COIN_TOSS, new_core=Lax)
TURN = Turn(1, ("bet",), {}, {"kind": "bet", "on": "heads", "amount": 1})


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"kind": "bet", "on": "heads", "amount": 5}, None),
        ({"kind": "fold"}, "fold is not allowed now (legal: bet)"),
        ({"on": "heads"}, "an action has a kind (legal: bet), not None"),
        ({"kind": "bet", "on": "edge", "amount": 5}, "the on is heads or tails, not 'edge'"),
        ({"kind": "bet", "on": "heads", "amount": "5"}, "the amount is a whole number, not '5'"),
        ({"kind": "bet", "on": "heads", "amount": True}, "the amount is a whole number, not True"),
        ({"kind": "bet", "on": "heads", "amount": 0}, "the amount is from 1 to 100, not 0"),
        ({"kind": "bet", "on": "heads", "amount": 101}, "the amount is from 1 to 100, not 101"),
        ({"kind": "bet", "on": "heads"}, "bet needs amount"),
        ({"kind": "bet", "on": "heads", "amount": 5, "x": 1}, "bet has on, amount, not x"),
    ],
)
def test_each_schema_rule_is_the_engines(action, reason):
    options = LAX.rules()
    core = LAX.new_core(options, 1, [100], None)
    assert LAX.refusal(options, core, TURN, action) == reason
    assert action_problem(LAX, options, TURN, action) == reason


def test_a_range_may_name_an_option_and_a_loose_kind_leaves_extra_fields_to_the_game():
    options = LAX.rules(None, {"max_bet": 7})
    assert action_problem(LAX, options, TURN, {"kind": "bet", "on": "tails", "amount": 8}) == (
        "the amount is from 1 to 7, not 8"
    )
    loose = attrs.evolve(LAX, actions=(attrs.evolve(LAX.actions[0], strict=False),))
    assert (
        action_problem(loose, options, TURN, {"kind": "bet", "on": "tails", "amount": 2, "x": 1})
        is None
    )


def test_options_are_held_to_their_fields_before_the_games_check():
    with pytest.raises(CroupierError, match=r"^min_bet must be at least 1, not 0$"):
        COIN_TOSS.rules(None, {"min_bet": 0})
    with pytest.raises(CroupierError, match=r"^edge_odds must be a whole number, not 'x'$"):
        COIN_TOSS.rules(None, {"edge_odds": "x"})
    with pytest.raises(CroupierError, match="edge_odds is odd"):  # the game's own rule
        COIN_TOSS.rules(None, {"edge_odds": 50})


def test_types():
    assert has_type("list[list[str]]", [["AS", "TD"], []]) and not has_type("list[int]", [1, "2"])
    assert has_type("float", 1) and not has_type("float", False) and has_type("whatever", object())
    schema = ActionSpec("bet", "b", (Field("a", "int", "a", low="min_bet", required=True),))
    assert schema.to_dict()["fields"] == [
        {"name": "a", "type": "int", "summary": "a", "min": "min_bet", "required": True}
    ]


class Answers:
    def __init__(self, *answers):
        self.answers = list(answers)

    async def decide(self, observation):
        return self.answers.pop(0)


async def test_a_table_refuses_what_the_schema_forbids_and_asks_again():
    events = []
    player = Answers(
        {"kind": "bet", "on": "edge", "amount": 5}, {"kind": "bet", "on": "tails", "amount": 5}
    )
    table = GameTable(LAX, LAX.rules(), 1, [player], listeners=[events.append])
    assert await table.play_round()
    (refused,) = [e for e in events if e["kind"] == "refused"]
    assert refused["reason"] == "the on is heads or tails, not 'edge'"
    (bet,) = [e for e in events if e["kind"] == "bet"]
    assert bet["on"] == "tails" and bet["amount"] == 5
