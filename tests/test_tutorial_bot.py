"""docs/tutorial-bot.md as a newcomer follows it: its three Python files, saved from the
page's code, run against a real ``croupier serve`` and print what the page says; the
page's tournament waits for the page's ``join.py``, which takes the seat as ``steady``."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_docs_commands import drain
from tests.test_serve_cli import start, wait_for_port

PAGE = (Path(__file__).resolve().parent.parent / "docs" / "tutorial-bot.md").read_text()
pytestmark = pytest.mark.slow  # three bots and a tournament, on a server: seconds


def saved(name: str, port: int) -> str:
    """The page's code for the file it says to save as ``name``, on the server's port."""
    blocks = re.findall(r"[Ss]ave\s+(?:this\s+as\s+)?`([\w.]+)`.*?```python\n(.*?)```", PAGE, re.S)
    (code,) = [code for file, code in blocks if file == name]
    assert "7171" in code
    return code.replace("7171", str(port))


@pytest.fixture
def port() -> Iterator[int]:
    proc = start("--data", ":memory:")
    try:
        port = wait_for_port(proc)[0]
        drain(proc)
        yield port
    finally:
        proc.kill()
        proc.wait()


def python(folder: Path, name: str) -> str:
    done = subprocess.run(
        [sys.executable, name], cwd=folder, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_first_bot_plays_its_table(tmp_path: Path, port: int) -> None:
    (tmp_path / "first_bot.py").write_text(saved("first_bot.py", port))
    assert re.fullmatch(r"\[\d+\] 100 rounds played", python(tmp_path, "first_bot.py"))
    assert "`[790] 100 rounds played`" in PAGE  # what the page shows


def test_the_bot_with_a_plan_plays_the_same_cards_again(tmp_path: Path, port: int) -> None:
    (tmp_path / "my_bot.py").write_text(saved("my_bot.py", port))
    first = python(tmp_path, "my_bot.py")
    assert re.fullmatch(r"200 rounds, \[\d+\] chips, seed 7", first)
    assert python(tmp_path, "my_bot.py") == first
    assert "`200 rounds, [...] chips, seed 7`" in PAGE


def test_the_bot_enters_the_pages_tournament(tmp_path: Path, port: int) -> None:
    (tmp_path / "my_bot.py").write_text(saved("my_bot.py", port))
    (command,) = re.findall(r"```sh\n(\.venv/bin/croupier tournament tcp .*?)\n```", PAGE)
    argv = command.replace("7171", str(port)).split()[1:]
    tournament = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert tournament.stderr is not None
        waiting = tournament.stderr.readline()
        found = re.search(r"tournament (\d+) .* waits 60 s .* --key (\S+)", waiting)
        assert found, waiting
        join = saved("join.py", port).replace("ID", found[1]).replace('"KEY"', repr(found[2]))
        (tmp_path / "join.py").write_text(join)
        python(tmp_path, "join.py")
        out, err = tournament.communicate(timeout=300)
    finally:
        tournament.kill()
    assert tournament.returncode == 0, err
    assert re.search(r"│ steady ", out), out
