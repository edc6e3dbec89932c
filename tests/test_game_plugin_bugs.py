"""A game plugin's own bug is the plugin's, not the client's: ``internal-error`` naming the
plugin, the table ends with that reason, the server goes on; and what a table says about a
bot's answer uses the wire's words, never a Python class name."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from croupier.engine import hookimpl
from croupier.engine.games import Game, Plain
from croupier.plugins.baccarat import BACCARAT
from croupier.plugins.baccarat.core import BaccaratCore, check_options
from croupier.protocol import Code, RpcError, connect
from tests.servedtables import Recorder, start_table_server


def _options(options: Plain) -> dict[str, Any]:
    if options["min_bet"] == 13:
        raise KeyError("unlucky")
    return check_options(options)


class _Core(BaccaratCore):
    def check(self, turn: Any, action: Plain) -> str | None:
        if action.get("banker") == 13:  # passes the schema (0 to max_bet), reaches the check
            raise ZeroDivisionError("the check divided by zero")
        return super().check(turn, action)


def _core(options: Plain, seed: int, chips: Any, emit: Any) -> BaccaratCore:
    if options["min_bet"] == 17:
        raise IndexError("no core today")
    return _Core(options, seed, chips, emit)


BUGGY: Game = attrs.evolve(BACCARAT, name="buggy", check_options=_options, new_core=_core)


class BuggyPlugin:
    @hookimpl
    def croupier_games(self) -> tuple[Game, ...]:
        return (BUGGY,)


@pytest.fixture
async def served(nursery):
    server = await start_table_server(nursery, vacant_timeout=30, unclaimed_timeout=30)
    server.manager.register(BuggyPlugin(), "buggy-games")
    yield server
    server.stop()


async def test_a_game_plugins_bug_is_an_internal_error_naming_it(served):
    async with connect("127.0.0.1", served.port, name="c") as client:
        for min_bet, error in ((13, "KeyError: 'unlucky'"), (17, "IndexError: no core today")):
            with pytest.raises(RpcError) as caught:
                await client.call_named(
                    "table.create",
                    {
                        "game": "buggy",
                        "options": {"min_bet": min_bet},
                        "fill": ["banker"],
                        "rounds": 3,
                    },
                )
            assert caught.value.code == Code.INTERNAL_ERROR
            said = caught.value.message
            assert said.startswith("internal error in plugin 'buggy-games' (game 'buggy'): ")
            assert said.endswith(error)
        with pytest.raises(RpcError) as caught:  # the client's own mistake stays bad-input
            await client.call_named("table.create", {"game": "buggy", "options": {"decks": 0}})
        assert caught.value.code == Code.BAD_INPUT
        assert await client.call("ping") == "pong"


async def test_a_bug_mid_game_ends_the_table_with_the_plugins_name(served):
    answers: list[Any] = [[1, 2], {"kind": "bet", "banker": 13}]

    async def decide(table: int, observation: Any) -> Any:
        return answers.pop(0)

    watcher = Recorder()
    async with (
        connect("127.0.0.1", served.port, name="w", on_notification=watcher) as w,
        connect("127.0.0.1", served.port, name="b", role="bot", handlers={"decide": decide}) as bot,
    ):
        info = await w.call_named("table.create", {"game": "buggy", "rounds": 5, "seed": 1})
        await w.call("table.watch", info["table"])
        await bot.call("table.join", info["table"])
        await watcher.finished.wait()
        assert await w.call("ping") == "pong"  # the server goes on
    (refused,) = watcher.kinds("refused")
    assert refused["reason"] == "an answer is an action map (with a kind), not an array"
    final = watcher.statuses[-1]
    assert final["reason"] == (
        "internal error in plugin 'buggy-games' (game 'buggy'): "
        "ZeroDivisionError: the check divided by zero"
    )
    assert final["played"] == 0 and sum(final["chips"]) + final["house"] == 2000
