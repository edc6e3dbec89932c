"""The leaderboard page in headless Chromium: the ratings after a tournament played on a real
``croupier serve --http`` with a journal, and a bot's page with its rating at every fit."""

from __future__ import annotations

import pytest

from tests.webkit import screenshot

pytestmark = pytest.mark.slow


def test_the_leaderboard_shows_ratings_and_a_bots_history(served, page):
    bots = ["lim17", "never-bust", "mimic-dealer"]
    settings = {"tourneys": 3, "rounds": 2, "hands": 2, "seed": 5}
    started = served.call("tournament.start", named={"bots": bots, **settings})
    for _ in range(10_000):  # each call a round trip: until the server says it finished
        info = served.call("tournament.watch", started["tournament"])
        if info["state"] == "finished":
            break
    assert info["reason"] == "played"
    page.goto(served.url + "/leaderboard.html")
    rows = page.locator("#board tbody tr")
    rows.first.wait_for()
    names = {rows.nth(i).get_attribute("data-bot") for i in range(rows.count())}
    assert set(bots) <= names
    screenshot(page, "leaderboard")
    page.get_by_role("link", name="lim17", exact=True).click()
    page.locator("#fits tbody tr").first.wait_for()
    assert page.locator("#bot-title").inner_text() == "lim17"
    assert "None measured" in page.locator("#costliest").inner_text()
