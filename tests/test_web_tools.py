"""The tool pages in headless Chromium, end to end against a real ``croupier serve --http``:
the Minesweeper analyser and the randomizer page, each checked against the engine called
directly in Python (screenshots under test-artifacts/screenshots/)."""

from __future__ import annotations

import json
from collections import Counter
from urllib.parse import urlencode

import pytest

from croupier.engine import PluginManager, Stream
from croupier.engine.randomizer_stats import collect_stats
from tests.webkit import screenshot

pytestmark = pytest.mark.slow

# dealt from 9 mines at random, opened around (2, 2) until no cell was certainly safe
BOARD = "??1?????\n1111????\n?101????\n?201????\n?212????\n????????"


def test_the_minesweeper_size_fields_say_the_board_shown(served, page):
    """Issue 34: the page opened with a 6x5 example board and the fields at 8x8."""
    page.goto(served.url + "/minesweeper.html")
    page.locator("#board td").first.wait_for()
    board = page.input_value("#board-text").splitlines()
    width, height = page.input_value("input[name=width]"), page.input_value("input[name=height]")
    assert (width, height) == (str(len(board[0])), str(len(board)))
    assert page.locator("#board tr").count() == len(board)
    page.fill("#board-text", BOARD)  # a pasted board: the fields follow it
    assert page.input_value("input[name=width]") == "8"
    assert page.input_value("input[name=height]") == "6"
    page.fill("input[name=width]", "3")
    page.get_by_role("button", name="New covered board").click()
    assert page.input_value("#board-text") == "???\n???\n???\n???\n???\n???"


def test_the_minesweeper_page_shows_the_exact_probabilities(served, page):
    expected = (
        PluginManager(autoload=False).solvers.get("minesweeper").solve({"board": BOARD, "mines": 9})
    )
    page.goto(served.url + "/minesweeper.html")
    page.locator("#board td").first.wait_for()
    # pasted with one number missing, which a click then marks
    rows = BOARD.splitlines()
    rows[4] = rows[4][:3] + "?" + rows[4][4:]
    page.fill("#mines", "9")
    page.fill("#board-text", "\n".join(rows))
    page.check('input[name=brush][value="2"]')
    page.locator('#board td[data-row="4"][data-col="3"]').click()
    assert page.input_value("#board-text") == BOARD
    page.locator("#board td.best").wait_for()
    cells = page.locator("#board td").evaluate_all(
        "tds => tds.map(td => [+td.dataset.row, +td.dataset.col, td.dataset.exact ?? null,"
        " td.classList.contains('mine'), td.classList.contains('safe')])"
    )
    shown = [[None] * expected["width"] for _ in range(expected["height"])]
    for row, col, exact, _, _ in cells:
        shown[row][col] = exact
    assert shown == expected["exact"]
    mines = sorted([r, c] for r, c, _, mine, _ in cells if mine)
    safes = sorted([r, c] for r, c, _, _, safe in cells if safe)
    assert mines == expected["certain_mines"] and safes == expected["certain_safes"] == []
    guess = expected["best_guess"]
    best = page.locator("#board td.best")
    assert (best.get_attribute("data-row"), best.get_attribute("data-col")) == (
        str(guess["row"]),
        str(guess["col"]),
    )
    assert f"mine probability {guess['exact']} = " in page.locator("#summary").inner_text()
    # each cell's exact probability on hover, and the arrow keys move between cells
    best.hover()
    info = page.locator("#cell-info").inner_text()
    assert info == f"row {guess['row'] + 1}, column {guess['col'] + 1}: covered, " + (
        f"mine probability {guess['exact']} = {100 * guess['probability']:.4g}%, the best guess"
    )
    best.focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.row") == str(guess["row"] + 1)
    screenshot(page, "minesweeper")


def test_the_randomizer_page_counts_what_randomizer_stats_counts(served, page):
    spec, seed, n = "tgm3", 2**62 + 5, 5000
    manager = PluginManager(autoload=False)
    pieces = manager.randomizer(spec, Stream(seed)).deal(n)
    expected = collect_stats(manager.randomizer(spec, Stream(seed)), n).as_dict()
    page.goto(f"{served.url}/randomizer.html?{urlencode({'spec': spec, 'seed': seed, 'n': n})}")
    page.get_by_text(f"Dealt {n} pieces").wait_for()
    assert page.locator("#pieces").inner_text().split() == pieces[:1000]
    shown = json.loads(page.locator("#summary").get_attribute("data-stats"))
    assert shown["counts"] == expected["counts"] and shown["repeats"] == expected["repeats"]
    interval = expected["interval"]
    assert shown["interval"]["histogram"] == interval["histogram"]
    assert shown["interval"]["percentiles"] == interval["percentiles"]
    assert (shown["interval"]["count"], shown["interval"]["max"]) == (
        interval["count"],
        interval["max"],
    )
    assert shown["interval"]["mean"] == pytest.approx(interval["mean"], rel=1e-12)
    assert shown["interval"]["variance"] == pytest.approx(interval["variance"], rel=1e-12)
    # per piece: each copy's distance to the one before it
    each: dict[str, Counter[str]] = {s: Counter() for s in expected["counts"]}
    last: dict[str, int] = {}
    for i, piece in enumerate(pieces):
        if piece in last:
            each[piece][str(i - last[piece])] += 1
        last[piece] = i
    assert shown["each"] == {s: dict(c) for s, c in each.items()}
    assert page.locator("#per-symbol figure svg[role=img]").count() == len(expected["counts"])
    screenshot(page, "randomizer")
    # spec text with a mistake: the server's one line, with its column
    page.fill("#spec", "7 bag of I,J,L then nonsense")
    page.get_by_role("button", name="Deal").click()
    status = page.locator("#status.error")
    status.wait_for()
    assert "column" in status.inner_text() and "\n" not in status.inner_text()
