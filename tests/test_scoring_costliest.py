"""Each bot's costliest decisions carry where they were taken (the tournament table's
tourney, round and table, and the hand), so a replay finds them: ``croupier tournament
--score --json`` and the log it writes agree on each one."""

from __future__ import annotations

import json
from typing import Any


def test_each_costliest_decision_is_found_in_the_log_where_it_says(cli: Any, tmp_path: Any) -> None:
    log = tmp_path / "t.jsonl"
    argv = ("tournament", "--game", "three-card-poker", "optimal", "always-play", "--score")
    settings = ("--tourneys", "2", "--rounds", "2", "--seed", "4")
    status, out, err = cli(*argv, *settings, "--json", "--log", str(log))
    assert status == 0, err
    result = json.loads(out)
    optimal, always = result["scores"]
    assert optimal["costliest"] == []  # the oracle's best play gives up nothing
    assert len(always["costliest"]) == 5
    tables: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    current: list[dict[str, Any]] = []
    for line in map(json.loads, log.read_text().splitlines()):
        if "table" in line and isinstance(line["table"], dict):
            job = line["table"]
            current = tables.setdefault((job["tourney"], job["round"], job["table"]), [])
        elif "scored" in line:
            current.append(line["scored"])
    for decision in always["costliest"]:
        key = tuple(decision["table"])
        assert decision in tables[key]  # the log's table it names holds it, as it says
        hands = {d["round"] for d in tables[key]}
        assert decision["round"] in hands
    losses = [d["loss"] for d in always["costliest"]]
    assert losses == sorted(losses, reverse=True) and losses[0] > 0
    status, text, err = cli(*argv, *settings)
    assert status == 0, err
    first = always["costliest"][0]
    t, r, n = first["table"]
    assert f"always-play's costliest: tourney {t} round {r} table {n} hand {first['round']}" in (
        " ".join(text.split())
    )
