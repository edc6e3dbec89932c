"""Ctrl-C and SIGTERM on the real ``croupier sim`` of a game played in Python, ``solve
minesweeper --play`` and a local ``tournament``: progress moves, the signal is answered
with the work finished so far and its seed, a second signal exits at once, and no process
outlives the command. Commands run in a pseudo-terminal (their progress bar is the event
waited on), never against a sleep."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import psutil
import pytest

from tests import termkit
from tests.termkit import Term

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _patient(monkeypatch):
    """Workers start and load croupier before the first chunk: on a loaded machine that
    takes more than the usual 20 s (a deadline for a failure, never a measured time)."""
    monkeypatch.setattr(termkit, "TIMEOUT", 120.0)


PARTIAL = re.compile(
    r"stopped after ([\d,]+) of 1,000,000 rounds, the same as --seed 7 --hands (\d+)"
)


def _running(processes: list[psutil.Process]) -> list[int]:
    alive = []
    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                alive.append(process.pid)
        except psutil.NoSuchProcess:
            pass
    return alive


def _stopped_sim(signum: int, times: int, workers: str) -> tuple[str, int, list[int]]:
    """``sim --game baccarat --hands 1e6`` signalled ``times`` times once progress shows
    rounds done: its screen, exit status, and the pids of its descendants still running."""
    term = Term(
        "sim",
        "--game",
        "baccarat",
        "--hands",
        "1e6",
        "--seed",
        "7",
        "--workers",
        workers,
        rows=80,  # tall: the partial line never scrolls off
        cols=160,
    )
    term.wait_for("rounds/s")  # a chunk is done: the bar moved off 0
    family = psutil.Process(term.child.pid).children(recursive=True)
    assert len(family) >= (0 if workers == "1" else 3)  # workers, forkserver, tracker
    for _ in range(times):
        term.child.kill(signum)
    if times == 1:
        term.wait_for("partial:", "result per hand")
    while term._pump():  # to its end
        pass
    term.child.close()
    family_left = _running(family)
    for pid in family_left:  # do not leave them to the next test
        psutil.Process(pid).kill()
    return term.text, term.child.exitstatus, family_left


@pytest.mark.parametrize(
    ("signum", "workers"),
    [(signal.SIGINT, "2"), (signal.SIGTERM, "2"), (signal.SIGINT, "1")],
)
def test_a_signal_gives_the_rounds_done_and_leaves_no_process(cli, signum, workers):
    screen, status, left = _stopped_sim(signum, 1, workers)
    assert status == 130 and left == []
    shown, rounds = PARTIAL.search(screen.replace("\n", "")).groups()
    assert int(shown.replace(",", "")) == int(rounds) > 0
    # what was kept is exactly the run of those rounds from the same seed
    line = next(x for x in screen.splitlines() if x.startswith("result per chip staked"))
    status, out, _ = cli("sim", "--game", "baccarat", "--hands", rounds, "--seed", "7")
    assert status == 0 and line.strip() in out


def test_two_signals_from_a_script_do_not_hang():
    """The second signal may come before the first's partial result is out (it then ends
    the command at once, saying so): either way the command ends, leaving no process."""
    screen, status, left = _stopped_sim(signal.SIGINT, 2, "2")
    assert status in (130, 128 + signal.SIGINT) and left == []
    assert "partial:" in screen or "croupier: stopped" in screen


SECOND = """
import multiprocessing, threading, time
from croupier.clients.cli.stopping import stop_on_signals
if __name__ == "__main__":
    with stop_on_signals():
        child = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(3600,))
        child.start()
        print("ready", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print("first", flush=True)
        threading.Event().wait()  # slow cleanup: the second signal must not wait for it
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_second_signal_exits_at_once_with_its_children(signum):
    with subprocess.Popen(
        [sys.executable, "-c", SECOND], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout.readline() == "ready\n"
        family = psutil.Process(proc.pid).children()
        proc.send_signal(signum)
        assert proc.stdout.readline().split()[0] == "first"
        proc.send_signal(signum)
        assert proc.wait(timeout=30) == 128 + signum
        assert "croupier: stopped" in proc.stderr.read()
    _, alive = psutil.wait_procs(family, timeout=30)  # killed, then reaped by init
    assert alive == []


def _stopped(args: tuple[str, ...], shown: str, signum: int) -> tuple[str, int, list[int]]:
    """``croupier ARGS`` signalled once the screen matches the pattern ``shown``: its
    screen, status and its descendants still running."""
    term = Term(*args, rows=80, cols=160)  # tall: the partial line never scrolls off
    term.wait_for_pattern(shown)
    family = psutil.Process(term.child.pid).children(recursive=True)
    term.child.kill(signum)
    while term._pump():
        pass
    term.child.close()
    left = _running(family)
    for pid in left:
        psutil.Process(pid).kill()
    return term.text, term.child.exitstatus, left


@pytest.mark.parametrize(("signum", "workers"), [(signal.SIGINT, "1"), (signal.SIGTERM, "2")])
def test_a_stopped_tournament_shows_its_standings_so_far(signum, workers):
    bots = ("basic", "lim17", "never-bust", "mimic-dealer")
    args = ("tournament", *bots, "--tourneys", "20", "--rounds", "400", "--seed", "3")
    screen, status, left = _stopped((*args, "--workers", workers), r"\b[1-9]\d*/8000", signum)
    assert status == 130 and left == []
    text = screen.replace("\n", "")
    assert re.search(r"partial: stopped after [1-9]\d* tables, in round \d+ of 400 \(seed 3;", text)
    assert "King of the Hill" in screen and "never-bust" in screen


@pytest.mark.parametrize(("signum", "workers"), [(signal.SIGINT, "1"), (signal.SIGTERM, "2")])
def test_stopped_minesweeper_play_shows_the_games_played(cli, signum, workers):
    args = ("solve", "minesweeper", "--play", "--games", "100000", "--seed", "5")
    screen, status, left = _stopped((*args, "--workers", workers), "/100000", signum)
    assert status == 130 and left == []
    text = screen.replace("\n", "")
    games = re.search(
        r"partial: stopped after (\d+) of 100000 games, the same as --seed 5 "
        r"--games (\d+)",
        text,
    )
    assert games and games[1] == games[2] and int(games[1]) > 0
    won = re.search(r"won \d+ of \d+ games = [\d.]+%", text)[0]
    status, out, _ = cli(*args[:-4], "--games", games[1], "--seed", "5", "--workers", "1")
    assert status == 0 and won in out


def test_the_python_blackjack_engine_stops_with_the_rounds_played(cli):
    args = ("sim", "--engine", "python", "--hands", "1e8", "--seed", "7")
    screen, status, left = _stopped(args, "0000/100000000", signal.SIGINT)
    assert status == 130 and left == []
    text = screen.replace("\n", "")
    shown, rounds = re.search(
        r"stopped after ([\d,]+) of 100,000,000 rounds, the same as --seed 7 --hands (\d+)", text
    ).groups()
    assert int(shown.replace(",", "")) == int(rounds) > 0
    line = next(x for x in screen.splitlines() if x.startswith("result per initial hand"))
    status, out, _ = cli("sim", "--engine", "python", "--hands", rounds, "--seed", "7")
    assert status == 0 and line.strip() in out
