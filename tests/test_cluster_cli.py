"""``--cluster ADDRESS`` on the three commands that fan out: the same results as on this
machine for the same seed, and one-line errors where a cluster cannot be used."""

from __future__ import annotations

import json

import pytest


def _run(cli, *argv):
    status, out, err = cli(*argv, "--json")
    assert status == 0, err
    return json.loads(out)


def test_sim_gives_the_same_answer_on_one_process_two_and_a_cluster(cli, dask_cluster):
    argv = ("sim", "--rules", "vegas-s17", "--strategy", "basic", "--hands", "2500000")
    argv += ("--seed", "77")
    runs = {
        "1": _run(cli, *argv, "--workers", "1"),
        "2": _run(cli, *argv, "--workers", "2"),
        "cluster": _run(cli, *argv, "--cluster", dask_cluster.scheduler_address),
    }
    assert runs["1"]["ran_on"] == "this process"
    assert runs["2"]["ran_on"] == "2 worker processes"
    assert runs["cluster"]["ran_on"] == f"the Dask cluster at {dask_cluster.scheduler_address}"
    for run in runs.values():
        del run["ran_on"]
    assert runs["1"] == runs["2"] == runs["cluster"]
    assert runs["1"]["hands"] == 2_500_000 and runs["1"]["conserved"]


def test_sim_text_says_where_it_ran(cli, dask_cluster):
    status, out, err = cli(
        "sim", "--hands", "1000", "--seed", "1", "--cluster", dask_cluster.scheduler_address
    )
    assert status == 0, err
    assert f"compiled engine on the Dask cluster at {dask_cluster.scheduler_address})" in out


def test_minesweeper_auto_play_on_a_cluster_plays_the_same_games(cli, dask_cluster):
    argv = ("solve", "minesweeper", "--play", "--size", "9x9", "--mines", "10")
    argv += ("--games", "20", "--seed", "8")
    here = _run(cli, *argv, "--workers", "1")
    there = _run(cli, *argv, "--cluster", dask_cluster.scheduler_address)
    assert there["ran_on"].startswith("the Dask cluster at ")
    for key in ("games", "wins", "guesses_per_game", "win_rate_ci95"):
        assert there[key] == here[key]


def test_a_local_tournament_on_a_cluster_ends_with_the_same_standings(cli, dask_cluster):
    argv = ("tournament", "basic", "lim17", "never-bust", "--tourneys", "3", "--rounds", "6")
    argv += ("--seed", "5")
    here = _run(cli, *argv, "--workers", "1")
    there = _run(cli, *argv, "--cluster", dask_cluster.scheduler_address)
    assert there["standings"] == here["standings"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("sim", "--cluster", "tcp://127.0.0.1:1"),
            "croupier: error: cannot reach the Dask cluster at tcp://127.0.0.1:1: ",
        ),
        (
            ("sim", "--cluster", "here"),
            "croupier: error: a Dask cluster is its scheduler's address",
        ),
        (
            ("sim", "--cluster", "tcp://127.0.0.1:1", "--engine", "python"),
            "croupier: error: --cluster runs the compiled engine only, not --engine python",
        ),
        (
            ("sim", "--cluster", "tcp://127.0.0.1:1", "--betting", "koth", "--payout", "1:1"),
            "croupier: error: --cluster needs the compiled engine: ",
        ),
        (
            ("tournament", "lim17", "tcp", "--connect", "127.0.0.1:1", "--cluster", "x:1"),
            "croupier: error: --cluster applies to local tournaments only, not with --connect",
        ),
    ],
)
def test_cluster_errors_are_one_line(cli, argv, message):
    status, out, err = cli(*argv)
    assert status != 0 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_workers_and_cluster_are_one_or_the_other(cli):
    status, _, err = cli("sim", "--workers", "2", "--cluster", "tcp://127.0.0.1:1")
    assert status == 2
    assert "argument --cluster: not allowed with argument --workers" in err
