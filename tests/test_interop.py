"""A msgpack-rpc client that is not ours: pynvim's (Neovim's Python client) generic session.

pynvim's ``tcp_session`` is a plain msgpack-rpc client; it knows nothing of croupier. It
runs its own asyncio loop, so it runs in a worker thread while the server runs in trio.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import trio
from pynvim.msgpack_rpc import tcp_session

from croupier.engine import PluginManager, Stream
from croupier.protocol import Server, connect
from tests.protocol_helpers import make_manager, make_server

PYNVIM_BOT = Path(__file__).resolve().parent.parent / "examples" / "pynvim-bot" / "bot.py"


async def test_pynvim_calls_croupier(nursery):
    server, _ = make_server()
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)

    def talk():
        session = tcp_session("127.0.0.1", port)
        try:
            hello = session.request("hello", 1, "pynvim", "bot")
            opened = session.request("randomizer.open", "tetromino", 99)
            drawn = session.request("randomizer.draw", opened["stream"], 12)
            solved = session.request("solve", "add", {"a": 1, "b": 2})
            # Neovim's errors are [type, message] arrays, croupier's are maps (as the
            # issue asks): pynvim still sees a failed call, though it cannot read it
            with pytest.raises(Exception):  # noqa: B017
                session.request("no.such.method")
            return hello, drawn, solved
        finally:
            session.close()

    hello, drawn, solved = await trio.to_thread.run_sync(talk)
    assert hello["protocol"] == 1
    assert drawn == make_manager().randomizer("tetromino", Stream(99)).deal(12)
    assert solved == {"sum": 3}


async def test_the_pynvim_example_bot_plays_a_table_unchanged(nursery):
    """examples/pynvim-bot: pynvim's session answers the server's decide requests and hears
    its notifications; it ends with the chips the built-in lim17 ends with."""
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=5)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    with trio.fail_after(60):
        done = await trio.run_process(
            [
                sys.executable,
                str(PYNVIM_BOT),
                "--port",
                str(port),
                "--rounds",
                "12",
                "--seed",
                "77",
            ],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()
    result = json.loads(done.stdout.decode().strip().splitlines()[-1])
    assert result["played"] == 12 and result["chips"] + result["house"] == 1000
    async with connect("127.0.0.1", port, name="check") as client:
        info = await client.call_named(
            "table.create", {"seed": 77, "rounds": 12, "fill": ["lim17"]}
        )
        while info["state"] != "finished":
            await trio.sleep(0.01)
            info = await client.call("table.info", info["table"])
    assert info["chips"] == [result["chips"]]
    server.stop()
