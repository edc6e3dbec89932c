"""Reports printed to a pipe, a file or a narrow window are whole: no number is cut to
``195…``; tables widen, and text wraps between words."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"
LONG = "a_rather_long_bot_name_as_contest_entries_have_it_genetic_bet.sh"


@pytest.fixture
def long_named_bot(tmp_path):
    bot = tmp_path / LONG
    shutil.copy(BOTS / "lim15.sh", bot)
    bot.chmod(0o755)
    return str(bot)


def standings_are_whole(cli, argv) -> str:
    status, out, err = cli(*argv)
    assert status == 0, err
    status, data, err = cli(*argv, "--json")
    assert status == 0, err
    assert "…" not in out
    rows = out.splitlines()
    for s in json.loads(data)["standings"]:
        (row,) = [r for r in rows if f" {s['name']} " in r]
        assert f" {s['mean']:.1f} " in row and f" {s['hands']} " in row
    return out


@pytest.mark.parametrize("columns", [None, "40"])
def test_tournament_standings_in_a_pipe_are_whole(cli, monkeypatch, long_named_bot, columns):
    if columns is None:  # a pipe, a log, CI: no terminal and no COLUMNS
        monkeypatch.delenv("COLUMNS", raising=False)
    else:  # a narrow window
        monkeypatch.setenv("COLUMNS", columns)
    argv = ("tournament", long_named_bot, "lim17", "never-bust", "mimic-dealer")
    out = standings_are_whole(cli, (*argv, "--tourneys", "2", "--rounds", "2", "--seed", "3"))
    assert LONG in out


@pytest.mark.parametrize("columns", ["20", "60"])
def test_every_table_the_cli_prints_is_whole_in_a_narrow_window(cli, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    for argv, needles in [
        (("stats", "tgm3", "-n", "20000", "--seed", "1"), ["14.", "repeats"]),
        (("plugins",), ["blackjack-solver", "14-bag-halfway,"]),
        (("solve", "blackjack", "--rules", "koth", "--hand", "T,6", "--upcard", "9"), ["-0.5"]),
        (("solve", "blackjack", "--rules", "koth", "--dealer", "--decks", "inf"), ["bust"]),
        (("solve", "blackjack", "--rules", "koth", "--chart", "--decks", "inf"), ["Pairs"]),
        (("sim", "--rules", "koth", "--hands", "2000", "--seed", "1"), ["result"]),
    ]:
        status, out, err = cli(*argv)
        assert status == 0, (argv, err)
        assert "…" not in out, (argv, out)
        assert all(n in out for n in needles), (argv, out)
