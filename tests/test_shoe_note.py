"""``sim --shoe fresh-pack`` is the simulator's slow path: a long run says so first, in
one line on stderr, with how long it will take; a casino shoe or a short run does not."""

from __future__ import annotations

import re

from croupier.engine.chunks import CHUNK

ARGV = ("sim", "--rules", "vegas-s17", "--strategy", "basic", "--seed", "4", "--workers", "1")


def test_a_long_fresh_pack_run_says_it_is_slow_and_how_long(cli):
    hands = str(CHUNK + 1000)
    status, out, err = cli(*ARGV, "--shoe", "fresh-pack", "--hands", hands)
    assert status == 0, err
    (line,) = [x for x in err.splitlines() if "fresh-pack" in x]
    assert line.startswith("croupier: notice: --shoe fresh-pack shuffles the whole shoe")
    assert re.search(r"1,001,000 rounds take about \d+(\.\d)? (s|min|h) on this process$", line)
    assert "notice" not in out
    status, _, err = cli(*ARGV, "--hands", hands)  # the casino shoe: no notice
    assert status == 0 and "notice" not in err, err


def test_a_short_fresh_pack_run_has_no_notice(cli):
    status, _, err = cli(*ARGV, "--shoe", "fresh-pack", "--hands", "20000")
    assert status == 0 and "notice" not in err, err
