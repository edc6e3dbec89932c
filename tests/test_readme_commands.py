"""Every command of the README's tour runs as written (issue 33): each ``sh`` line that calls
``.venv/bin/croupier`` and the Python bot, against a server on a free port instead of 7171.
The set-up commands are checked to be the ones .ci/run and a newcomer depend on; the lines
that start a server (which runs until Ctrl-C) are the only ones not run, and are named."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SERVER = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/croupier serve"
TESTS = "bash .ci/run"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", README, re.S)


def commands() -> list[str]:
    lines = [line for block in blocks("sh") for line in block.splitlines()]
    return [line for line in lines if line.startswith(".venv/bin/croupier ")]


def runnable() -> list[str]:
    return [line for line in commands() if shlex.split(line, comments=True)[1] != "serve"]


def slow(line: str) -> bool:
    """Simulations, solves and bots take seconds to minutes on a loaded machine."""
    return shlex.split(line, comments=True)[1] in ("sim", "solve", "bot")


def test_the_set_up_commands_are_the_ones_ci_and_a_newcomer_use() -> None:
    assert SERVER in blocks("sh")[0].splitlines()
    assert TESTS in blocks("sh")[1].splitlines()
    assert (ROOT / ".ci" / "run").exists()
    # the only README lines not run here start a server, which runs until Ctrl-C
    skipped = [line for line in commands() if line not in runnable()]
    assert skipped == [".venv/bin/croupier serve --http 8080"]
    assert len(runnable()) >= 7


def run(line: str, port: int, stdin: str = "") -> subprocess.CompletedProcess[str]:
    argv = [
        arg.replace("127.0.0.1:7171", f"127.0.0.1:{port}")
        for arg in shlex.split(line, comments=True)
    ]
    return subprocess.run(
        [sys.executable, "-m", "croupier.clients.cli", *argv[1:]],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize(
    "line",
    [pytest.param(line, marks=[pytest.mark.slow] if slow(line) else []) for line in runnable()],
)
def test_each_tour_command_runs_as_written(line: str, threaded_server: int) -> None:
    # at baccarat, what the README tells a newcomer to type (tests/test_play_lines_cli.py)
    play = line.split()[1] == "play"
    done = run(
        line, threaded_server, stdin="bet banker 20\nbet banker=20 tie=20\nq\n" if play else ""
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stdout.strip()
    said = line.split("#", 1)[1].strip() if "#" in line else ""
    if line.split()[1] == "randomize":  # its comment is its output
        assert done.stdout.split() == said.split()


@pytest.mark.slow
def test_the_readmes_bot_runs_as_written(threaded_server: int) -> None:
    (bot,) = [
        block for block in blocks("python") if "from croupier.clients.bot import run" in block
    ]
    assert "7171" in bot
    done = subprocess.run(
        [sys.executable, "-c", bot.replace("7171", str(threaded_server))],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("100 rounds played")
