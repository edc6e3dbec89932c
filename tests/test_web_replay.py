"""The replay and tournament pages in headless Chromium, end to end against a real
``croupier serve --http`` with a journal (screenshots under test-artifacts/screenshots/)."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys

import pytest

from tests.webkit import drawn, screenshot

pytestmark = pytest.mark.slow


def test_a_finished_table_replays_step_by_step(served, page):
    table, info = served.played(seats=2, fill=["lim17", "never-bust"], rounds=3, seed=11)
    events = served.call("history.events", table)
    starts = [i for i, e in enumerate(events) if e["kind"] == "round"]
    assert len(starts) == 3
    page.goto(f"{served.url}/replay.html?table={table}")
    page.locator("#controls").wait_for()
    drawn(page, 0)
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
    drawn(page, len(events))
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
    drawn(page, 0)
    assert page.locator("#felt .card").count() == 0
    assert page.get_by_role("button", name="previous event").is_disabled()
    # the lobby links the finished table to its replay
    page.goto(served.url + "/")
    link = page.locator(f'#finished-tables tr[data-table="{table}"] a[href^="/replay.html"]')
    link.wait_for()


def test_a_baccarat_table_replays_with_its_own_view(served, page):
    table, info = served.played(game="baccarat", seats=2, fill=["banker", "player"], rounds=2)
    events = served.call("history.events", table)
    coup = [e for e in events if e["kind"] == "coup"]
    page.goto(f"{served.url}/replay.html?table={table}&at=1000")  # past the end
    page.locator("#controls").wait_for()
    drawn(page, len(events))
    cards = page.locator("#dealer .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert len(cards) == len(coup[-1]["player"]) + len(coup[-1]["banker"])
    for seat, chips in zip(info["seats"], info["chips"], strict=True):
        meta = page.locator(f'#seats li[data-seat="{seat["seat"]}"] .meta').inner_text()
        assert meta.startswith(f"chips {chips} "), (meta, chips)


def test_three_card_poker_hands_are_face_down_from_the_deal_to_the_decisions(served, page):
    """Issue 34: between the last ante and the first play or fold the hands were dealt but
    drawn as "no cards"; the game has no event of its own for the deal: the view deals once
    every seat that can ante has bet or passed."""
    table, _ = served.played(game="three-card-poker", seats=3, fill=["optimal"] * 3, rounds=2)
    events = served.call("history.events", table)
    decided = next(
        i for i, e in enumerate(events) if e["round"] == 2 and e["kind"] in ("play", "fold")
    )
    bets = [i for i, e in enumerate(events[:decided]) if e["round"] == 2 and e["kind"] == "bet"]
    assert len(bets) == 3  # then the table's record of seat 1's decision, then its play
    backs = "cards => cards.map(c => c.getAttribute('aria-label'))"
    for at, dealt in ((bets[-1], False), (bets[-1] + 1, True), (decided, True)):
        page.goto(f"{served.url}/replay.html?table={table}&at={at}")
        page.locator("#controls").wait_for()
        drawn(page, at)
        expected = ["a face-down card"] * 3 if dealt else []
        assert page.locator("#dealer .card").evaluate_all(backs) == expected, at
        for seat in (1, 2, 3):
            hand = page.locator(f'#seats li[data-seat="{seat}"] .card').evaluate_all(backs)
            assert hand == expected, (at, seat)
        assert page.get_by_text("no cards").count() == (0 if dealt else 4)
    screenshot(page, "replay-three-card-poker-dealt")


def test_a_live_tournament_shows_standings_tables_and_chip_curves(served, page):
    rounds = 6
    started = served.call(
        "tournament.start",
        named={
            "bots": ["tcp", "lim17", "never-bust", "mimic-dealer", "lim17"],
            "tourneys": 6,
            "rounds": rounds,
            "hands": 3,
        },
    )
    ident = started["tournament"]
    page.goto(f"{served.url}/tournament.html?tournament={ident}")
    page.get_by_text("Waiting for its TCP bots").wait_for()
    assert "tcp (free seat)" in page.locator("#summary").inner_text()
    committed = f"seed hidden until it finishes (commitment {started['commit'][:16]}"
    assert committed in page.locator("#summary").inner_text()  # a tcp bot would read it
    # remember the tables in play as they are shown (they are gone once it finishes)
    page.evaluate(
        """() => { window.seen = [];
            new MutationObserver(() => {
                const row = document.querySelector("#tables li:not(.muted):not(.round)");
                if (row) window.seen.push(row.textContent);
            }).observe(document.getElementById("tables"), { childList: true }); }"""
    )
    where = ["--connect", f"127.0.0.1:{served.port}", "--tournament", str(ident)]
    where += ["--key", started["join_key"]]
    subprocess.run(
        [sys.executable, "-m", "croupier.clients.cli", "bot", "lim17", "--json", *where],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    page.locator("#status", has_text="Finished").wait_for()
    final = served.call("tournament.info", ident)
    assert final["state"] == "finished"
    assert f"; seed {final['seed']}; " in page.locator("#summary").inner_text()  # revealed
    # it was watched while it played: a status at each round's start and end at least
    assert int(page.locator("body").get_attribute("data-updates")) > 2 * rounds
    seen = page.evaluate("window.seen")
    assert seen and all(row.startswith("Run 1, table 1: ") for row in seen), seen
    assert any("lim17 (" in row for row in seen)
    rows = page.locator("#standings tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.children].slice(0, 4).map(td => td.textContent))"
    )
    expected = [
        [
            f"{s['rank']}{'=' if s.get('tied') else ''}",
            s["name"],
            f"{s['mean']:.1f}",
            f"{s['low']:.1f} to {s['high']:.1f}",
        ]
        for s in final["result"]["standings"]
    ]
    assert rows == expected
    # one curve per bot, a point per round and the start, ending at its mean
    curves = page.locator("svg.curves polyline").evaluate_all(
        "ps => ps.map(p => [p.dataset.bot, p.getAttribute('points').split(' ').length])"
    )
    assert curves == [[c["name"], rounds + 1] for c in final["live"]["curves"]]
    assert sorted(c["name"] for c in final["live"]["curves"]) == sorted(r[1] for r in rows)
    # the chips axis: round ticks (1, 2 or 5 times a power of ten apart) spanning every
    # point, not the data's own lowest, middle and highest values (issue 34)
    labels = page.locator("svg.curves text.tick").evaluate_all("ts => ts.map(t => t.textContent)")
    ticks = [float(t) for t in labels]
    chips = [v for c in final["live"]["curves"] for v in c["chips"] if v is not None]
    assert ticks[0] <= min(chips) and ticks[-1] >= max(chips) and len(ticks) >= 3
    step = ticks[1] - ticks[0]
    assert step / 10 ** math.floor(math.log10(step)) in (1, 2, 5)
    assert all(math.isclose(b - a, step) for a, b in itertools.pairwise(ticks))
    assert all(math.isclose(t / step, round(t / step)) for t in ticks)
    legend = page.locator("#legend").inner_text()
    for line in final["result"]["standings"]:
        assert f"{line['name']}: {line['mean']:.1f}" in legend
    screenshot(page, "tournament")
    # the lobby links the tournament to its page
    page.goto(served.url + "/")
    page.locator(f'#finished-tournaments a[href="/tournament.html?tournament={ident}"]').wait_for()
