"""Blackjack at a game table on plain maps: the round builds its events' words once per kind
and fields (a cache), its observations and answers as plain data; what a player and a
watcher get is what the words and the rules say, whatever was said or checked before."""

from __future__ import annotations

import json
import random

import pytest
import trio

from croupier.engine import CroupierError, PluginManager
from croupier.engine.errors import PlayerAbsent
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.plugins.blackjack.game import game_strategy
from croupier.plugins.blackjack.strategy import Strategy
from croupier.plugins.blackjack.tablelog import LOG_NAME, LOG_VERSION, replay
from croupier.plugins.blackjack.words import describe


class Anything:
    """Answers any legal action (seeded): splits, doubles, surrenders, insurance, raises."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def decide_now(self, observation):
        kind = self.random.choice(observation["legal"])
        if kind == "bet":
            high = min(observation["max_bet"], observation["min_bet"] * 3)
            return {"kind": "bet", "amount": self.random.randint(observation["min_bet"], high)}
        if kind == "raise":
            return {"kind": "raise", "amount": self.random.choice([1, 5, 10**6])}
        return {"kind": kind, "amount": 0}

    async def decide(self, observation):
        return self.decide_now(observation)


@pytest.mark.parametrize(
    ("rules", "moves"),
    [("vegas-s17", {"split", "double", "surrender"}), ("koth", {"raise", "double"})],
)
def test_every_event_says_its_own_words(manager, rules, moves):
    game = manager.games.get("blackjack")
    events: list[dict] = []
    players = [Anything(seed) for seed in range(3)]
    table = GameTable(game, game.rules(rules), 7, players, listeners=[events.append])
    trio.run(table.play, 60)
    kinds = {event["kind"] for event in events}
    assert {"deal", "chips", "action", "settle", "reveal", "round", "end"} <= kinds
    actions = {event.get("action") for event in events if event["kind"] == "action"}
    assert {"hit", "stand", *moves} <= actions
    for event in events:
        fields = {key: value for key, value in event.items() if key != "text"}
        assert event["text"] == describe(fields), event
        if event["kind"] in ("round", "end"):
            assert str(event["round"]) in event["text"]


def test_the_words_of_plain_events():
    said = {
        "seat 1 is dealt the King of Clubs (10)": {
            "kind": "deal",
            "round": 1,
            "seat": 1,
            "hand": 0,
            "card": "KC",
            "total": 10,
            "soft": False,
            "reason": "deal",
        },
        "seat 2 (hand 2) draws the Ace of Spades (soft 17)": {
            "kind": "deal",
            "round": 3,
            "seat": 2,
            "hand": 1,
            "card": "AS",
            "total": 17,
            "soft": True,
            "reason": "draw",
        },
        "the dealer is dealt the hole card, face down": {"kind": "deal", "round": 1, "card": "#"},
        "seat 1 pays 10 chips (bet)": {
            "kind": "chips",
            "round": 1,
            "seat": 1,
            "amount": -10,
            "reason": "bet",
        },
        "seat 3: raise 50 (over-bet: 50 > 20 chips held, stands)": {
            "kind": "action",
            "round": 2,
            "seat": 3,
            "hand": 0,
            "action": "raise",
            "amount": 50,
            "reason": "over-bet: 50 > 20 chips held, stands",
        },
        "seat 2 sits this round out": {
            "kind": "action",
            "round": 4,
            "seat": 2,
            "hand": 0,
            "action": "pass",
        },
        "seat 1: win with 20": {
            "kind": "settle",
            "round": 1,
            "seat": 1,
            "hand": 0,
            "total": 20,
            "outcome": "win",
        },
        "the dealer turns the Ten of Hearts (20)": {
            "kind": "reveal",
            "round": 1,
            "card": "TH",
            "total": 20,
            "soft": False,
        },
        "round 12 is over": {"kind": "end", "round": 12},
    }
    for words, event in said.items():
        assert describe(event) == words


def test_a_checked_answer_stands_only_for_itself(manager):
    """The core reads an answer once when the table checks it; an answer sent that is not
    the one checked (a default after a check) is read for what it is."""
    game = manager.games.get("blackjack")
    for seed in range(100):  # a seat's first play at a total a card cannot take to 21
        core = game.new_core(game.rules("vegas-s17"), seed, [1000], None)
        flow = core.play_round()
        turn = next(flow)
        while turn.phase != "play":
            turn = flow.send(dict(turn.default))
        if turn.observation["total"] <= 9:
            break
    else:
        raise AssertionError("no seed deals a total of 9 or less")
    assert core.check(turn, {"kind": "hit", "amount": 0}) is None
    with pytest.raises(StopIteration):  # the seat stood: the round ends (a hit would ask again)
        flow.send({"kind": "stand", "amount": 0})


def test_a_strategy_answering_an_unknown_kind_gets_the_default_with_the_error(manager):
    game = manager.games.get("blackjack")
    fly = game_strategy(Strategy("fly", "answers what no table knows", lambda h, u, legal: "fly"))
    events: list[dict] = []
    options = game.rules("vegas-s17")
    table = GameTable(game, options, 1, [GameStrategyPlayer(fly)], listeners=[events.append])
    trio.run(table.play, 3)
    defaults = [event for event in events if event["kind"] == "default"]
    assert defaults and all("unknown action 'fly'" in event["reason"] for event in defaults)
    assert not [event for event in events if event["kind"] == "refused"]
    with pytest.raises(CroupierError, match="unknown action 'fly'"):
        fly.play({**_play_observation(), "legal": ["hit", "stand"]})


def _play_observation():
    return {
        "phase": "play",
        "round": 1,
        "seat": 1,
        "legal": ["hit", "stand"],
        "chips": 990,
        "hands": [["TC", "6D"]],
        "hand": 0,
        "total": 16,
        "soft": False,
        "stake": 10,
        "dealer_upcard": "9H",
        "visible": ["9H", "#", "TC", "6D"],
        "min_bet": 0,
        "max_bet": 990,
        "refused": None,
    }


def test_a_table_log_with_an_empty_seat_replays(manager):
    """An empty seat sits its rounds out (an ``action`` event ``pass``, the table's, not a
    player's): the blackjack table log replays it to the same chips (it was read as an
    unknown action, which made a server table's replay fail when a bot's seat was empty at
    a round's start)."""

    class Gone:
        async def decide(self, observation: dict[str, object]) -> dict[str, object]:
            raise PlayerAbsent("nobody is in the seat")

    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17")
    (lim17,) = (s.at(options) for s in game.strategies if s.name == "lim17")
    events: list[dict[str, object]] = []
    table = GameTable(
        game, options, 5, [GameStrategyPlayer(lim17), Gone()], listeners=[events.append]
    )
    assert trio.run(table.play, 6) == 6
    assert any(e.get("action") == "pass" for e in events)
    chips = [options["starting_chips"]] * 2
    header = {"log": LOG_NAME, "version": LOG_VERSION, "seed": 5, "rules": options}
    lines = [json.dumps(header | {"chips": chips}), *(json.dumps(e) for e in events)]
    core = replay(PluginManager(autoload=False), lines)
    assert [core.ledger.balances[seat.account] for seat in core.seats] == table._balances()
