"""``croupier tournament``: standings, JSON, logs and replay, one-line errors."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

BOTS = Path(__file__).parent / "bots"


def test_json_standings_are_golden(cli):
    argv = ("tournament", "lim17", "never-bust", "mimic-dealer", "--tourneys", "3")
    status, out, err = cli(*argv, "--rounds", "4", "--seed", "5", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["seed"] == 5 and data["conserved"]
    assert data["bots"] == ["lim17", "never-bust", "mimic-dealer"]
    scores = {s["name"]: s["scores"] for s in data["standings"]}
    # golden: the seed fixes every seating and card
    assert scores == GOLDEN
    assert cli(*argv, "--rounds", "4", "--seed", "5", "--json")[1] == out


GOLDEN = {"lim17": [260, 160, 200], "never-bust": [180, 160, 140], "mimic-dealer": [220, 160, 140]}


def test_table_output_log_and_replay(cli, tmp_path):
    log = tmp_path / "t.jsonl"
    bot = str(BOTS / "lim15.sh")
    status, out, err = cli(
        "tournament",
        bot,
        "lim17",
        bot,
        "--tourneys",
        "2",
        "--rounds",
        "2",
        "--seed",
        "9",
        "--log",
        str(log),
        "--workers",
        "1",
    )
    assert status == 0, err
    assert "lim15.sh#2" in out and "95% CI" in out and "seed 9" in out
    status, replayed, err = cli("tournament", "--replay", str(log))
    assert status == 0, err
    assert replayed.replace("replayed", "played") == out
    log.write_text(log.read_text().replace('"action": "hit"', '"action": "stand"', 1))
    status, _, err = cli("tournament", "--replay", str(log))
    assert status == 1 and err.startswith("croupier: error:") and err.count("\n") == 1


def test_a_drawn_seed_is_reported(cli):
    status, _, err = cli("tournament", "lim17", "--tourneys", "1", "--rounds", "1")
    assert status == 0 and "rerun with --seed" in err


def test_one_line_errors(cli, tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("print('S')\n")
    binary = tmp_path / "noise.log"
    binary.write_bytes(bytes(range(128, 256)))
    for argv, message in [
        (("tcp", "lim17"), "--connect"),
        (("nobody",), "unknown bot 'nobody'"),
        ((str(script),), "chmod +x"),
        ((), "name at least one BOT"),
        (("lim17", "--replay", str(tmp_path / "x")), "--replay takes no BOT"),
        (("--replay", str(tmp_path / "missing")), "cannot read"),
        (("--replay", str(script)), "not JSON"),
        (("--replay", str(binary)), "not UTF-8"),
    ]:
        status, _, err = cli("tournament", *argv, "--seed", "1")
        assert status == 1, argv
        assert message in err and err.count("\n") == 1, err
    # refused before a seed is drawn: without --seed, the error is still the only line
    for argv, message in [
        (("lim17", "--log", str(tmp_path / "no" / "such" / "dir")), "cannot write"),
        (("lim17", "--tourneys", "20000"), "at most 10,000 tourneys"),
    ]:
        status, _, err = cli("tournament", *argv)
        assert status == 1 and message in err and err.count("\n") == 1, err
    status, _, err = cli("tournament", "lim17", "--time-limit", "0")
    assert status == 2 and "seconds" in err


def test_basic_plays_the_contests_rules_without_a_fault(cli):
    """``basic`` is bound to the koth rules: the solver's chart for ties that lose."""
    argv = ("tournament", "basic", "lim17", "--tourneys", "2", "--rounds", "10", "--seed", "3")
    status, out, err = cli(*argv, "--json")
    assert status == 0, err
    standings = {s["name"]: s for s in json.loads(out)["standings"]}
    assert standings["basic"]["faults"] == 0 and standings["basic"]["hands"] > 0


def test_basic_plays_in_worker_processes_too(cli):
    """With several workers (or any executable bot) strategies go to other processes: the
    bound ``basic`` must travel there, and play as it does in one process."""
    argv = ("tournament", "basic", "lim17", "--tourneys", "2", "--rounds", "5", "--seed", "3")
    results = []
    for workers in ("1", "2"):
        status, out, err = cli(*argv, "--workers", workers, "--json")
        assert status == 0, err
        results.append(json.loads(out)["standings"])
    assert results[0] == results[1]
    assert {s["name"]: s["faults"] for s in results[1]} == {"basic": 0, "lim17": 0}


