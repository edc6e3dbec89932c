"""The basic-strategy chart is solved once per rule set and machine: a later process reads
the chart kept on disk; other rules or another solver's source miss; a corrupt entry is
solved again (with a warning) and rewritten; an unwritable cache only costs time; a sim
plays the same with or without the cache."""

from __future__ import annotations

import json
import logging
import pickle
import sys

import pytest

import croupier.plugins.blackjack.solver as solver
from croupier.engine.solvecache import cache_dir, source_digest
from croupier.plugins.blackjack.rules import BlackjackRules

RULES = BlackjackRules(decks=None)  # an infinite deck: the quickest chart to solve


@pytest.fixture
def solves(tmp_path, monkeypatch):
    """A cache of the test's own, no chart in memory, and the solver's calls counted."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    calls: list[BlackjackRules] = []
    real = solver.solve_rules

    def counted(rules, *args, **kwargs):
        calls.append(rules)
        return real(rules, *args, **kwargs)

    monkeypatch.setattr(solver, "solve_rules", counted)
    solver.basic_strategy.cache_clear()
    yield calls
    solver.basic_strategy.cache_clear()


def fresh_process_chart(rules: BlackjackRules) -> solver.Chart:
    """The chart as a new process would get it: nothing in memory, the disk as it is."""
    solver.basic_strategy.cache_clear()
    return solver.basic_strategy(rules)


def test_a_chart_is_solved_once_and_read_back(solves):
    first = fresh_process_chart(RULES)
    assert len(solves) == 1
    (kept,) = cache_dir().glob("*.json")
    assert json.loads(kept.read_text()) == first.to_dict()
    again = fresh_process_chart(RULES)
    assert len(solves) == 1 and again == first
    assert again.to_dict() == solver.solve_rules(RULES).chart.to_dict()  # the solver's chart


def test_other_rules_or_another_solver_miss(solves, monkeypatch):
    fresh_process_chart(RULES)
    other = fresh_process_chart(RULES.evolve(double_after_split=False))
    assert len(solves) == 2 and len(list(cache_dir().glob("*.json"))) == 2
    assert other != fresh_process_chart(RULES) and len(solves) == 2
    # a new version of the solver's source is another key
    monkeypatch.setattr(solver, "source_digest", lambda package: "changed source")
    assert fresh_process_chart(RULES) == fresh_process_chart(RULES)
    assert len(solves) == 3


def test_the_source_digest_follows_the_source(tmp_path, monkeypatch):
    package = tmp_path / "solverpkg"
    package.mkdir()
    (package / "__init__.py").write_text("ANSWER = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("solverpkg")
    monkeypatch.delitem(sys.modules, "solverpkg")
    __import__("solverpkg")
    before = source_digest("solverpkg")
    (package / "__init__.py").write_text("ANSWER = 2\n")
    source_digest.cache_clear()
    try:
        assert source_digest("solverpkg") != before
    finally:
        source_digest.cache_clear()


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # a half-written file
        lambda text: json.dumps({**json.loads(text), "hard": {}}),  # rows lost
        lambda text: "[1, 2, 3]",  # not a chart at all
        lambda text: "\udcff",  # not even text
    ],
)
def test_a_corrupt_entry_is_solved_again_and_rewritten(solves, damage, caplog):
    first = fresh_process_chart(RULES)
    (kept,) = cache_dir().glob("*.json")
    kept.write_text(damage(kept.read_text()), errors="surrogateescape")
    with caplog.at_level(logging.WARNING, logger="croupier.cache"):
        assert fresh_process_chart(RULES) == first
    assert len(solves) == 2
    assert json.loads(kept.read_text()) == first.to_dict()
    assert list(cache_dir().iterdir()) == [kept]  # no temporary file left behind
    assert fresh_process_chart(RULES) == first and len(solves) == 2


def test_a_corrupt_entry_is_reported(solves, caplog):
    fresh_process_chart(RULES)
    (kept,) = cache_dir().glob("*.json")
    kept.write_text("{")
    with caplog.at_level(logging.WARNING, logger="croupier.cache"):
        fresh_process_chart(RULES)
    assert "ignoring the corrupt cache entry" in caplog.text


def test_an_unwritable_cache_only_costs_time(solves, tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("CROUPIER_CACHE", str(blocked / "solves"))
    assert fresh_process_chart(RULES) == fresh_process_chart(RULES)
    assert len(solves) == 2


def test_a_sim_plays_the_same_with_or_without_the_cache(cli, solves, tmp_path, monkeypatch):
    argv = ("sim", "--rules", "single-deck", "--strategy", "basic", "--hands", "3000")
    argv += ("--seed", "11", "--json")

    def played() -> dict[str, object]:
        solver.basic_strategy.cache_clear()
        status, out, err = cli(*argv)
        assert status == 0, err
        return {k: v for k, v in json.loads(out).items() if k != "ran_on"}

    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("CROUPIER_CACHE", str(blocked / "solves"))
    uncached = played()
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    cold, warm = played(), played()
    assert len(solves) == 2  # uncached and cold solved; warm read the chart
    assert uncached == cold == warm


def test_a_simulator_job_carries_its_chart(solves, manager, monkeypatch):
    """Worker processes (``--workers``, Dask) are sent the job: it plays without solving."""
    from croupier.plugins.blackjack.simulate import compiled_job
    from croupier.plugins.blackjack.strategy import local_strategy

    rules = BlackjackRules(decks=1)  # a simulator needs a shoe
    job = compiled_job(manager, rules, local_strategy(manager, "basic", rules).for_rules(rules), 1)
    assert len(solves) == 1
    shipped = pickle.dumps(job)
    # a worker: no chart in memory or on disk, and a solver that must not be called
    solver.basic_strategy.cache_clear()
    for kept in cache_dir().glob("*.json"):
        kept.unlink()

    def no_solving(*args, **kwargs):
        raise AssertionError("a worker solved the chart")

    monkeypatch.setattr(solver, "solve_rules", no_solving)
    worker_job = pickle.loads(shipped)
    assert list(worker_job.run(worker_job.data, 5, 2000)) == list(job.run(job.data, 5, 2000))
