"""``croupier sim --count``: the counter's report, its CSV, and its errors."""

from __future__ import annotations

import csv
import json
import re


def test_sim_count_json_and_csv(cli, tmp_path):
    out_csv = tmp_path / "tc.csv"
    argv = ("sim", "--strategy", "basic", "--hands", "20000", "--seed", "5", "--workers", "1")
    count = (
        "--count",
        "hilo",
        "--ramp",
        "<=1:1,2:2,3:4,4:6,5+:8",
        "--indices",
        "hilo-i18,hilo-fab4",
    )
    status, out, err = cli(*argv, *count, "--bankroll", "500", "--csv", str(out_csv), "--json")
    assert status == 0, err
    report = json.loads(out)
    c = report["counting"]
    assert c["rounds_dealt"] == c["rounds_played"] == 20_000
    assert 0 < c["risk_of_ruin"] <= 1 and c["hands_per_hour"] == 100
    assert sum(row["rounds"] for row in c["per_count"]) == 20_000
    lines = out_csv.read_text().splitlines()
    assert lines[0].startswith("tc,") and not any(x.startswith("#") for x in lines)
    rows = list(csv.DictReader(lines))  # plain CSV: no comment line to skip
    assert [r["tc"] for r in rows] == [r["tc"] for r in c["per_count"]]
    # what was played, beside it where CSV on the Web looks (the command and its seed)
    about = json.loads((tmp_path / "tc.csv-metadata.json").read_text())
    assert about["url"] == "tc.csv" and about["@context"] == "http://www.w3.org/ns/csvw"
    assert (
        about["rdfs:comment"][0].startswith("croupier sim")
        and "--seed 5" in about["rdfs:comment"][0]
    )
    # the same seed prints the same figures
    status, text, err = cli(*argv, *count, "--wong-out", "-1")
    assert status == 0, err
    assert "counting hilo" in text and "SCORE" in text and "sat out" in text


def test_sim_count_errors_are_one_line(cli):
    base = ("sim", "--strategy", "basic", "--hands", "100")
    for extra, words in (
        (("--ramp", "1:2"), "need --count"),
        (("--count", "hilo", "--engine", "python"), "compiled engine"),
        (("--count", "hilo", "--ramp", "x"), "ramp step"),
        (("--count", "hilo", "--indices", "/nonexistent.csv"), "--indices"),
        (("--count", "nosuch"), "nosuch"),
    ):
        status, _out, err = cli(*base, *extra)
        assert status != 0 and words in err, (extra, err)
        assert len(err.strip().splitlines()) == 1, err


def test_a_losing_count_shows_no_di_score_or_n0_and_says_why(cli):
    """A flat bet loses: DI, SCORE (which squares the sign away) and N0 mean nothing there,
    so neither the text nor the JSON gives them, and both say why."""
    argv = ("sim", "--strategy", "basic", "--hands", "20000", "--seed", "5", "--workers", "1")
    flat = ("--count", "hilo", "--ramp", "<=1:1,2:1", "--bankroll", "500")
    status, out, err = cli(*argv, *flat, "--json")
    assert status == 0, err
    c = json.loads(out)["counting"]
    assert c["ev_per_round"] < 0 and c["risk_of_ruin"] == 1
    assert c["di"] is None and c["score"] is None and c["n0"] is None
    assert set(c["bankroll_for_risk"].values()) == {None}
    assert "the EV is not positive" in c["advantage_note"]
    status, text, err = cli(*argv, *flat)
    assert status == 0, err
    assert not re.search(r"(DI|SCORE|N0) [-\d]", text)
    assert "are not shown: the EV is not positive" in text.replace("\n", " ")
    assert "risk of ruin of 500: 100.00%" in text
