"""A table of any game with players: time limits, refusals, defaults, replay from the seed."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account


@pytest.fixture
def autojump_clock():
    return trio.testing.MockClock(autojump_threshold=0)


@pytest.fixture
def baccarat(manager):
    return manager.games.get("baccarat")


class Scripted:
    """Answers from a list, then banker's minimum."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.seen = []

    async def decide(self, observation):
        self.seen.append(observation)
        return self.answers.pop(0) if self.answers else {"kind": "bet", "banker": 20}


class Sleeper:
    async def decide(self, observation):
        await trio.sleep_forever()


class Broken:
    async def decide(self, observation):
        raise ValueError("no idea")


async def play(baccarat, players, rounds=20, seed=3, **kw):
    events = []
    table = GameTable(baccarat, baccarat.rules(), seed, players, listeners=[events.append], **kw)
    played = await table.play(rounds)
    return table, events, played


async def test_strategies_play_and_chips_are_conserved(baccarat):
    players = [GameStrategyPlayer(s) for s in baccarat.strategies]
    table, events, played = await play(baccarat, players)
    assert played == 20 and table.ledger.conserved()
    assert sum(e["kind"] == "coup" for e in events) == 20
    again = await play(baccarat, [GameStrategyPlayer(s) for s in baccarat.strategies])
    assert again[1] == events  # the same seed and answers: the same table


async def test_refused_answers_are_said_and_asked_again_then_defaulted(baccarat):
    bad = {"kind": "bet", "dragon": 20}
    player = Scripted([bad, {"kind": "hit"}, bad, {"kind": "bet", "player": 20}])
    _, events, _ = await play(baccarat, [player], rounds=2)
    refused = [e for e in events if e["kind"] == "refused"]
    assert len(refused) == 3 and "not dragon" in refused[0]["reason"]
    assert player.seen[1]["refused"] == refused[0]["reason"]
    assert player.seen[0]["legal"] == ["bet", "pass"] and player.seen[0]["refused"] is None
    default = next(e for e in events if e["kind"] == "default")
    assert default == {
        "kind": "default",
        "round": 1,
        "seat": 1,
        "reason": "3 answers refused",
        "text": "Seat 1 gets the default: 3 answers refused.",
    }
    bets = [e["bets"] for e in events if e["kind"] == "bet"]
    assert bets == [{"banker": 20}, {"player": 20}]  # the default, then its next answer


async def test_a_silent_player_gets_the_default_in_its_time(baccarat, autojump_clock):
    start = trio.current_time()
    _, events, played = await play(baccarat, [Sleeper(), Broken()], rounds=3, decision_time=5.0)
    assert played == 3
    defaults = [e for e in events if e["kind"] == "default"]
    assert [d["seat"] for d in defaults] == [1, 2, 1, 2, 1, 2]
    assert defaults[0]["reason"] == "timeout after 5s"
    assert defaults[1]["reason"] == "error: the player failed: no idea"  # no class name
    assert trio.current_time() - start == pytest.approx(15.0)  # three waits of 5 s, no more


async def test_a_table_needs_seats_within_the_games_limits(baccarat):
    from croupier.engine import CroupierError

    with pytest.raises(CroupierError, match="1 to 7 seats"):
        GameTable(baccarat, baccarat.rules(), 1, [])


class Gone:
    """A player with nobody behind it (a seat given up, a bot away)."""

    async def decide(self, observation):
        from croupier.engine.errors import PlayerAbsent

        raise PlayerAbsent("no bot in the seat")


@pytest.mark.parametrize("name", ["baccarat", "three-card-poker"])
async def test_a_seat_nobody_holds_sits_the_round_out_and_stakes_nothing(manager, name):
    """A betting game's seat with nobody in it passes (its ``absent`` action), where a
    silent or broken player gets the default stake: nobody bets for a player who left."""
    game = manager.games.get(name)
    options = game.rules()
    events: list[dict] = []
    table = GameTable(game, options, 5, [Gone(), Broken()], listeners=[events.append])
    assert await table.play(3) == 3
    defaults = [e for e in events if e["kind"] == "default"]
    assert [(d["seat"], d["reason"]) for d in defaults[:2]] == [
        (1, "no bot in the seat"),
        (2, "error: the player failed: no idea"),
    ]
    assert [e["seat"] for e in events if e["kind"] == "pass"] == [1, 1, 1]
    start = options["starting_chips"]
    assert table.ledger.balances[seat_account(1)] == start  # never staked, never lost
    assert table.ledger.balances[seat_account(2)] != start  # the default stake played
    assert table.ledger.conserved()
