"""Tournaments of another game on the server: strategies and ``tcp`` GameBots, with the
standings of the same strategies played locally; a game's bad settings are one line."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.tournament import join_tournament
from croupier.engine import PluginManager
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import GameStrategyEntry, TournamentResult, play_tournament
from croupier.protocol import Code, RpcError, Server, connect

SETTINGS = {"tourneys": 3, "rounds": 4, "hands": 5, "seed": 78}


@pytest.fixture
async def served(nursery):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=42)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()


class Played(GameBot):
    """A TCP bot playing one of the game's strategies."""

    def __init__(self, game: str, strategy: Any) -> None:
        super().__init__()
        self.game, self.name, self.strategy = game, f"tcp-{strategy.name}", strategy

    def decide(self, observation: Any) -> Any:
        return self.strategy.play(observation)


def _lines(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (s["rank"], s["bot"], s["scores"], s["hands"], s["faults"], s["broke"])
        for s in result["standings"]
    ]


@pytest.mark.parametrize(
    ("game", "order", "options"),
    [
        ("baccarat", ["banker", "tie", "player"], {"commission": "none"}),
        ("three-card-poker", ["optimal", "pair-plus", "always-play"], {}),
    ],
)
async def test_tcp_game_bots_get_the_standings_of_the_same_strategies_played_locally(
    served, game, order, options
):
    played = served.manager.games.get(game)
    chosen = played.rules(None, options)
    config = TournamentConfig.of(played, chosen, **SETTINGS)
    entries = [GameStrategyEntry(n, game, played.strategy(n)) for n in order]
    local = await play_tournament(served.manager, config, entries)
    got: list[dict[str, Any]] = []
    async with connect("127.0.0.1", served.port, name="t") as c:
        bots = [order[0], "tcp", order[2]]
        info = await c.call_named(
            "tournament.start",
            {
                "bots": bots,
                "game": game,
                "options": options,
                **SETTINGS,
                "operator_key": served.operator_key,
            },
        )
        assert info["game"] == game and info["rules"] == chosen and info["rule_set"] is None
        bot = Played(game, played.strategy(order[1]))
        got.append(
            await join_tournament(
                bot, "127.0.0.1", served.port, tournament=info["tournament"], key=info["join_key"]
            )
        )
    final = got[0]
    assert final["state"] == "finished" and final["reason"] == "played"
    assert _lines(final["result"]) == _lines(local.to_dict())
    assert final["result"]["conserved"] and all(
        s["faults"] == 0 for s in final["result"]["standings"]
    )
    assert TournamentResult.from_dict(final["result"]).config == config


@pytest.mark.parametrize(
    ("params", "code", "fragment"),
    [
        ({"bots": ["lim17"]}, Code.UNKNOWN_NAME, "baccarat has no strategy 'lim17'"),
        ({"bots": ["tcp"], "options": {"decks": 0}}, Code.BAD_INPUT, "1 to 16 decks, not 0"),
        ({"bots": ["tcp"], "rules": "koth"}, Code.UNKNOWN_NAME, "no rule set 'koth'"),
        ({"bots": ["tcp"], "game": "craps"}, Code.UNKNOWN_NAME, "craps"),
    ],
)
async def test_bad_game_tournaments_get_one_line_errors(served, params, code, fragment):
    async with connect("127.0.0.1", served.port, name="t") as c:
        with pytest.raises(RpcError) as caught:
            await c.call_named("tournament.start", {"game": "baccarat", **params})
    assert caught.value.code == code and fragment in caught.value.message, caught.value


def test_croupier_tournament_of_a_game_on_a_server(cli, threaded_server):
    """The CLI plays it too; with only strategies there is no tcp seat to wait for."""
    import json

    where = f"127.0.0.1:{threaded_server}"
    argv = ("tournament", "--game", "baccarat", "banker", "player", "--tourneys", "2")
    argv += ("--rounds", "3", "--seed", "4", "--json")
    status, remote, err = cli(*argv, "--connect", where)
    assert status == 0, err
    status, local, err = cli(*argv)
    assert json.loads(remote)["standings"] == json.loads(local)["standings"]
    status, _, err = cli("tournament", "--game", "baccarat", "tcp", "banker")
    assert status == 1 and "('tcp' seats need --connect)" in err
