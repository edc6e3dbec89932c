"""Golden playthroughs (tests/golden/<game>.jsonl): each built-in game's seeded rounds at a
three-seat table, answered by its defaults and strategies, event for event as recorded.
A change of any game's play, of its events' words or of the engine's driving shows here
first; when the change is meant, delete the file and run
``croupier plugins --check NAME --golden tests/golden`` to write it again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from croupier.engine import PluginManager
from croupier.engine.plugincheck import check_plugins

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    game.name: plugin
    for plugin, game in PluginManager(autoload=False).contributions("croupier_games")
}
"""Each built-in game by the plugin that brings it, found as the server finds them: a new
built-in game fails here until its playthrough is written (making the manager takes a third
of a second)."""


@pytest.fixture(scope="module")
def manager():
    return PluginManager()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_plays_its_golden_playthrough(manager, game):
    assert (GOLDEN / f"{game}.jsonl").is_file()  # a missing file would only be written
    assert check_plugins(manager, GAMES[game], GOLDEN) == []


def test_a_changed_playthrough_is_one_line_naming_where(manager, tmp_path):
    shutil.copy(GOLDEN / "baccarat.jsonl", tmp_path)
    lines = (tmp_path / "baccarat.jsonl").read_text().splitlines(True)
    changed = [*lines[:5], lines[5].replace('"round": 1', '"round": 9'), *lines[6:]]
    (tmp_path / "baccarat.jsonl").write_text("".join(changed))
    (problem,) = check_plugins(manager, "baccarat", tmp_path)
    assert problem.startswith("baccarat: game 'baccarat': its playthrough differs from ")
    assert "baccarat.jsonl at line 6: " in problem
    (tmp_path / "baccarat.jsonl").write_text("".join(lines[:-1]))
    (problem,) = check_plugins(manager, "baccarat", tmp_path)
    said = f"has {len(lines)} lines, {tmp_path / 'baccarat.jsonl'} {len(lines) - 1}"
    assert problem.endswith(said)


def test_a_missing_playthrough_is_written(manager, tmp_path):
    assert check_plugins(manager, "three-card-poker", tmp_path / "new") == []
    written = tmp_path / "new" / "three-card-poker.jsonl"
    assert written.read_text() == (GOLDEN / "three-card-poker.jsonl").read_text()
