"""Blackjack behind the game interface: its logs replay, it passes the plugin checks,
its strategies travel to worker processes, and its bots' shorthand still reads."""

from __future__ import annotations

import io
import json
import pickle

import pytest
import trio.testing

from croupier.engine import CroupierError
from croupier.engine.gamelog import GameEventLog, replay_game
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.plugincheck import check_plugins
from tests.test_gametable import Broken, Scripted, Sleeper


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


@pytest.fixture
def blackjack(manager):
    return manager.games.get("blackjack")


async def test_refusals_and_defaults_name_the_hand_and_the_log_replays(
    manager, blackjack, autojump_clock
):
    options = blackjack.rules("vegas-s17")
    players = [
        Scripted([{"kind": "bet", "amount": 5}, "bet 10", {"kind": "bet", "amount": 20}]),
        Sleeper(),
        Broken(),
        GameStrategyPlayer(blackjack.strategy("basic").at(options)),
    ]
    out = io.StringIO()
    table = GameTable(blackjack, options, 5, players, decision_time=2.0)
    GameEventLog(table, out)
    await table.play(6)
    lines = out.getvalue().splitlines()
    events = [json.loads(line) for line in lines[1:]]
    refused = [e for e in events if e["kind"] == "refused"]
    assert refused[0]["seat"] == 1 and refused[0]["hand"] == 0
    assert "between 10 and 1000" in refused[0]["reason"]
    assert "an answer is an action map" in refused[1]["reason"]  # text is read by servers
    defaults = {e["seat"] for e in events if e["kind"] == "default"}
    assert {2, 3} <= defaults
    assert not any(e["kind"] == "action" and isinstance(e.get("action"), dict) for e in events)
    replayed = replay_game(manager, lines)
    assert replayed.ledger.balances == table.ledger.balances
    for i, line in enumerate(lines):
        if '"kind": "action"' in line and '"hit"' in line:
            edited = [*lines[:i], line.replace('"hit"', '"stand"'), *lines[i + 1 :]]
            break
    with pytest.raises(CroupierError, match=r"differs|no answer|refused|allowed"):
        replay_game(manager, edited)


def test_blackjack_passes_the_plugin_checks(manager):
    assert check_plugins(manager, "blackjack") == []


def test_the_schema_is_plain_and_says_the_wire_format(blackjack):
    schema = blackjack.schema()
    assert json.loads(json.dumps(schema)) == schema
    assert schema["auto_phases"] == ["bet", "insurance", "surrender"]
    assert {a["kind"] for a in schema["actions"]} >= {"hit", "stand", "double", "split", "bet"}
    assert "dealer_upcard" in {f["name"] for f in schema["observation"]}
    assert {"vegas-s17", "koth", "classic"} <= set(schema["rule_sets"])


def test_bots_shorthand_reads_and_bad_answers_are_one_line(blackjack):
    read = blackjack.read_action
    assert read is not None
    assert read("H") == {"kind": "hit", "amount": 0}
    assert read(" bet 25 ") == {"kind": "bet", "amount": 25}
    assert read({"kind": "double"}) == {"kind": "double", "amount": 0}
    for bad, said in [("fly", "unknown action"), (3, "action map or text"), ("bet x", "whole")]:
        with pytest.raises(CroupierError, match=said):
            read(bad)


def test_options_are_checked_in_one_line(blackjack):
    with pytest.raises(CroupierError, match="finite number of decks"):
        blackjack.rules("vegas-s17", {"decks": None})
    with pytest.raises(CroupierError, match="has no option 'colour'"):
        blackjack.rules(None, {"colour": 1})
    with pytest.raises(CroupierError, match=r"unknown dealer rules 'nobody'"):
        blackjack.rules(None, {"dealer": "nobody"})


def test_strategies_are_prepared_in_worker_processes(blackjack):
    options = blackjack.rules("single-deck")
    basic = pickle.loads(pickle.dumps(blackjack.strategy("basic")))
    assert basic.for_options is not None
    ready = pickle.loads(pickle.dumps(basic.at(options)))
    assert ready.for_options is None
    seen = {
        "phase": "play",
        "round": 1,
        "seat": 1,
        "legal": ["hit", "stand", "double", "surrender"],
        "chips": 990,
        "hands": [["TS", "6H"]],
        "dealer_upcard": "TD",
        "min_bet": 0,
        "max_bet": 990,
        "refused": None,
        "a_field_from_a_newer_server": 1,
    }
    assert ready.play(seen)["kind"] in ("hit", "surrender")
    with pytest.raises(CroupierError, match="depends on the rules"):
        basic.play(seen)
