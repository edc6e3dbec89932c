"""Minesweeper's game engine, auto-play, the solver plugin and ``croupier solve minesweeper``."""

from __future__ import annotations

import json

import attrs
import msgpack
import pytest

from croupier.engine import CroupierError, Stream
from croupier.plugins.minesweeper.autoplay import play_game
from croupier.plugins.minesweeper.board import COVERED, neighbours
from croupier.plugins.minesweeper.game import Game, GameSpec

# (won, guesses, solves, revealed) of games 0-5 of seed 2024, 16x16 with 40 mines, opening
GOLDEN_INTERMEDIATE = [
    (True, 0, 9, 216),
    (True, 0, 6, 216),
    (True, 0, 7, 216),
    (True, 1, 14, 216),
    (True, 1, 8, 216),
    (True, 0, 8, 216),
]


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_generation_follows_the_first_click_rule(rule):
    spec = GameSpec(30, 16, 99, rule)
    for i in range(20):
        game = Game(spec, Stream(5).child(f"game-{i}"))
        assert sum(game.mine) == 99
        assert not any(game.mine[j] for j in spec.protected())
    if rule == "opening":
        assert spec.start() == 3 * 30 + 3 and len(spec.protected()) == 9
    else:
        assert spec.protected() == (0,)


def test_generation_is_reproducible_and_games_differ():
    spec = GameSpec(16, 16, 40)
    first = Game(spec, Stream(9).child("game-0")).mine
    assert Game(spec, Stream(9).child("game-0")).mine == first
    assert Game(spec, Stream(9).child("game-1")).mine != first


def test_reveal_flood_fills_and_a_mine_loses():
    spec = GameSpec(9, 9, 10)
    game = Game(spec, Stream(1).child("game-0"))
    opened = game.reveal(spec.start())
    assert game.counts[spec.start()] == 0 and len(opened) > 1
    nbrs = neighbours(9, 9)
    for i in opened:  # every revealed 0 has all its neighbours revealed
        if game.counts[i] == 0:
            assert all(game.view[j] != COVERED for j in nbrs[i])
    assert game.reveal(spec.start()) == []
    mine = game.mine.index(True)
    game.reveal(mine)
    assert game.lost and game.over and not game.won


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((9, 9, 73, "opening"), "holds 0 to 72 mines"),
        ((9, 9, 81, "safe"), "holds 0 to 80 mines"),
        ((9, 9, 10, "corner"), "unknown first-click rule"),
        ((0, 9, 10, "safe"), "at least one row"),
        ((500, 500, 10, "safe"), "too large"),
    ],
)
def test_bad_game_specs(args, message):
    with pytest.raises(CroupierError, match=message):
        GameSpec(*args)


def test_auto_play_is_reproducible_golden():
    spec = GameSpec(16, 16, 40, "opening")
    results = [attrs.astuple(play_game(spec, Stream(2024).child(f"game-{i}"))) for i in range(6)]
    assert results == GOLDEN_INTERMEDIATE
    for won, _, _, revealed in results:
        assert won == (revealed == 16 * 16 - 40)


def test_auto_play_survives_a_search_budget_that_runs_out(monkeypatch):
    from croupier.plugins.minesweeper import enumeration

    monkeypatch.setattr(enumeration, "NODE_BUDGET", 1)
    result = play_game(GameSpec(9, 9, 10, "opening"), Stream(4).child("game-0"))
    assert result.guesses > 0


def test_auto_play_wins_a_full_board_without_guessing():
    # no mines at all: the first click opens everything
    assert play_game(GameSpec(9, 9, 0, "safe"), Stream(0)).won


