"""A blackjack table on the engine's GameTable: time limits, refusals, defaults, events,
plain data, the fast path (its chips and logs: test_table_chips.py; its decisions against
the clock: test_table_time.py). Players answer plain maps, as every player at a table does."""

from __future__ import annotations

import json

import pytest
import trio
from bjtable import blackjack_table, round_core, strategy_seat, typed_events
from tablekit import StackedShoe

from croupier.engine import CroupierError
from croupier.plugins.blackjack.building import build_core
from croupier.plugins.blackjack.play import ACTIONS, Action, Event, Observation
from croupier.plugins.blackjack.simulate import run_rounds


class Stubborn:
    """Answers with ``first`` ``times`` times, then stands."""

    def __init__(self, first: Action | object, times: int = 99) -> None:
        self.first, self.times, self.seen = first, times, []

    async def decide(self, plain):
        observation = Observation.read(plain)
        self.seen.append(observation)
        if observation.phase == "bet":
            return Action("bet", observation.min_bet).to_dict()
        if self.times:
            self.times -= 1
            return self.first.to_dict() if isinstance(self.first, Action) else self.first
        return Action("stand").to_dict()


class Sleeper:
    async def decide(self, observation):
        if observation["phase"] == "bet":
            return Action("bet", 10).to_dict()
        await trio.sleep(3600)
        raise AssertionError("never reached")


class Crasher:
    async def decide(self, observation):
        raise RuntimeError("boom\nsecond line")


def stacked_table(manager, player, deal="TS 9D 6H 7C 5S 5D", **kw):
    events = []
    rules = manager.rule_sets.get("vegas-s17").rules
    table = blackjack_table(manager, rules, 1, [player], listeners=[typed_events(events)], **kw)
    round_core(table).shoe = StackedShoe(deal)
    return table, events


async def test_illegal_answers_are_refused_then_defaulted(manager):
    player = Stubborn(Action("split"))
    table, events = stacked_table(manager, player)
    await table.play_round()
    kinds = [e.kind for e in events if e.kind in ("refused", "default")]
    assert kinds == ["refused", "refused", "refused", "default"]
    assert player.seen[2].refused.startswith("split is not allowed now")
    assert any(e.kind == "action" and e.action == "stand" for e in events)


async def test_a_refused_answer_can_be_corrected(manager):
    player = Stubborn(Action("split"), times=1)
    table, events = stacked_table(manager, player)
    await table.play_round()
    assert [e.kind for e in events if e.kind in ("refused", "default")] == ["refused"]


async def test_not_an_action_is_refused(manager):
    table, events = stacked_table(manager, Stubborn("H"))
    await table.play_round()
    reasons = [e.reason for e in events if e.kind == "refused"]
    assert reasons[0] == "an answer is an action map (with a kind), not text"


async def test_slow_player_gets_stand(manager, autojump_clock):
    table, events = stacked_table(manager, Sleeper(), decision_time=2.0)
    await table.play_round()
    default = [e for e in events if e.kind == "default"]
    assert default[0].reason == "timeout after 2s"
    assert table.ledger.balances["seat-1"] == 1000 - 10  # stood on 15 against 16 + 5 = 21


async def test_broken_player_gets_the_defaults(manager):
    table, events = stacked_table(manager, Crasher())
    await table.play_round()
    reasons = [e.reason for e in events if e.kind == "default"]
    assert reasons == ["error: the player failed: boom"] * 2  # the bet, then the move
    assert table.ledger.balances["seat-1"] == 990


async def test_events_tell_the_story_in_order(manager):
    table, events = stacked_table(manager, Stubborn(Action("hit"), times=1))
    await table.play_round()
    text = [e.describe() for e in events]
    assert text[:8] == [
        "round 1 begins",
        "seat 1: bet 10",
        "seat 1 pays 10 chips (bet)",
        "seat 1 is dealt the Ten of Spades (10)",
        "the dealer is dealt the Nine of Diamonds (9)",
        "seat 1 is dealt the Six of Hearts (16)",
        "the dealer is dealt the hole card, face down",
        "seat 1: hit",
    ]
    assert "seat 1 draws the Five of Spades (21)" in text
    assert "the dealer turns the Seven of Clubs (16)" in text
    assert "the dealer draws the Five of Diamonds (21)" in text
    assert text[-2:] == ["seat 1: push with 21", "round 1 is over"]


async def test_hole_card_is_hidden_until_the_dealer_plays(manager):
    player = Stubborn(Action("stand"))
    table, _ = stacked_table(manager, player)
    await table.play_round()
    play = next(o for o in player.seen if o.phase == "play")
    assert play.visible == ("9D", "#", "TS", "6H")
    assert play.dealer_upcard == "9D"
    assert play.koth_arguments() == ["16", "T6", "9#T6", "10", "990"]


def test_plain_data_round_trips():
    obs = Observation("play", 3, 2, ("hit", "stand"), 140, hands=(("TS", "6H"),), total=16)
    data = obs.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert Observation.from_dict(data) == obs
    ev = Event("deal", 1, seat=2, card="QC", total=20, soft=False)
    assert Event.from_dict(ev.to_dict()) == ev
    for kind in ACTIONS:
        assert Action.from_dict(Action(kind, 3).to_dict()) == Action(kind, 3)
    with pytest.raises(CroupierError, match="unknown Action field"):
        Action.from_dict({"kind": "hit", "colour": "red"})
    with pytest.raises(CroupierError, match="unknown action"):
        Action.from_dict({"kind": "fold"})
    with pytest.raises(CroupierError, match="integer"):
        Action.from_dict({"kind": "bet", "amount": "lots"})


@pytest.mark.parametrize(
    ("text", "action"),
    [("H", "hit"), (" s ", "stand"), ("d", "double"), ("B -5", "raise"), ("bet 25", "bet")],
)
def test_action_parse(text, action):
    assert Action.parse(text).kind == action


@pytest.mark.parametrize("text", ["", "B x", "hit me now", "Z"])
def test_action_parse_errors(text):
    with pytest.raises(CroupierError):
        Action.parse(text)


async def test_fast_path_plays_the_same_game_as_the_table(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    strategy = manager.strategies.get("never-bust")
    chips = [10**6] * 3
    table = blackjack_table(manager, rules, 42, [strategy_seat(strategy)] * 3, chips=chips)
    await table.play(300)
    core = build_core(manager, rules, 42, chips)
    run_rounds(core, [strategy] * 3, 300)
    assert core.ledger.entries == table.ledger.entries
    assert core.ledger.balances == table.ledger.balances
