"""The lobby's finished tables and tournaments from a server's history, in headless Chromium:
a server plays them and is restarted on its journal, so only the history knows them; the
lobby pages through them (previous and next, by mouse and keyboard) and links each to its
replay or its page. A server without a journal says so and lists what it holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.webkit import Served, drawn, screenshot

pytestmark = pytest.mark.slow

PER = 5
TABLES = 12  # three pages of PER: 5, 5 and 2


@pytest.fixture(scope="module")
def restarted(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> Iterator[tuple[Served, list[int], dict[str, Any]]]:
    """A server restarted on the journal of one that played TABLES tables and a tournament:
    the tables' ids, the tournament's final info. (``browser`` first: no Chromium, no work.)"""
    journal = tmp_path_factory.mktemp("lobby") / "journal.db"
    first = Served("--seed", "7", "--data", str(journal))
    try:
        tables = [
            first.played(seats=1, fill=["lim17"], rounds=1, seed=seed)[0] for seed in range(TABLES)
        ]
        tournament = first.tournament_played(
            bots=["lim17", "never-bust", "mimic-dealer"], tourneys=3, rounds=2, hands=2, seed=3
        )
    finally:
        first.stop()
    again = Served("--seed", "8", "--data", str(journal))
    try:
        yield again, tables, tournament
    finally:
        again.stop()


def shown_tables(page: Any) -> list[int]:
    return page.locator("#finished-tables tbody tr").evaluate_all(
        "trs => trs.map(tr => Number(tr.dataset.table))"
    )


def on_page(page: Any, number: int) -> None:
    """Wait until the finished tables' page ``number`` is drawn (section[data-page])."""
    page.locator(f'#finished-tables[data-page="{number}"]').wait_for(state="attached")


def test_the_lobby_pages_through_the_finished_tables_of_its_history(restarted, page):
    served, played, _ = restarted
    assert served.call("table.list") == []  # a new process: only its history knows them
    history = served.call("history.tables", named={"state": "finished", "limit": 1000})
    ids = [t["table"] for t in history["tables"]]
    assert history["total"] == TABLES and sorted(ids, reverse=True) == ids == played[::-1]
    pages = [ids[i : i + PER] for i in range(0, TABLES, PER)]
    assert [len(p) for p in pages] == [5, 5, 2]

    page.goto(f"{served.url}/?per={PER}")
    section = page.locator("#finished-tables")
    previous = page.get_by_role("button", name="previous page of finished tables")
    following = page.get_by_role("button", name="next page of finished tables")
    for number, rows in enumerate(pages, start=1):
        on_page(page, number)
        assert shown_tables(page) == rows
        links = section.locator("tbody a").evaluate_all("a => a.map(x => x.getAttribute('href'))")
        assert links == [f"/replay.html?table={t}" for t in rows]
        first = (number - 1) * PER + 1
        assert section.locator(".where").inner_text() == (
            f"{first} to {first + len(rows) - 1} of {TABLES} table(s), newest first "
            f"(page {number} of {len(pages)})"
        )
        assert previous.is_disabled() == (number == 1)
        assert following.is_disabled() == (number == len(pages))
        if number == 1:
            assert page.locator("#no-tables").is_visible()  # nothing open
            screenshot(page, "lobby-history")
        if number < len(pages):
            following.click()
    assert page.url.endswith(f"?per={PER}&tables-page={len(pages)}")  # a page can be linked to
    # the last page's next button is disabled under the keyboard: the focus is on previous,
    # and Enter goes back a page
    assert page.evaluate("document.activeElement.classList.contains('prev')")
    page.keyboard.press("Enter")
    on_page(page, 2)
    assert shown_tables(page) == pages[1]
    # an address with a page opens on it; a row's link opens its replay
    page.goto(f"{served.url}/?per={PER}&tables-page=3")
    on_page(page, 3)
    assert shown_tables(page) == pages[2]
    section.locator(f'a[href="/replay.html?table={pages[2][0]}"]').click()
    page.locator("#controls").wait_for()
    drawn(page, 0)
    assert page.locator("#title").inner_text() == f"Table {pages[2][0]}"


def test_a_finished_tournament_of_the_history_shows_its_final_standings(restarted, page):
    served, _, final = restarted
    ident = final["tournament"]
    assert served.call("tournament.list") == []
    page.goto(served.url + "/")
    link = page.locator(f'#finished-tournaments tr[data-tournament="{ident}"] a')
    assert link.get_attribute("href") == f"/tournament.html?tournament={ident}"
    link.click()
    page.locator("#from-history").wait_for()  # the server holds it no more: its history
    rows = page.locator("#standings tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.children].slice(0, 4).map(td => td.textContent))"
    )
    assert rows == [
        [str(s["rank"]), s["name"], f"{s['mean']:.1f}", f"{s['low']:.1f} to {s['high']:.1f}"]
        for s in final["result"]["standings"]
    ]
    assert page.locator("#status").inner_text().startswith("Finished")
    assert page.locator("svg.curves").count() == 0
    screenshot(page, "tournament-history")


def test_a_lobby_without_a_history_says_so_and_lists_what_the_server_holds(browser, page):
    served = Served("--seed", "9", "--data", ":memory:")
    try:
        table, _ = served.played(seats=1, fill=["lim17"], rounds=1)
        page.goto(served.url + "/")
        row = page.locator(f'#finished-tables tr[data-table="{table}"]')
        row.wait_for()
        # no history to replay from: the link is the table's own page, its final chips
        assert row.get_by_role("link").get_attribute("href") == f"/table.html?table={table}"
        note = page.locator("#finished-tables .note").inner_text()
        assert "journal" in note and note.endswith("the last finished ones the server still holds.")
        assert page.locator("#finished-tables .pager").is_hidden()
    finally:
        served.stop()
