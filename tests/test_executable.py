"""Executable bots: the contest interface, the clean process, and every kind of fault."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import trio
from bjtable import blackjack_table, typed_events

from croupier.engine import CroupierError
from croupier.plugins.blackjack.executable import BotFault, ExecutablePlayer, check_executable
from croupier.plugins.blackjack.play import Action, Observation

BOTS = Path(__file__).parent / "bots"


def bot(name: str, tmp_path: Path) -> ExecutablePlayer:
    return ExecutablePlayer([str(BOTS / name)], tmp_path)


def play(score: int, hand: str, visible: str, stake: int = 10, chips: int = 190) -> Observation:
    codes = tuple(f"{r}S" for r in hand)
    seen = tuple("#" if c == "#" else f"{c}H" for c in visible)
    return Observation(
        phase="play",
        round=1,
        seat=1,
        legal=("hit", "stand", "double", "raise"),
        chips=chips,
        hands=(codes,),
        total=score,
        stake=stake,
        dealer_upcard=seen[0],
        visible=seen,
    )


@pytest.mark.parametrize(
    ("name", "observation", "expected"),
    [
        ("lim15.sh", play(14, "T4", "9#T4"), Action("hit")),
        ("lim15.sh", play(15, "T5", "9#T5"), Action("stand")),
        ("lim17.py", play(16, "T6", "9#T6"), Action("hit")),
        ("lim16.pl", play(16, "T6", "9#T6"), Action("stand")),
        ("bettor.js", play(11, "56", "9#56"), Action("raise", 20)),
        ("bettor.js", play(11, "56", "9#56", stake=30), Action("hit")),
        ("double.sh", play(11, "56", "9#56"), Action("double")),
        # Hi-Lo over 2 3 4 5 6 (+5) T A (-2) with the hole card '#' skipped: +3, raise
        ("counter.py", play(12, "23", "T#23456A"), Action("raise", 10)),
        # the same cards after the raise: a high count stands on 13
        ("counter.py", play(13, "94", "T#94256A", stake=20), Action("stand")),
        # tens and faces count -1: a low count hits 13
        ("counter.py", play(13, "94", "T#94TKQ", stake=20), Action("hit")),
        ("overbet.sh", play(12, "T2", "9#T2"), Action("raise", -15)),
        ("overbet.sh", play(12, "T2", "9#T2", stake=25), Action("raise", 99999)),
        ("overbet.sh", play(12, "T2", "9#T2", stake=200), Action("stand")),
    ],
)
async def test_fixture_bots_answer_the_contest_arguments(name, observation, expected, tmp_path):
    assert await bot(name, tmp_path).decide(observation.to_dict()) == expected.to_dict()


async def test_arguments_are_the_contest_five(tmp_path):
    script = tmp_path / "echo.sh"
    script.write_text(
        '#!/bin/sh\necho "B $#" >&2\n[ "$*" = "21 KJA KQKJA3592A 25 145" ] && echo S\n'
    )
    script.chmod(0o755)
    observation = play(21, "KJA", "K#KJA3592A", stake=25, chips=145)
    observation = Observation(
        **{**observation.to_dict(), "visible": ("KD", "QS", *observation.visible[2:])}
    )
    assert observation.koth_arguments() == ["21", "KJA", "KQKJA3592A", "25", "145"]
    answer = await ExecutablePlayer([str(script)], tmp_path).decide(observation.to_dict())
    assert answer == Action("stand").to_dict()


async def test_clean_environment_workdir_and_closed_stdin(tmp_path, monkeypatch):
    monkeypatch.setenv("CROUPIER_PROBE", "leaked")
    assert await bot("probe.sh", tmp_path).answer(["12", "T2", "9#T2", "10", "190"]) == "S"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("crash.py", "exited with status 1 (RuntimeError: this bot always crashes)"),
        ("garbage.sh", "not an action"),
        ("silent.sh", "printed nothing"),
        ("flood.sh", "wrote more than 4096 bytes"),
    ],
)
async def test_faults_raise_a_one_line_bot_fault(name, message, tmp_path):
    with pytest.raises(BotFault, match=message.replace("(", r"\(").replace(")", r"\)")):
        await bot(name, tmp_path).answer(["12", "T2", "9#T2", "10", "190"])


def _sleepers() -> int:
    found = subprocess.run(["pgrep", "-f", "sleep 31"], capture_output=True, text=True)
    return len(found.stdout.split())


async def test_a_slow_bot_is_killed_with_its_children(tmp_path):
    before = _sleepers()
    player = bot("sleeper.sh", tmp_path)
    with trio.move_on_after(0.3) as scope:
        await player.answer(["12", "T2", "9#T2", "10", "190"])
    assert scope.cancelled_caught
    assert _sleepers() == before


async def test_faults_get_the_default_at_a_table(manager, tmp_path):
    rules = manager.rule_sets.get("koth").rules
    names = ["sleeper.sh", "crash.py", "garbage.sh", "silent.sh"]
    players = [bot(n, tmp_path) for n in names]
    events = []
    table = blackjack_table(
        manager, rules, 5, players, decision_time=0.3, attempts=1, listeners=[typed_events(events)]
    )
    assert await table.play(1) == 1
    defaults = {e.seat: e.reason for e in events if e.kind == "default"}
    assert defaults[1] == "timeout after 0.3s"
    assert "this bot always crashes" in defaults[2]
    assert "not an action" in defaults[3]
    assert "printed nothing" in defaults[4]
    stands = [e for e in events if e.kind == "action" and e.seat is not None]
    assert [e.action for e in stands] == ["stand"] * 4
    assert table.ledger.conserved()


def test_check_executable(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("print('S')\n")
    with pytest.raises(CroupierError, match="chmod \\+x"):
        check_executable(script)
    with pytest.raises(CroupierError, match="no such file"):
        check_executable(tmp_path / "missing")
    with pytest.raises(CroupierError, match="not a file"):
        check_executable(tmp_path)
    script.chmod(0o755)
    assert check_executable(script) == script.resolve()
    assert os.access(BOTS / "lim15.sh", os.X_OK)
