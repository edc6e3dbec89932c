"""What the browser tests share: a ``croupier serve --http`` subprocess, Debian's Chromium
driven by playwright (never playwright's own download), screenshots, one-shot trio calls."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.protocol import connect
from tests.servedtables import Recorder

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
"""Where the test run leaves a picture of each page (gitignored) for a reviewer to look at."""

CHROMIUM = os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}


def chromium_or_skip() -> str:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install Debian's (apt-get install chromium; .ci/run "
            "does when it runs as root with apt) or set CROUPIER_CHROMIUM"
        )
    return CHROMIUM


class Served:
    """A ``croupier serve --port 0 --http 0`` subprocess: its TCP port and web address."""

    def __init__(self, *argv: str, plugins: bool = False) -> None:
        """``plugins``: load the installed third-party plugins too (the example's coin-toss)."""
        env = None if not plugins else {**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": ""}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "croupier.clients.cli",
                "serve",
                "--port",
                "0",
                "--http",
                "0",
                *argv,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.log: list[str] = []
        self.port = 0
        self.url = ""
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)
            if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                self.port = int(found.group(1))
            if found := re.search(r"web page on (http://127\.0\.0\.1:\d+)/", line):
                self.url = found.group(1)
                break
        if not (self.port and self.url):
            self.proc.kill()
            raise AssertionError("the server did not start: " + "".join(self.log))
        # keep reading its log, or the server blocks once the pipe is full
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        self.log.extend(self.proc.stderr)

    def call(self, method: str, *params: Any, named: dict[str, Any] | None = None) -> Any:
        """One call on a fresh TCP connection (a ``client``)."""

        async def once() -> Any:
            async with connect("127.0.0.1", self.port, name="web-test") as client:
                if named is not None:
                    return await client.call_named(method, named)
                return await client.call(method, *params)

        return trio.run(once)

    def played(self, **settings: Any) -> tuple[int, dict[str, Any]]:
        """A table created with ``settings`` and watched from before it starts until its
        ``table.status`` says finished (no polling): its id and final info."""

        async def once() -> tuple[int, dict[str, Any]]:
            recorder = Recorder()
            async with connect(
                "127.0.0.1", self.port, name="web-test", on_notification=recorder
            ) as client:
                created = await client.call_named("table.create", settings | {"autostart": False})
                await client.call("table.watch", created["table"])
                await client.call("table.start", created["table"], created["key"])
                await recorder.finished.wait()
                return created["table"], recorder.statuses[-1]

        return trio.run(once)

    def tournament_played(self, **settings: Any) -> dict[str, Any]:
        """A tournament of strategies started with ``settings``, until its ``tournament.status``
        (which goes to the connection that started it) says finished: its final info."""

        async def once() -> dict[str, Any]:
            done = trio.Event()
            last: list[dict[str, Any]] = []

            def heard(method: str, params: Any) -> None:
                if method == "tournament.status" and params[1]["state"] == "finished":
                    last.append(params[1])
                    done.set()

            async with connect(
                "127.0.0.1", self.port, name="web-test", on_notification=heard
            ) as client:
                started = await client.call_named("tournament.start", settings)
                if started["state"] == "finished":
                    return dict(started)
                await done.wait()
                return last[-1]

        return trio.run(once)

    def cli(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "croupier.clients.cli", *argv],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def served_server(journal: Path | None = None) -> Iterator[Served]:
    data = () if journal is None else ("--data", str(journal))
    served = Served("--seed", "2026", *data)
    try:
        yield served
    finally:
        served.stop()


# The fixtures every browser test module shares, one server and one browser per test run
# (conftest.py imports them): the server keeps a journal, so finished tables can be replayed.


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from served_server(tmp_path_factory.mktemp("web") / "journal.db")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    executable = chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A wide page; it fails the test if the page's JavaScript threw."""
    opened = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    console: list[str] = []
    opened.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    opened.croupier_console = console  # read by failure_sections() when the test fails
    yield opened
    opened.close()
    assert not errors, errors


def failure_sections(funcargs: dict[str, Any]) -> list[tuple[str, str]]:
    """What a failed browser test leaves in its report: the page's address, status line and
    console, and the end of the served server's log (conftest's report hook calls it)."""
    sections = []
    page = funcargs.get("page")
    if page is not None and not page.is_closed():
        try:
            status = page.evaluate(
                "() => document.getElementById('status')?.textContent ?? '(no #status)'"
            )
        except Exception as exc:  # the page itself is broken: say so, keep the test's error
            status = f"(cannot read: {exc})"
        console = "\n".join(getattr(page, "croupier_console", [])[-40:])
        sections.append(("browser page", f"{page.url}\nstatus: {status}\n{console}"))
    served = funcargs.get("served")
    if isinstance(served, Served):
        sections.append(("served server log (end)", "".join(served.log[-60:])))
    return sections


def drawn(page: Any, events: int) -> None:
    """Wait until the table's drawing shows its first ``events`` events: the view draws the
    felt in an animation frame and then says how many events it shows in body[data-drawn]."""
    page.locator(f'body[data-drawn="{events}"]').wait_for(state="attached")


def screenshot(page: Any, name: str) -> None:
    """The page as it is now under :data:`SCREENSHOTS`: wide and phone-sized in the light
    theme, wide in the dark (``NAME.png``, ``NAME-phone.png``, ``NAME-dark.png``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.emulate_media(color_scheme="light")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(size)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(SCREENSHOTS / f"{name}-dark.png"), full_page=True)
    page.emulate_media(color_scheme="light")
