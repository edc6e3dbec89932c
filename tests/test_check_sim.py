"""``croupier check-sim`` end to end: a buggy simulator is flagged, a correct one passes,
bad input is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.clients.cli.main import main

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "check-sim"


HANDS = {"none": 200_000, "bj-push": 1_000_000}
"""Hands each run plays (pure Python, ~4 s a million). The bug moves the EV by about 0.005,
5 standard errors at a million hands: fewer and the check could not be sure to see it. A
correct simulator's z is a standard normal's at any size, so its run is a fifth as long."""


def toysim(bug: str) -> dict[str, float]:
    """Run the example simulator (an independent infinite-deck player) and read its line."""
    out = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE / "toysim.py"),
            "--hands",
            str(HANDS[bug]),
            "--seed",
            "3",
            "--bug",
            bug,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return {out[i]: float(out[i + 1]) for i in range(0, len(out), 2)}


def check(result: dict[str, float], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    argv = ["check-sim", "--decks", "inf", "--strategy", str(EXAMPLE / "mimic.csv")]
    argv += [f"--ev={result['ev']}", f"--sd={result['sd']}", "--hands", str(int(result["hands"]))]
    assert main([*argv, "--json"]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


@pytest.mark.parametrize(("bug", "consistent"), [("none", True), ("bj-push", False)])
def test_a_buggy_simulator_is_flagged_and_a_correct_one_passes(
    bug: str, consistent: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    report = check(toysim(bug), capsys)
    assert report["consistent"] is consistent
    assert report["exact"]["ev"] == pytest.approx(-0.056746, abs=1e-6)  # type: ignore[index]
    if not consistent:
        assert report["p_value"] < 0.001  # type: ignore[operator]


def test_text_output_has_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check-sim", "--decks", "inf", "--strategy", str(EXAMPLE / "mimic.csv")]
    assert main([*argv, "--ev=-6%", "--ci=-6.2%,-5.8%", "--hands", "1e6"]) == 0
    out = capsys.readouterr().out
    assert "INCONSISTENT" in out and "z = " in out and "80%" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ev", "abc", "--hands", "10"], "--ev is a number"),
        (["--ev", "0", "--hands", "1.5"], "--hands is a whole number"),
        (["--hands", "10"], "--ev is required"),
        (["--ev", "0", "--hands", "10", "--ci", "1,0"], "LO < HI"),
        (["--ev", "0", "--hands", "10", "--sd", "-1"], "--sd must be positive"),
        (["--ev", "0", "--hands", "10", "--strategy", "lim17"], "basic or a chart file"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-sim", "--decks", "inf", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_cut_card_shoe_is_noted_and_a_fresh_shoe_is_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["check-sim", "--decks", "1", "--strategy", str(EXAMPLE / "mimic.csv")]
    argv += ["--ev", "-0.05", "--hands", "1e6", "--json"]
    assert main([*argv, "--shoe", "casino"]) == 0
    casino = json.loads(capsys.readouterr().out)
    assert "cut-card effect" in casino["note"]
    assert main([*argv, "--shoe", "fresh-pack"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert "note" not in fresh and fresh["exact"]["ev"] == casino["exact"]["ev"]
    assert "freshly shuffled" in fresh["exact"]["refers_to"]
