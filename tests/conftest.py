"""Shared fixtures. Tests are hermetic: third-party plugins are not autoloaded unless a test
asks for them (the example plugin is installed by the test command, .ci/run).
A plain `pytest` skips tests marked `slow` (pyproject.toml); `pytest -m ''` and .ci/run run all."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
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
    loadfile` are accepted and do nothing: the tests run in this one process."""
    if not pluginmanager.has_plugin("xdist"):
        group = parser.getgroup("xdist", "left out (-p no:xdist): one process")
        # _addoption, as xdist registers its own -n: addoption refuses short lowercase names
        group._addoption("-n", "--numprocesses", dest="numprocesses", default=None)
        group.addoption("--dist", dest="dist", default="no")


SLOW_SECONDS, TEST_SECONDS = 8.0, 0.5
"""Rough means of a test marked ``slow`` and of another, on a quiet core (the full tier's
``--durations``): what orders the files for the workers below."""


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker, the files likely to take longest come first, each file's tests
    in their order. Each file runs on one worker (``--dist loadfile``), handed out in
    collection order when ``--no-loadscope-reorder`` is given (``.ci/run``): the long files
    start first and the short ones fill in at the end, so neither worker is left playing a
    45 s file while the other waits (xdist's own order, by number of tests, put files of
    a few long tests last)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    cost: dict[str, float] = {}
    for item in items:
        seconds = SLOW_SECONDS if item.get_closest_marker("slow") else TEST_SECONDS
        cost[item.nodeid.split("::")[0]] = cost.get(item.nodeid.split("::")[0], 0.0) + seconds
    items.sort(key=lambda item: -cost[item.nodeid.split("::")[0]])  # stable: files whole


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
