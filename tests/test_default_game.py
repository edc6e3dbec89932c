"""The game a table or tournament plays when its client names none: the server's default
(``croupier serve --game``, blackjack unless told otherwise, so bots written before games
keep working); a server without one asks the client to name a game."""

from __future__ import annotations

import subprocess
import sys

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server
from tests import memnet


async def _create(server: Server, nursery, **params) -> dict | RpcError:
    """``table.create``'s answer, or the error it raised."""
    await memnet.serve(nursery, server)
    try:
        async with server.net.connect(name="t", role="bot") as client:
            try:
                return await client.call_named(
                    "table.create", {"seats": 1, "fill": [None], **params}
                )
            except RpcError as error:
                return error
    finally:
        server.stop()


async def test_a_table_plays_the_servers_default_game_when_none_is_named(nursery):
    server = Server(PluginManager(autoload=False), default_game="baccarat", seed=1)
    info = await _create(server, nursery)
    assert info["game"] == "baccarat"


async def test_a_server_without_a_default_game_asks_for_one(nursery):
    server = Server(PluginManager(autoload=False), seed=1)
    error = await _create(server, nursery)
    assert isinstance(error, RpcError) and error.code == Code.BAD_INPUT
    assert "name a game" in str(error) and "blackjack" in str(error)


async def test_a_named_game_needs_no_default(nursery):
    server = Server(PluginManager(autoload=False), seed=1)
    info = await _create(server, nursery, game="three-card-poker")
    assert info["game"] == "three-card-poker"


def test_croupier_serve_refuses_an_unknown_default_game():
    done = subprocess.run(
        [sys.executable, "-m", "croupier.clients.cli", "serve", "--game", "poker", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert "poker" in line and "blackjack" in line
