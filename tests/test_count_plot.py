"""``croupier sim --count ... --plot FILE``: the per-count picture, PNG or SVG, and its
one-line refusals before anything is simulated."""

from __future__ import annotations

import json

ARGV = ("sim", "--strategy", "basic", "--hands", "200000", "--count", "hilo", "--seed", "3")
RAMP = ("--ramp", "<=1:1,2:2,3:4,4:6,5+:8")


def test_the_picture_is_drawn_as_png_and_svg(cli, tmp_path):
    png, svg = tmp_path / "counts.png", tmp_path / "counts.svg"
    status, _, err = cli(*ARGV, *RAMP, "--plot", str(png))
    assert status == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    status, _, err = cli(*ARGV, *RAMP, "--plot", str(svg))
    text = svg.read_text()
    assert status == 0 and text.lstrip().startswith("<?xml") and "<svg" in text, err
    assert "seed 3" in text  # the title says what was played and from which seed


def test_the_ev_panel_holds_every_count_and_its_whole_interval(cli, tmp_path):
    """Rare high counts (11 and up) have EVs and intervals far beyond the common counts':
    the panel grows to hold each point and its error bar instead of cutting them."""
    from croupier.clients.cli.countplot import count_figure

    status, out, err = cli(*ARGV, *RAMP, "--json", "--hands", "400000")
    assert status == 0, err
    rows = [r for r in json.loads(out)["counting"]["per_count"] if r["rounds"] > 0]
    assert any(r["tc"] in ("11", "12+") for r in rows)
    figure = count_figure(rows, "t")
    low, high = figure.axes[1].get_ylim()
    for r in rows:
        ci = r["flat_ev_ci95"] or [r["flat_ev"], r["flat_ev"]]
        assert low <= 100 * min(ci[0], r["flat_ev"]) and 100 * max(ci[1], r["flat_ev"]) <= high
    assert high > 6  # the old panel stopped near +6%
    from matplotlib import pyplot as plt  # imported here: a second of every worker's collection

    plt.close(figure)


def test_a_picture_that_cannot_be_drawn_is_refused_first(cli, tmp_path):
    for extra, message in [
        (("--plot", str(tmp_path / "counts.pdf")), "--plot writes a .png or .svg picture"),
        (("--plot", str(tmp_path / "no" / "where.png")), "no folder"),
    ]:
        status, out, err = cli(*ARGV, *extra)
        assert status == 1 and message in err and err.count("\n") == 1 and out == "", err
    status, _, err = cli("sim", "--plot", str(tmp_path / "x.png"))
    assert status == 1 and "need --count" in err


def test_an_index_set_is_drawn_as_a_chart(cli, tmp_path):
    chart = tmp_path / "indices.svg"
    argv = ("solve", "blackjack", "--rules", "single-deck", "--indices", "hilo")
    status, _, err = cli(*argv, "--only", "stand 16 T,split TT 5", "--plot", str(chart))
    text = chart.read_text()
    assert status == 0 and "<svg" in text, err
    assert "hilo indices" in text and "1 deck, h17" in text  # the title says what was solved
    status, _, err = cli("solve", "blackjack", "--plot", str(chart))
    assert status == 1 and "go with --indices COUNT" in err
    status, _, err = cli(*argv, "--plot", str(tmp_path / "indices.gif"))
    assert status == 1 and "--plot writes a .png or .svg picture" in err
