"""A game's own trusted strategies are checked by the game's core alone (their answers are
built from the legal actions, so the schema is not checked twice); every other answer, an
in-process player's or a bot's, still meets the schema first."""

from __future__ import annotations

import attrs
import pytest

import croupier.engine.games as games
from croupier.engine.games import GameStrategy
from croupier.engine.gametable import GameStrategyPlayer, GameTable


async def play(game, players, rounds=10):
    events = []
    table = GameTable(game, game.rules(), 7, players, listeners=[events.append])
    await table.play(rounds)
    return events, dict(table.ledger.balances)


@pytest.fixture
def schema_checks(monkeypatch):
    """How many answers the schema checked."""
    checked = []
    problem = games.action_problem

    def counted(*args):
        checked.append(args[-1])
        return problem(*args)

    monkeypatch.setattr(games, "action_problem", counted)
    return checked


def lim17(game):
    (found,) = (s.at(game.rules()) for s in game.strategies if s.name == "lim17")
    return found


async def test_a_trusted_strategy_meets_only_the_cores_check_and_plays_the_same(
    manager, schema_checks
):
    game = manager.games.get("blackjack")
    trusted = lim17(game)
    assert trusted.trusted
    events, balances = await play(game, [GameStrategyPlayer(trusted) for _ in range(3)])
    assert schema_checks == []
    assert sum(e["kind"] == "action" for e in events) > 30
    untrusted = attrs.evolve(trusted, trusted=False)
    checked = await play(game, [GameStrategyPlayer(untrusted) for _ in range(3)])
    assert len(schema_checks) > 30
    assert (events, balances) == checked


def bad_bet(observation):
    return {"kind": "bet", "amount": "ten"}


class ClaimsTrust:
    """An in-process player that says it is trusted: the table does not take its word."""

    trusted = True

    def decide_now(self, observation):
        return bad_bet(observation)

    async def decide(self, observation):
        return bad_bet(observation)


class Wrapped(GameStrategyPlayer):
    """A caller's own player around a trusted strategy: not the engine's wrapper."""

    def decide_now(self, observation):
        return bad_bet(observation)


@pytest.mark.parametrize(
    "seat",
    [
        lambda game: GameStrategyPlayer(GameStrategy("bad", "bets text", bad_bet)),
        lambda game: ClaimsTrust(),
        lambda game: Wrapped(lim17(game)),
    ],
    ids=["untrusted strategy", "a claim of trust", "a subclass"],
)
async def test_a_bad_answer_the_table_cannot_trust_is_refused_by_the_schema(
    manager, schema_checks, seat
):
    game = manager.games.get("blackjack")
    events, _ = await play(game, [seat(game)], rounds=1)
    refused = [e for e in events if e["kind"] == "refused"]
    assert len(refused) >= 3 and len(schema_checks) == len(refused)  # each one checked
    assert refused[0]["reason"] == "the amount is a whole number, not 'ten'"
    default = next(e for e in events if e["kind"] == "default")
    assert default["reason"] == "3 answers refused"


async def test_a_trusted_strategys_illegal_answer_is_still_refused(manager, schema_checks):
    game = manager.games.get("blackjack")
    splits = attrs.evolve(lim17(game), play=lambda o: {"kind": "split", "amount": 0})
    events, _ = await play(game, [GameStrategyPlayer(splits)], rounds=1)
    refused = [e for e in events if e["kind"] == "refused"]
    assert refused and schema_checks == []
    assert refused[0]["reason"].startswith("split is not allowed now (legal: ")
