"""A game table's log: every applied action is an event, a replay from the seed rebuilds
the ledger, the seats' tally is the same from the log, and an edited log is caught."""

from __future__ import annotations

import io
import json

import pytest
import trio
import trio.testing

from croupier.engine import CroupierError
from croupier.engine.gamelog import GameEventLog, GameTally, read_game_log, replay_game
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account
from tests.test_gametable import Broken, Scripted, Sleeper


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


async def _logged(game, players, rounds, seed=4):
    out = io.StringIO()
    table = GameTable(game, game.rules(), seed, players, decision_time=5.0)
    GameEventLog(table, out)
    await table.play(rounds)
    return table, out.getvalue().splitlines()


async def test_a_logged_table_replays_to_the_same_ledger_and_tally(manager, autojump_clock):
    baccarat = manager.games.get("baccarat")
    bad = {"kind": "bet", "dragon": 20}
    players = [
        Scripted([bad, {"kind": "bet", "tie": 20}] + [{"kind": "pass"}] * 3),
        Sleeper(),
        Broken(),
        GameStrategyPlayer(baccarat.strategy("player")),
    ]
    table, lines = await _logged(baccarat, players, rounds=12)
    header, events = read_game_log(lines)
    assert header["game"] == "baccarat" and header["chips"] == [2000] * 4
    actions = [e for e in events if e["kind"] == "action"]
    assert len(actions) == 12 * 4 and actions[0]["action"] == {"kind": "bet", "tie": 20}
    assert actions[1]["action"] == {"kind": "bet", "banker": 20}  # the silent seat's default
    core = replay_game(manager, lines)
    assert core.ledger.balances == table.ledger.balances and core.ledger.conserved()
    tally = GameTally.of(4, baccarat)
    for event in events:
        tally.add(event)
    assert (tally.hands, tally.faults) == (table.tally.hands, table.tally.faults)
    passes = sum(e["kind"] == "pass" for e in events)
    assert passes == 3 and tally.hands == [12 - passes, 12, 12, 12]  # a pass plays no coup
    assert tally.faults == [0, 12, 12, 0]
    assert tally.decisions == 48


async def test_three_card_poker_replays_with_both_decisions(manager):
    game = manager.games.get("three-card-poker")
    players = [GameStrategyPlayer(s) for s in game.strategies]
    table, lines = await _logged(game, players, rounds=30)
    core = replay_game(manager, lines)
    assert core.ledger.balances == table.ledger.balances
    assert table.tally.decisions == 30 * 3 * 2  # a bet and a play or fold each


async def test_an_edited_or_cut_log_is_caught(manager):
    baccarat = manager.games.get("baccarat")
    _, lines = await _logged(baccarat, [GameStrategyPlayer(baccarat.strategy("tie"))], 5)
    first = next(i for i, line in enumerate(lines) if '"action"' in line)
    edited = list(lines)
    event = json.loads(edited[first])
    event["action"] = {"kind": "bet", "tie": 40}
    edited[first] = json.dumps(event)
    with pytest.raises(CroupierError, match="replay differs at event"):
        replay_game(manager, edited)
    with pytest.raises(CroupierError, match="the replay has"):
        replay_game(manager, lines[:-1])
    cheat = list(lines)
    event = json.loads(cheat[first])
    event["action"] = {"kind": "bet", "tie": 5}  # under the minimum: refused by the game
    cheat[first] = json.dumps(event)
    with pytest.raises(CroupierError, match="the log's answer for seat 1: "):
        replay_game(manager, cheat)
    with pytest.raises(CroupierError, match="not a croupier game table log"):
        replay_game(manager, lines[1:])
    with pytest.raises(CroupierError, match="line 2 of the log is not JSON"):
        replay_game(manager, [lines[0], "{"])


async def test_a_tally_counts_each_seats_rounds_in_memory_of_one_round(manager):
    """Hands are the (seat, round) pairs the events show a seat played, counted here from
    the events by brute force; the tally keeps only the current round's seats (a set of
    every pair grew with the table: a million rounds of seven seats, seven million)."""
    for name in manager.games.names():  # every built-in game, a new one too
        game = manager.games.get(name)
        options = {**game.rules(), "starting_chips": 10**9}
        players = [GameStrategyPlayer(s) for s in (game.strategies * 3)[:3]]
        events: list[dict] = []
        table = GameTable(game, options, 8, players, listeners=[events.append])
        await table.play(400)
        pairs = set()
        for event in events:
            seat = game.played_round(event) if game.played_round else None
            if game.played_round is None and event["kind"] == "action":
                seat = event["seat"]
            if seat is not None:
                pairs.add((seat, event["round"]))
        assert table.tally.hands == [sum(s == i for s, _ in pairs) for i in (1, 2, 3)], name
        assert len(table.tally._seats) <= 3 and not table.tally._roundless


async def test_an_empty_blackjack_seat_sits_out_and_the_log_replays(manager):
    """Blackjack's seat with nobody in it stakes nothing and is dealt nothing (it used to
    bet the minimum every round for a bot gone or a person who quit); a round nobody
    stakes deals no cards; the log replays to the same ledger and tally."""
    from tests.test_gametable import Gone

    game = manager.games.get("blackjack")
    strategy = GameStrategyPlayer(game.strategy("lim17"))
    table, lines = await _logged(game, [Gone(), strategy], rounds=6)
    _, events = read_game_log(lines)
    passes = [e["round"] for e in events if e["kind"] == "action" and e["seat"] == 1]
    assert passes == list(range(1, 7)) and {
        e["action"] for e in events if e["kind"] == "action" and e["seat"] == 1
    } == {"pass"}
    assert not [e for e in events if e["kind"] in ("deal", "settle") and e.get("seat") == 1]
    assert "seat 1 sits this round out" in {e["text"] for e in events}
    start = game.rules()["starting_chips"]
    assert table.ledger.balances[seat_account(1)] == start
    assert table.tally.hands == [0, 6] and table.ledger.conserved()
    core = replay_game(manager, lines)
    assert core.ledger.balances == table.ledger.balances
    alone, alone_lines = await _logged(game, [Gone()], rounds=2)  # nobody stakes at all
    _, alone_events = read_game_log(alone_lines)
    assert [e for e in alone_events if e["kind"] in ("deal", "settle", "chips")] == []
    assert sum(e["kind"] == "end" for e in alone_events) == 2 and alone.ledger.conserved()
    assert replay_game(manager, alone_lines).ledger.balances == alone.ledger.balances
