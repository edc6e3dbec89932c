"""A bot's costliest decisions on the leaderboard page, each a link to where it can be seen
again, end to end on a real ``croupier serve --http`` with a journal: a scored server table's
opens the replay viewer at the step of that very decision (its seat's action of that round,
the action scored); a scored tournament's opens the replay of its tournament table (dealt
again from its seed: ``history.tournament_events``) at its seat's action of that hand."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def test_each_costliest_decision_links_where_it_can_be_seen(served, page):
    bots = ["always-play", "optimal"]
    poker = {"game": "three-card-poker", "scored": True, "seed": 7}
    # its creator stays connected until it finished: one that left would have it abandoned
    # after 30 s, unrated, on a loaded machine (it started a scoring worker meanwhile)
    started = served.tournament_played(bots=bots, tourneys=1, rounds=1, hands=4, **poker)
    assert (started["state"], started["reason"]) == ("finished", "played")
    table, _ = served.played(seats=2, fill=bots, rounds=40, **poker)
    for _ in range(10_000):  # the answers come from a thread, maybe after the table
        info = served.call("history.table", table)
        if "scores" in info and info["scores"][0]["rounds"] == 40:
            break
    board = served.call("leaderboard", "always-play")
    line = next(b for b in board["bots"] if b["name"] == "always-play")
    worst = line["skill"]["costliest"]
    assert [d["loss"] for d in worst] == sorted((d["loss"] for d in worst), reverse=True)
    at_tables = [d for d in worst if "tournament" not in d]
    at_tourneys = [d for d in worst if "tournament" in d]
    assert at_tables and at_tourneys  # both kinds: the longer table holds the costlier ones
    events = served.call("history.events", table)
    for d in at_tables:  # the step the link names is the decision's own action
        assert d["table"] == table and d["best"] == "fold" and d["taken"] == "play"
        action = events[d["at"] - 1]
        assert (action["kind"], action["round"], action["seat"]) == ("action", d["round"], 1)
        assert action["action"]["kind"] == "play"
    for d in at_tourneys:
        assert d["tournament"] == started["tournament"] and len(d["table"]) == 3
    assert next(b for b in board["bots"] if b["name"] == "optimal")["skill"].get("costliest") in (
        None,
        [],
    )  # the oracle's best play gives up nothing

    page.goto(f"{served.url}/leaderboard.html?bot=always-play")
    links = page.locator("#costliest li a")
    links.first.wait_for()
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [
        f"/replay.html?tournament={d['tournament']}&tourney={d['table'][0]}"
        f"&round={d['table'][1]}&table={d['table'][2]}&hand={d['round']}&seat={d['seat']}"
        f"&taken={d['taken']}"
        if "tournament" in d
        else f"/replay.html?table={d['table']}&at={d['at']}"
        for d in worst
    ]
    first = at_tables[0]
    page.locator(f"#costliest a[href='/replay.html?table={table}&at={first['at']}']").first.click()
    page.locator("#controls").wait_for()
    where = page.locator("#where")
    assert where.inner_text() == f"{first['at']} of {len(events)}, round {first['round']}"

    # a tournament table's decision: its replay, at that seat's action of that hand
    d = at_tourneys[0]
    dealt = served.call("history.tournament_events", d["tournament"], *d["table"], 0, 1000)
    step = next(
        i + 1
        for i, e in enumerate(dealt)
        if e["kind"] == "action" and (e["round"], e["seat"]) == (d["round"], d["seat"])
        and e["action"]["kind"] == d["taken"]
    )  # fmt: skip
    page.goto(f"{served.url}{hrefs[worst.index(d)]}")
    page.locator("#controls").wait_for()
    assert where.inner_text() == f"{step} of {len(dealt)}, round {d['round']}"
    assert "of tournament" in page.locator("#title").inner_text()
