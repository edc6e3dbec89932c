"""Shared fixtures. Tests are hermetic: third-party plugins are not autoloaded unless a test
asks for them (the example plugin is installed by the test command, .ci/run).
A plain `pytest` skips tests marked `slow` (pyproject.toml); `pytest -m ''` and .ci/run run all."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from tests.webkit import browser, failure_sections, page, served  # noqa: F401 (the browser tests' fixtures)

# Bytecode is a cache, so the suite writes it even where PYTHONDONTWRITEBYTECODE is set (as on
# CI machines): without it pytest rewrote every test module's asserts again on each run (8 s of
# each worker's start), and each `croupier` a test runs compiled croupier's modules again.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "1")
os.environ.setdefault("CROUPIER_DATA", ":memory:")  # croupier serve keeps no journal unless told
# solutions the CLI keeps for reuse go to a cache of this run, not the user's
os.environ["CROUPIER_CACHE"] = tempfile.mkdtemp(prefix="croupier-tests-cache-")
if "PYTEST_XDIST_WORKER" in os.environ:
    # xdist's workers are started with COLUMNS=80 LINES=24: the terminal size commands and
    # the terminal game would read them instead of their own (one process runs as a person's)
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """Without pytest-xdist (`-p no:xdist`, for a debugger), pyproject's `-n auto --dist
    loadfile --no-loadscope-reorder` are accepted and do nothing: the tests run in one process."""
    if not pluginmanager.has_plugin("xdist"):
        group = parser.getgroup("xdist", "left out (-p no:xdist): one process")
        # _addoption, as xdist registers its own -n: addoption refuses short lowercase names
        group._addoption("-n", "--numprocesses", dest="numprocesses", default=None)
        group.addoption("--dist", dest="dist", default="no")
        group.addoption("--no-loadscope-reorder", dest="loadscopereorder", action="store_false")


PLUGINS = Path(__file__).resolve().parent / "plugins"


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Dir | None:
    """plugins/ and its games are collected as plain folders, not as test packages: pytest
    imports a package's ``__init__.py`` (for its ``setup_module``), which loaded each game a
    second time as ``plugins.<game>`` beside the ``croupier.plugins.<game>`` its tests use
    (found by h125)."""
    if path == PLUGINS or PLUGINS in path.parents:
        return pytest.Dir.from_parent(parent, path=path)
    return None


SLOW_SECONDS, TEST_SECONDS = 8.0, 0.5
"""Rough means of a test marked ``slow`` and of another, on a quiet core (the full tier's
``--durations``): what orders the files for the workers below when no earlier run timed them."""
TEST_SECONDS_KEY = "croupier/test-seconds"
"""pytest's cache key (``.pytest_cache``) of each test's seconds in the last run that ran it."""


def file_of(nodeid: str) -> str:
    return nodeid.split("::")[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker, the files likely to take longest come first, each file's tests
    in their order. Each file runs on one worker (``--dist loadfile``), handed out in
    collection order (``--no-loadscope-reorder``, pyproject.toml): the long files start
    first and the short ones fill in at the end, so neither worker is left playing a long
    file while the other waits (xdist's own order, by number of tests, put files of a few
    long tests last). A test's seconds are those the last run of it measured (pytest's
    cache, below), else the estimates above."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    cache = getattr(config, "cache", None)  # None under -p no:cacheprovider
    measured: dict[str, float] = cache.get(TEST_SECONDS_KEY, {}) if cache is not None else {}
    cost: dict[str, float] = {}
    for item in items:
        estimate = SLOW_SECONDS if item.get_closest_marker("slow") else TEST_SECONDS
        seconds = measured.get(item.nodeid, estimate)
        cost[file_of(item.nodeid)] = cost.get(file_of(item.nodeid), 0.0) + seconds
    items.sort(key=lambda item: -cost[file_of(item.nodeid)])  # stable: files whole


class Timings:
    """On the controller (or the one process without xdist): each test's seconds in this
    run (setup, call and teardown), kept in pytest's cache at the end for the next run's
    order; tests this run left out keep their earlier figure."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache = getattr(session.config, "cache", None)
        if cache is not None and self.seconds:
            kept = cache.get(TEST_SECONDS_KEY, {})
            kept.update({k: round(v, 3) for k, v in self.seconds.items()})
            cache.set(TEST_SECONDS_KEY, kept)


def pytest_configure(config: pytest.Config) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ:
        config.pluginmanager.register(Timings(), "croupier-test-seconds")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test's report carries what the page and the server said."""
    outcome = yield
    report = outcome.get_result()
    funcargs = getattr(item, "funcargs", {})
    if call.when == "call" and report.failed and ("page" in funcargs or "served" in funcargs):
        for title, text in failure_sections(funcargs):
            report.sections.append((title, text))


@pytest.fixture
def manager():
    """A plugin manager with the built-in plugins only."""
    from croupier.engine import PluginManager

    return PluginManager(autoload=False)


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process: ``cli("plugins", "--json")`` -> (status, stdout, stderr)."""
    from croupier.clients.cli.main import main

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse's --help, --version and usage errors
            status = int(exc.code or 0)
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture
def threaded_server() -> Iterator[int]:
    """A server in its own thread, for the CLI (which runs trio itself); yields its port."""
    from croupier.engine import PluginManager
    from croupier.protocol import Server

    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=4)
    ready = threading.Event()
    box: dict[str, Any] = {}

    def main() -> None:
        async def serve() -> None:
            box["token"] = trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                box["port"] = (await nursery.start(server.serve, "127.0.0.1", 0))[0][1]
                ready.set()

        trio.run(serve)

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield box["port"]
    trio.from_thread.run_sync(server.stop, trio_token=box["token"])
    thread.join(10)


@pytest.fixture
def server() -> Iterator[Any]:
    """A real ``croupier serve --seed 3`` process on a free loopback port (``server.port``),
    for the clients that a person runs against one."""
    from tests.test_serve_cli import start, wait_for_port

    proc = start("--seed", "3")
    try:
        proc.port, _ = wait_for_port(proc)  # type: ignore[attr-defined]
        yield proc
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Any]:
    """A Dask cluster inside this process: two one-thread workers reached over TCP, as
    ``--cluster ADDRESS`` reaches a real one (``distributed`` is in the test extra)."""
    import logging

    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster


@pytest.fixture
def virtual_clock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """An autojump MockClock on which the server's threads and worker processes take no
    time (see tests/workclock.py); a test that names it runs on it."""
    from trio.testing import MockClock

    from tests.workclock import hold_during_work

    clock = MockClock(autojump_threshold=0)
    hold_during_work(clock, monkeypatch)
    return clock