# -- the plugin and the CLI ----------------------------------------------------------------
def test_solver_is_registered_and_returns_plain_data(manager):
    solver = manager.solvers.get("minesweeper")
    solution = solver.solve({"board": "1?\n??", "mines": 1})
    assert solution["exact"] == [[None, "1/3"], ["1/3", "1/3"]]
    assert solution["best_guess"] == {
        "row": 0,
        "col": 1,
        "probability": pytest.approx(1 / 3),
        "exact": "1/3",
    }
    wire = msgpack.unpackb(msgpack.packb(solution))
    assert wire == json.loads(json.dumps(solution))
    play = solver.solve({"play": {"width": 9, "height": 9, "mines": 10, "seed": 3, "game": 1}})
    assert set(play) == {"won", "guesses", "solves", "revealed"}


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        ({}, "needs 'board'"),
        ({"board": "?", "mines": "3"}, "'mines' must be an integer"),
        ({"board": "?", "extra": 1}, "unknown keys"),
        ({"play": {"width": 9}}, "needs 'height'"),
        ({"play": [1]}, "must be a mapping"),
    ],
)
def test_bad_problems(manager, problem, message):
    with pytest.raises(CroupierError, match=message):
        manager.solvers.get("minesweeper").solve(problem)


def test_cli_text_view(cli, tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("???\n121\n...\n")
    status, out, err = cli("solve", "minesweeper", str(path))
    assert status == 0, err
    assert "Definite mines: (0, 0) (0, 2)" in out
    assert "Definite safe cells: (0, 1)" in out
    assert "XnX\n121\n..." in out
    assert "{(0, 0) (0, 2)}" in out


def test_cli_json_from_stdin(cli, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1?\n??\n"))
    status, out, _ = cli("solve", "minesweeper", "-", "--mines", "1", "--json")
    assert status == 0
    assert json.loads(out)["placements"] == "3"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["/nonexistent/board"], "cannot read"),
        ([], "give a board file"),
        (["--play", "--size", "9by9"], "WIDTHxHEIGHT"),
        (["--play", "--size", "9x9", "--mines", "90", "--seed", "1"], "holds 0 to 72 mines"),
        # without --seed: refused before a seed is drawn, so the error is the only line
        (["--play", "--size", "9x9"], "an opening first click holds 0 to 72 mines, not 99"),
        (["--play", "--size", "0x0", "--mines", "0"], "at least one row"),
    ],
)
def test_cli_errors_are_one_line(cli, argv, message):
    status, _, err = cli("solve", "minesweeper", *argv)
    assert status == 1
    assert message in err and err.count("\n") == 1


def test_cli_reads_a_bounded_board(cli, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("?" * 1_000_001))
    status, _, err = cli("solve", "minesweeper", "-")
    assert status == 1 and "stdin holds more than 1,000,000 characters" in err


def test_cli_play_reports_and_reproduces(cli):
    argv = ["solve", "minesweeper", "--play", "--size", "9x9", "--mines", "10"]
    status, out, err = cli(*argv, "--games", "4", "--seed", "11", "--workers", "1", "--json")
    assert status == 0, err
    summary = json.loads(out)
    assert summary["games"] == 4 and summary["seed"] == 11
    lo, hi = summary["win_rate_ci95"]
    assert lo <= summary["win_rate"] <= hi
    # the same games split over two worker processes give the same results
    status, out2, _ = cli(*argv, "--games", "4", "--seed", "11", "--workers", "2", "--json")
    assert json.loads(out2)["wins"] == summary["wins"]
    assert json.loads(out2)["guesses_per_game"] == summary["guesses_per_game"]
    status, out, err = cli(*argv, "--games", "1")
    assert status == 0 and "croupier: seed " in err and "won " in out
    # many batches in flight on two workers: the same games, the same totals, in order
    many = [*argv, "--games", "100", "--seed", "5", "--json"]
    one = json.loads(cli(*many, "--workers", "1")[1])
    two = json.loads(cli(*many, "--workers", "2")[1])
    assert (one["wins"], one["guesses_per_game"]) == (two["wins"], two["guesses_per_game"])


def test_wilson_interval_matches_a_hand_computed_value():
    from croupier.engine.confidence import wilson_interval

    # 56 wins in 100 trials: centre (0.56 + z^2/200) / (1 + z^2/100), half-width by hand
    low, high = wilson_interval(56, 100)
    assert round(low, 4) == 0.4623 and round(high, 4) == 0.6533
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert 0.0 < wilson_interval(1, 10)[0] < 0.1 < wilson_interval(1, 10)[1] < 1.0
