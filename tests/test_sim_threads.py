"""``croupier sim --threads N``, and threads by default: the compiled kernel releases the
GIL, so a run on threads of this process is byte for byte the run on one process or on
worker processes, for the same seed (flat and counting), and nothing is started that the
run cannot pay for."""

from __future__ import annotations

import json

import pytest

from croupier.engine.executor import default_workers

FLAT = ("sim", "--strategy", "basic", "--hands", "2500000", "--seed", "77", "--json")
COUNTING = (*FLAT, "--count", "hilo", "--ramp", "<=1:1,2:4,4+:8", "--indices", "hilo-i18")


def _json(cli, *argv):
    status, out, err = cli(*argv)
    assert status == 0, err
    return out


def _without_ran_on(out):
    report = json.loads(out)
    where = report.pop("ran_on")
    return json.dumps(report, sort_keys=True), where


@pytest.mark.parametrize(
    "argv",  # counting's chunks are as reproducible: tests/test_counting_sim.py, one or two
    [FLAT, pytest.param(COUNTING, marks=pytest.mark.slow)],  # processes, in the fast tier
    ids=["flat", "counting"],
)
def test_workers_and_threads_print_the_same_json(cli, argv):
    runs = {
        "one": _json(cli, *argv, "--workers", "1"),
        "workers": _json(cli, *argv, "--workers", "2"),
        "threads": _json(cli, *argv, "--threads", "2"),
        "three threads": _json(cli, *argv, "--threads", "3"),
        "default": _json(cli, *argv),
    }
    reports = {name: _without_ran_on(out) for name, out in runs.items()}
    assert reports["one"][1] == "this process"
    assert reports["workers"][1] == "2 worker processes"
    assert reports["threads"][1] == "2 threads"
    assert reports["three threads"][1] == "3 threads"
    cores = min(default_workers(), 3)  # 2,500,000 hands: three chunks
    assert reports["default"][1] == ("this process" if cores == 1 else f"{cores} threads")
    texts = {text for text, _ in reports.values()}
    assert len(texts) == 1
    assert json.loads(texts.pop())["hands"] == 2_500_000


def test_threads_never_outnumber_the_chunks(cli):
    out = _json(cli, "sim", "--hands", "1000", "--seed", "1", "--json", "--threads", "4")
    assert json.loads(out)["ran_on"] == "this process"


def test_threads_and_workers_exclude_each_other_and_python_games_refuse_threads(cli):
    status, _, err = cli("sim", "--hands", "10", "--threads", "2", "--workers", "2")
    assert status == 2 and "not allowed with argument" in err
    status, _, err = cli("sim", "--game", "baccarat", "--hands", "10", "--threads", "2")
    assert status != 0 and err.count("\n") == 1
    assert "--threads runs compiled kernels; baccarat plays in Python" in err
