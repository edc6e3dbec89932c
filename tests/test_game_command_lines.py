"""Games own their command-line options (``croupier_command_lines``, issue 29 item 7): a
game's options are listed under its own group, reach its options when it is the game, and
are one usage line with another ``--game``; a third-party game adds its own the same way."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import pytest

from croupier.engine import CommandLine, PluginManager, hookimpl


def group_options(parser: argparse.ArgumentParser, title: str) -> set[str]:
    groups = [g for g in parser._action_groups if g.title == title]
    assert len(groups) == 1, [g.title for g in parser._action_groups]
    return {word for action in groups[0]._group_actions for word in action.option_strings}


def command_parser(command: str) -> argparse.ArgumentParser:
    from croupier.clients.cli.main import build_parser

    parser = build_parser(command)
    return parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]


def test_a_games_options_are_listed_under_its_own_group_and_no_other():
    sim = command_parser("sim")
    blackjack = group_options(sim, "blackjack options (--game blackjack)")
    assert {"--decks", "--h17", "--payout", "--count", "--ramp"} <= blackjack
    generic = {word for a in sim._actions for word in a.option_strings} - blackjack
    assert {"--game", "--rules", "--set", "--seed", "--json", "--workers"} <= generic
    assert not {"--decks", "--count", "--overbet"} & generic
    tournament = command_parser("tournament")
    assert group_options(tournament, "blackjack options (--game blackjack)") == {"--overbet"}
    titles = [g.title for g in sim._action_groups]
    assert not any(t and t.startswith("baccarat") for t in titles)  # no options of its own


@pytest.mark.parametrize(
    ("argv", "flags"),
    [
        (("sim", "--game", "baccarat", "--hands", "10", "--h17"), "--h17/--s17"),
        (("sim", "--game", "three-card-poker", "--count", "hilo"), "--count"),
        (("sim", "--game", "baccarat", "--no-das"), "--das/--no-das"),
        (("tournament", "player", "--game", "baccarat", "--overbet", "all-in"), "--overbet"),
    ],
)
def test_another_games_option_is_one_usage_line(cli, argv, flags):
    status, out, err = cli(*argv)
    command, game = argv[0], argv[argv.index("--game") + 1]
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"croupier {command}: error: {flags} is a blackjack option; {game}'s ")
    assert f"(see 'croupier {command} --help')" in err


def test_a_blackjack_flag_naming_the_games_option_sets_it(cli):
    status, out, err = cli("sim", "--game", "baccarat", "--decks", "6", "--hands", "10", "--json")
    assert status == 0, err
    assert json.loads(out)["options"]["decks"] == 6


class Tiny:
    """A third-party plugin whose option's name another game's took."""

    @hookimpl
    def croupier_command_lines(self) -> list[CommandLine]:
        def options(command: str, group: Any) -> None:
            group.add_argument("--decks", type=int)

        return [CommandLine("tiny", "a clashing option", options)]


def with_plugins(monkeypatch, *plugins: tuple[str, object]) -> None:
    """Every plugin manager the CLI makes registers ``plugins`` as third-party ones."""
    from croupier.clients.cli import common

    class Manager(PluginManager):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(plugins=plugins, **kwargs)

    monkeypatch.setattr(common, "PluginManager", Manager)


@pytest.fixture
def coin(monkeypatch):
    """The example plugin (examples/croupier-coin, installed as any third-party plugin is:
    the simulator's chunks find its game by name): coin-toss and its --edge-odds."""
    pytest.importorskip("croupier_coin")
    monkeypatch.delenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", raising=False)


def test_a_third_party_option_reaches_its_games_job(cli, coin):
    assert "--edge-odds N" in cli("sim", "--help")[1]
    argv = ("sim", "--game", "coin-toss", "--hands", "10", "--seed", "1", "--json")
    status, out, err = cli(*argv, "--edge-odds", "9")
    assert status == 0, err
    assert json.loads(out)["options"]["edge_odds"] == 9
    status, out, _ = cli(*argv, "--edge-odds", "9", "--set", "edge_odds=7")  # --set wins
    assert json.loads(out)["options"]["edge_odds"] == 7
    status, out, _ = cli(*argv)
    assert json.loads(out)["options"]["edge_odds"] == 51
    status, _, err = cli(*argv, "--edge-odds", "8")  # the game checks it as any option
    assert status == 1 and "edge_odds" in err and err.count("\n") == 1, err
    status, _, err = cli("sim", "--hands", "10", "--edge-odds", "9")  # blackjack's sim
    assert status == 2 and "--edge-odds is a coin-toss option; blackjack's" in err


def test_a_third_party_option_reaches_a_tournaments_config(cli, coin):
    argv = ("tournament", "heads", "heads", "--game", "coin-toss", "--tourneys", "1")
    status, out, err = cli(*argv, "--rounds", "1", "--seed", "2", "--json", "--edge-odds", "5")
    assert status == 0, err
    assert json.loads(out)["settings"]["options"]["edge_odds"] == 5


def test_a_third_party_option_whose_name_is_taken_is_skipped_with_a_warning(cli, monkeypatch):
    with_plugins(monkeypatch, ("clash", Tiny()))
    status, _, err = cli("sim", "--game", "baccarat", "--hands", "10", "--seed", "1")
    assert status == 0, err
    assert "plugin 'clash': tiny's options of sim are skipped" in err


def test_solve_front_ends_come_from_their_games_plugins():
    from croupier.engine import PluginManager as Manager

    lines = {line.name: line for line in Manager(autoload=False).command_lines}
    assert {"baccarat", "three-card-poker", "minesweeper"} <= {
        name for name, line in lines.items() if line.solve is not None
    }
    for name in ("baccarat", "three-card-poker", "minesweeper"):
        module = sys.modules[lines[name].solve.__module__]  # type: ignore[union-attr]
        assert module.__name__.startswith("croupier.plugins."), module