def test_overbet_stands_by_default_and_all_in_on_request(cli, tmp_path):
    bot = str(BOTS / "overbet.sh")
    reasons = {}
    for overbet in ("stand", "all-in"):
        log = tmp_path / f"{overbet}.jsonl"
        extra = () if overbet == "stand" else ("--overbet", "all-in")
        argv = ("tournament", bot, "--tourneys", "1", "--rounds", "1", "--seed", "3")
        status, _, err = cli(*argv, "--workers", "1", "--log", str(log), *extra)
        assert status == 0, err
        events = [json.loads(line) for line in log.read_text().splitlines()]
        raises = [e for e in events if e.get("action") == "raise" and "reason" in e]
        reasons[overbet] = {e["reason"] for e in raises}
        assert cli("tournament", "--replay", str(log))[0] == 0
    assert reasons["stand"] and all(r.endswith("chips held, stands") for r in reasons["stand"])
    assert reasons["all-in"] == {"over-bet: 99999 > 175 chips held, all in"}  # then broke
    status, _, err = cli("tournament", "lim17", "--connect", "127.0.0.1:1", "--overbet", "stand")
    assert status == 1 and "--overbet applies to local tournaments only" in err


def test_a_command_line_enters_a_bot_whose_interpreter_is_off_the_clean_path(
    cli, tmp_path, monkeypatch
):
    # an interpreter only the caller's PATH knows (like the contest's python2 bots)
    tools = tmp_path / "tools"
    tools.mkdir()
    interpreter = tools / "mypython"
    interpreter.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    interpreter.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(tmp_path)
    Path("bot.py").write_text(  # neither executable nor with a shebang; a relative path
        "import sys\nprint('H' if int(sys.argv[1]) < 17 else 'S')\n"
    )
    argv = ("tournament", "mypython bot.py", "lim17", "--tourneys", "1", "--rounds", "1")
    status, out, err = cli(*argv, "--seed", "4", "--workers", "1", "--json")
    assert status == 0, err
    bot = next(s for s in json.loads(out)["standings"] if s["name"] == "bot.py")
    assert bot["faults"] == 0 and bot["hands"] == 5
    for line, message in [
        ("nosuchprogram bot.py", "no program 'nosuchprogram' on PATH"),
        ("mypython 'bot.py", "cannot split the command line"),
        ("./missing/python bot.py", "no such file"),
    ]:
        status, _, err = cli("tournament", line, "--seed", "1")
        assert status == 1 and message in err and err.count("\n") == 1, err


def test_same_named_bots_are_told_apart(cli, tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        bot = tmp_path / folder / "bot.sh"
        bot.write_text((BOTS / "lim15.sh").read_text())
        bot.chmod(0o755)
    log = tmp_path / "t.jsonl"
    argv = ["tournament", str(tmp_path / "a" / "bot.sh"), str(tmp_path / "b" / "bot.sh")]
    argv += ["lim17", "lim17", "--tourneys", "1", "--rounds", "1", "--seed", "2"]
    status, out, err = cli(*argv, "--workers", "1", "--json", "--log", str(log))
    assert status == 0, err
    names = ["a/bot.sh", "b/bot.sh", "lim17", "lim17#2"]
    assert json.loads(out)["bots"] == names
    assert sorted(s["name"] for s in json.loads(out)["standings"]) == sorted(names)
    assert json.loads(log.read_text().splitlines()[0])["bots"] == names
    status, out, err = cli(*argv, "--workers", "1")
    assert status == 0 and all(name in out for name in names), out


def test_a_tie_shows_as_a_tie_with_what_is_not_separated(cli):
    # the same strategy twice at one baccarat table: the same bet on the same coups
    argv = ("tournament", "--game", "baccarat", "banker", "banker", "player")
    status, out, err = cli(*argv, "--tourneys", "3", "--rounds", "3", "--seed", "4")
    assert status == 0, err
    rows = [line.split() for line in out.splitlines() if "│" in line]
    ranked = [(row[0], row[2]) for row in rows]
    assert ranked == [("1", "player"), ("2=", "banker"), ("2=", "banker#2")]
    assert "not yet separated from" in out and "0 of 3 pairs of bots separated" in out
    status, out, err = cli(*argv, "--tourneys", "3", "--rounds", "3", "--seed", "4", "--json")
    lines = json.loads(out)["standings"]
    assert [(s["rank"], s["tied"]) for s in lines] == [(1, False), (2, True), (2, True)]
    assert lines[1]["unseparated"] == ["player", "banker#2"]
