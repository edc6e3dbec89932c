"""The Node.js example bots play a table on a real server: the protocol is language-neutral.
``examples/node-bot`` runs its own msgpack-rpc loop over ``@msgpack/msgpack``;
``examples/node-msgpack5rpc-bot`` uses the ``msgpack5rpc`` library unchanged (server
requests and notifications on the bot's own connection). Runs when ``node`` and ``npm``
exist; ``.ci/run`` installs the bots' dependencies (``npm ci``), and so does this test when
they are missing."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Server, connect

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BOTS = {
    # example folder: the dependency npm installs (a folder of node_modules)
    "node-bot": "@msgpack/msgpack",  # a hand-written msgpack-rpc loop
    "node-msgpack5rpc-bot": "msgpack5rpc",  # a msgpack-rpc library, used unchanged
}

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None, reason="needs node and npm"
)


@pytest.fixture(scope="module", params=sorted(BOTS))
def node_bot(request) -> Path:
    folder = EXAMPLES / request.param
    if not (folder / "node_modules" / BOTS[request.param]).is_dir():
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            pytest.skip(f"npm ci failed (no registry?): {done.stderr.strip()[-200:]}")
    return folder / "bot.js"


async def test_the_node_bot_plays_hit_below_17(nursery, node_bot):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=5)
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    with trio.fail_after(60):
        done = await trio.run_process(
            ["node", str(node_bot), "--port", str(port), "--rounds", "12", "--seed", "77"],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()
    result = json.loads(done.stdout.decode().strip().splitlines()[-1])
    assert result["played"] == 12 and result["reason"] == "12 rounds played"
    assert result["chips"] + result["house"] == 1000
    # the same table played by the built-in lim17 strategy ends with the same chips
    async with connect("127.0.0.1", port, name="check") as client:
        info = await client.call_named(
            "table.create", {"seed": 77, "rounds": 12, "fill": ["lim17"]}
        )
        while info["state"] != "finished":
            await trio.sleep(0.01)
            info = await client.call("table.info", info["table"])
    assert info["chips"] == [result["chips"]]
    server.stop()
