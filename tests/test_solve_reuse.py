"""``croupier solve blackjack --indices COUNT`` asked again for the same set (to ``--plot``
it, say) reuses the solution it kept instead of solving for minutes again; ``--fresh``
solves again; other rules or decisions are another problem."""

from __future__ import annotations

import json

from croupier.clients.cli.solvecache import cache_dir

ARGV = ("solve", "blackjack", "--rules", "single-deck", "--indices", "hilo")
ONLY = ("--only", "stand 16 T")


def test_the_same_index_set_is_solved_once(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    status, out, err = cli(*ARGV, *ONLY, "--json")
    assert status == 0 and "reused" not in err, err
    first = json.loads(out)
    (kept,) = cache_dir().glob("*.json")
    assert json.loads(kept.read_text()) == first
    # mark the kept solution: what the next command shows comes from it, not a new solve
    kept.write_text(json.dumps({**first, "solves": 424242}))
    chart = tmp_path / "hilo.svg"
    status, out, err = cli(*ARGV, *ONLY, "--json", "--plot", str(chart))
    assert status == 0 and "<svg" in chart.read_text(), err
    assert "hilo indices solved before for these rules, reused" in err
    assert json.loads(out) == {**first, "solves": 424242}
    status, out, err = cli(*ARGV, *ONLY, "--json", "--fresh")
    assert status == 0 and "reused" not in err and json.loads(out) == first
    assert json.loads(kept.read_text()) == first  # the fresh solve is kept
    status, out, err = cli(*ARGV, "--only", "stand 16 9", "--json", "--workers", "1")
    assert status == 0 and "reused" not in err and json.loads(out) != first


def test_an_unwritable_cache_only_costs_time(cli, tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("CROUPIER_CACHE", str(blocked / "solves"))
    for _ in range(2):
        status, out, err = cli(*ARGV, *ONLY, "--json")
        assert status == 0 and "reused" not in err and json.loads(out)["indices"], err
