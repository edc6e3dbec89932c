"""The replay and tournament pages in headless Chromium, end to end against a real
``croupier serve --http`` with a journal (screenshots under test-artifacts/screenshots/)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.webkit import Served, screenshot

pytestmark = pytest.mark.slow


def finished(served: Served, method: str, ident: int, within: float = 60) -> Any:
    """``method(ident)`` once it says finished (the server plays on its own)."""
    deadline = time.monotonic() + within
    while (info := served.call(method, ident))["state"] != "finished":
        assert time.monotonic() < deadline, info
        time.sleep(0.05)
    return info


def test_a_finished_table_replays_step_by_step(served, page):
    created = served.call(
        "table.create",
        named={"seats": 2, "fill": ["lim17", "never-bust"], "rounds": 3, "seed": 11},
    )
    table = created["table"]
    info = finished(served, "table.info", table)
    events = served.call("history.events", table)
    starts = [i for i, e in enumerate(events) if e["kind"] == "round"]
    assert len(starts) == 3
    page.goto(f"{served.url}/replay.html?table={table}")
    page.locator("#controls").wait_for()
    assert page.locator("#where").inner_text() == f"0 of {len(events)}"
    assert page.locator("#felt .card").count() == 0
    # the keyboard: one event, then a round at a time, the end and back to the start
    page.keyboard.press("ArrowRight")
    assert page.locator("#now").inner_text() == "Round 1"
    page.keyboard.press("PageDown")
    assert page.locator("#where").inner_text() == f"{starts[1] + 1} of {len(events)}, round 2"
    page.keyboard.press("PageUp")
    assert page.locator("#where").inner_text() == f"{starts[0] + 1} of {len(events)}, round 1"
    page.keyboard.press("End")
    assert page.locator("#now").inner_text() == "Round 3 is settled"
    # every card of the last round drawn, named; the chips counted from the events are the
    # table's own, as on the live page
    last = events[starts[-1] :]
    dealt = [e["card"] for e in last if e["kind"] in ("deal", "reveal") and e["card"] != "#"]
    names = page.locator("#felt .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert len(names) == len(dealt) and all(" of " in n for n in names), names
    for seat, chips in zip(info["seats"], info["chips"], strict=True):
        meta = page.locator(f'#seats li[data-seat="{seat["seat"]}"] .meta').inner_text()
        assert meta.startswith(f"chips {chips} "), (meta, chips)
    screenshot(page, "replay")
    # the buttons: back one event, then to the start; the address keeps the step
    page.get_by_role("button", name="previous event").click()
    assert page.locator("#where").inner_text().startswith(f"{len(events) - 1} of ")
    assert page.url.endswith(f"at={len(events) - 1}")
    page.get_by_role("button", name="to the start").click()
    assert page.locator("#felt .card").count() == 0
    assert page.get_by_role("button", name="previous event").is_disabled()
    # the lobby links the finished table to its replay
    page.goto(served.url + "/")
    link = page.locator(f'#tables tr[data-table="{table}"] a[href^="/replay.html"]')
    link.wait_for()
