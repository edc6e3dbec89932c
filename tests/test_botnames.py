"""Display names: every tournament entry told apart in the standings."""

from __future__ import annotations

from pathlib import PurePosixPath

from croupier.engine import PluginManager
from croupier.engine.botnames import distinct_names, path_labels
from croupier.engine.tournament import Tournament, TournamentConfig


def test_repeats_are_numbered_without_taking_a_given_name():
    assert distinct_names(["x", "y", "x", "x"]) == ["x", "y", "x#2", "x#3"]
    assert distinct_names(["x", "x", "x#2"]) == ["x", "x#3", "x#2"]
    names = ["a", "b", "a#2"]
    assert distinct_names(names) == names == distinct_names(distinct_names(names))


def test_paths_sharing_a_file_name_get_the_shortest_distinguishing_tail():
    paths = [PurePosixPath(p) for p in ("/x/a/bot.py", "/x/b/bot.py", "/x/c.sh", "/y/a/bot.py")]
    assert path_labels(paths) == ["x/a/bot.py", "b/bot.py", "c.sh", "y/a/bot.py"]
    same = [PurePosixPath("/x/bot.py")] * 2
    assert path_labels(same) == ["bot.py", "bot.py"]  # then distinct_names numbers them


def test_the_engine_tells_apart_entries_of_one_name():
    manager = PluginManager()
    rules = manager.rule_sets.get("koth").rules.to_dict()
    config = TournamentConfig.of(manager.games.get("blackjack"), rules, 1)
    tournament = Tournament(config, ["lim17", "lim17"])
    assert tournament.names == ["lim17", "lim17#2"]
