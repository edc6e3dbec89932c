"""One seat loop for every game: the SDK asks any bot for plain maps, and blackjack's typed
``Bot`` is a layer over :class:`GameBot` (maps read into ``Observation``/``Event``, the
``Action`` sent back as a map). On the memory net and virtual time."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from croupier.clients.bot import Bot, GameBot, play, sdk
from croupier.engine import PluginManager
from croupier.plugins.blackjack.play import Event, Observation
from croupier.protocol import Server
from tests import memnet

BOT = Path(__file__).resolve().parent.parent / "clients" / "bot"
GENERIC = ("gamebot.py", "reconnect.py", "sdk.py", "tournament.py")
"""The SDK's modules that serve every game: none of them may import a plugin."""


@pytest.fixture
async def served(nursery, monkeypatch):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=41)
    await memnet.serve(nursery, server)
    monkeypatch.setattr(sdk, "connect", server.net.connector())  # the SDK connects itself
    yield server
    server.stop()


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, inside functions too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_generic_sdk_imports_no_plugin():
    for name in GENERIC:
        plugins = {m for m in _imports(BOT / name) if m.startswith("croupier.plugins")}
        assert not plugins, f"clients/bot/{name} imports {plugins}"
    assert "croupier.plugins.blackjack.play" in _imports(BOT / "blackjack.py")  # the layer


def test_blackjack_bots_are_game_bots_of_blackjack():
    class Stands(Bot):
        def decide(self, observation: Observation) -> str:
            return "stand"

    assert isinstance(Stands(), GameBot) and Stands().game == "blackjack"
    assert isinstance(sdk.as_bot(lambda o: "stand"), Bot)
    assert sdk.Bot is Bot  # where it was before it was a layer


class MapLim17(GameBot):
    """lim17 over blackjack's plain maps, every phase answered by hand."""

    game = "blackjack"

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def decide(self, observation: Any) -> Any:
        phase = observation["phase"]
        if phase == "bet":
            return {"kind": "bet", "amount": observation["min_bet"]}
        if phase in ("insurance", "surrender"):
            return {"kind": "decline"}
        return {"kind": "hit" if observation["total"] < 17 else "stand"}

    def on_event(self, event: Any) -> None:
        self.seen.append(event["kind"])


class TypedLim17(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def decide(self, observation: Observation) -> str:
        return "hit" if observation.total < 17 else "stand"

    def on_event(self, event: Event) -> None:
        self.seen.append(event.kind)


async def test_a_game_bot_plays_blackjack_over_maps_as_the_typed_bot_does(served, virtual_clock):
    """The same table (seed, rounds) played by lim17 twice: over the maps, asked every
    phase, and through the typed layer, which leaves bets to the server; same chips, same
    events."""
    create = {"rounds": 5, "seed": 8}
    maps, typed = MapLim17(), TypedLim17()
    by_maps = await play(maps, create=create)
    by_type = await play(typed, create=create)
    assert by_maps["chips"] == by_type["chips"] and by_maps["played"] == 5
    assert maps.seen == typed.seen and maps.seen.count("round") == 5
    assert maps.join_options() == (True, [])  # asked every phase, sent every event
    assert typed.join_options() == (True, ["bet", "insurance", "surrender"])


async def test_a_typed_answer_goes_out_as_the_map_a_game_bot_would_send():
    asked = Observation("bet", 1, 1, ("bet",), 1000, min_bet=10, max_bet=500).to_dict()

    class Bets(Bot):
        def decide(self, observation: Observation) -> str:
            return "stand"

        def bet(self, observation: Observation) -> int:
            return 25

    assert await Bets().answer_game(asked) == {"kind": "bet", "amount": 25}
