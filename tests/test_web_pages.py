"""The web page in headless Chromium, end to end: a real ``croupier serve --http``, real TCP
bots, the page as a person sees it (screenshots of each page under test-artifacts/); the
tables of other games and followed live: test_web_game_tables.py."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import msgpack
import pytest

from tests.webkit import PHONE, drawn, screenshot

pytestmark = pytest.mark.slow


# every type the protocol uses, at each size boundary msgpack has
CODEC_CASES: list[Any] = [
    None,
    True,
    False,
    0,
    127,
    128,
    255,
    256,
    65535,
    65536,
    2**32 - 1,
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**64 - 1,
    -1,
    -32,
    -33,
    -128,
    -129,
    -32768,
    -32769,
    -(2**31),
    -(2**31) - 1,
    -(2**63),
    1.5,
    -0.25,
    1e300,
    "",
    "é♠",
    "x" * 31,
    "x" * 32,
    "y" * 300,
    "z" * 70000,
    b"",
    b"\x00\xff",
    bytes(300),
    bytes(70000),
    list(range(15)),
    list(range(16)),
    list(range(70000)),
    {f"k{i}": i for i in range(15)},
    {f"k{i}": i for i in range(16)},
    [0, 7, "table.event", [28512345678, {"kind": "deal", "card": "QC", "soft": False}]],
]


def test_the_msgpack_codec_reads_and_writes_what_python_does(served, page):
    page.goto(served.url + "/")
    wire = [msgpack.packb(case).hex() for case in CODEC_CASES]
    answer = page.evaluate(
        """async (wire) => {
            const { encode, decode, decodeAll } = await import("/js/msgpack.js");
            const bytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
            const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, "0")).join("");
            const fails = (f) => { try { f(); return false; } catch (e) { return true; } };
            return {
                again: wire.map((w) => hex(encode(decode(bytes(w))))),
                types: [2 ** 53 - 1, 2 ** 53 + 1, -(2 ** 63)]
                    .map((n) => typeof decode(encode(BigInt(n)))),
                cut: fails(() => decode(bytes(wire[wire.length - 1]).slice(0, 5))),
                trailing: fails(() => decode(new Uint8Array([1, 2]))),
                nonString: fails(() => decode(new Uint8Array([0x81, 0x01, 0x02]))),
                proto: Object.getPrototypeOf(decode(encode(JSON.parse('{"__proto__": {"x": 1}}'))))
                    === Object.prototype,
                object: hex(encode({ a: 1, b: [true, null, "c"] })),
                // a frame of the server's: whole messages one after another
                frame: decodeAll(bytes(wire.join(""))).map((v) => hex(encode(v))),
                none: decodeAll(new Uint8Array(0)).length,
                frameCut: fails(() => decodeAll(bytes(wire.slice(0, 10).join("")).slice(0, -1))),
            };
        }""",
        wire,
    )
    # re-encoding gives Python's bytes exactly: the same values, in the smallest form
    for case, mine, theirs in zip(CODEC_CASES, wire, answer["again"], strict=True):
        assert theirs == mine, repr(case)[:60]
    assert answer["frame"] == wire and answer["none"] == 0 and answer["frameCut"]
    assert answer["types"] == ["number", "bigint", "bigint"]
    assert answer["cut"] and answer["trailing"] and answer["nonString"] and answer["proto"]
    assert msgpack.unpackb(bytes.fromhex(answer["object"])) == {"a": 1, "b": [True, None, "c"]}


def test_the_lobby_lists_a_running_table(served, page):
    created = served.call(
        "table.create",
        named={"seats": 3, "fill": ["lim17", "never-bust", "mimic-dealer"], "rounds": 1_000_000}
        | {"options": {"starting_chips": 10**9}},  # never broke: it plays on
    )
    try:
        page.goto(served.url + "/")
        row = page.locator(f'#tables tr[data-table="{created["table"]}"]')
        row.wait_for()
        assert "playing" in row.inner_text()
        assert "lim17, never-bust, mimic-dealer" in row.inner_text()
        assert row.get_by_role("link").get_attribute("href") == (
            f"/table.html?table={created['table']}"
        )
        screenshot(page, "lobby")
    finally:
        served.call("table.stop", created["table"], created["key"])


# every word (or number) of the lobby's lists that the browser cut across two lines
CUT_WORDS = """() => {
    const cut = [];
    for (const cell of document.querySelectorAll("main table td")) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (lines.size > 1) cut.push(word[0]);
            }
        }
    }
    return cut;
}"""


def test_the_lobby_on_a_phone_cuts_no_word_or_number(served, page):
    """Issue 34: at 390x844 the lobby's columns were squeezed until "blackjack" and
    "1000 / 10000" broke mid-way; on a phone each row is now a block of labelled cells."""
    created = served.call(
        "table.create",
        named={"game": "three-card-poker", "seats": 2, "fill": [None, "optimal"], "rounds": 9},
    )
    other = served.call(
        "table.create",
        named={"seats": 3, "fill": ["lim17", "never-bust", "mimic-dealer"]}
        | {"rounds": 1_000_000, "options": {"starting_chips": 10**9}},  # never broke: it plays on
    )
    tournament = served.call(
        "tournament.start",
        named={"bots": ["lim17", "never-bust", "basic"], "tourneys": 100, "rounds": 100}
        | {"hands": 10, "seed": 5},
    )
    try:
        page.set_viewport_size(PHONE)
        page.goto(served.url + "/")
        page.locator(f'#tables tr[data-table="{other["table"]}"]').wait_for()
        page.locator(f'#tournaments tr[data-tournament="{tournament["tournament"]}"]').wait_for()
        page.locator("#finished-tables[data-page]").wait_for()
        assert page.evaluate(CUT_WORDS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        row = page.locator(f'#tables tr[data-table="{created["table"]}"]')
        game = row.locator("td").nth(1)  # each cell after its column's name
        assert (game.get_attribute("data-label"), game.inner_text()) == ("Game", "three-card-poker")
        screenshot(page, "lobby-phone")
    finally:
        served.call("table.stop", created["table"], created["key"])
        served.call("table.stop", other["table"], other["key"])
        served.call("tournament.stop", tournament["tournament"], tournament["key"])


def test_the_lobby_says_when_the_server_is_slow_and_catches_up(served, page):
    """The page's first ``table.list`` is held back for ever (a WebSocket route between the
    page and the server), on the page's fake clock: after 10 s the status line says the
    server is slow, and the next refresh shows the table all the same."""
    held: list[bytes | str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: bytes | str) -> None:
            call = msgpack.unpackb(message) if isinstance(message, bytes) else None
            if not held and isinstance(call, list) and call[2:3] == ["table.list"]:
                held.append(message)
                return
            server.send(message)

        ws.on_message(from_page)

    created = served.call(
        "table.create",
        named={"seats": 1, "fill": ["lim17"], "rounds": 1_000_000}
        | {"options": {"starting_chips": 10**9}},  # never broke: it plays on
    )
    try:
        page.clock.install()
        page.route_web_socket("**/rpc", route)
        page.goto(served.url + "/")
        for _ in range(400):  # until the page has asked (the route runs as playwright waits)
            if held:
                break
            page.wait_for_timeout(25)
        assert held, "the lobby never asked for the tables"
        status = page.locator("#status")
        assert "slow" not in status.inner_text()
        page.clock.run_for(10_000)
        status.filter(has_text="The server is slow to answer").wait_for()
        page.clock.run_for(2_000)  # the next tick asks again, and is answered
        page.locator(f'#tables tr[data-table="{created["table"]}"]').wait_for()
        status.filter(has_text="open table(s)").wait_for()
    finally:
        served.call("table.stop", created["table"], created["key"])


def test_a_live_table_shows_the_cards_and_settles_as_tcp_bots_play(served, page):
    created = served.call(
        "table.create", named={"seats": 2, "fill": [None, "lim17"], "rounds": 3, "seed": 5}
    )
    table = created["table"]
    page.goto(f"{served.url}/table.html?table={table}")
    page.locator("#seats li").nth(1).wait_for()
    assert "Waiting" in page.locator("#status").inner_text()
    summary = page.locator("#summary").inner_text()  # a bot could read the cards from a seed
    assert f"seed hidden until it finishes (commitment {created['commit'][:16]}" in summary
    assert "seed 5" not in summary
    where = ["--connect", f"127.0.0.1:{served.port}", "--table", str(table)]
    bot = subprocess.run(
        [sys.executable, "-m", "croupier.clients.cli", "bot", "lim17", "--json", *where],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    final = json.loads(bot.stdout)
    page.get_by_text("Round 3 is settled").wait_for()
    page.get_by_text("Finished").wait_for()
    # the page watched from before the first event: its drawing shows every one of them
    drawn(page, len(served.call("history.events", table)))
    # cards drawn as cards, each named for screen readers; the dealer's hole card turned over
    names = page.locator(".card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert names and all(" of " in name for name in names), names
    log = page.locator("#log").inner_text()
    assert "The dealer turns over the" in log
    assert "The dealer deals the hole card face down" in log
    assert any(f"Seat 1 (lim17) {word}" in log for word in ("wins", "loses", "pushes", "busts"))
    # the chips the page counted from the events are the table's own
    info = served.call("table.info", table)
    assert info["state"] == "finished"
    page.locator("#summary", has_text="; seed 5; ").wait_for()  # revealed once finished
    for seat, chips in zip(info["seats"], info["chips"], strict=True):
        meta = page.locator(f'#seats li[data-seat="{seat["seat"]}"] .meta').inner_text()
        assert meta.startswith(f"chips {chips} "), (meta, chips)
    assert final["table"]["chips"] == info["chips"] and final["table"]["played"] == 3
    screenshot(page, "table")


def test_the_chart_page_matches_croupier_solve_blackjack(served, page):
    cli = served.cli("solve", "blackjack", "--rules", "single-deck", "--h17", "--json")
    expected = json.loads(cli.stdout)["chart"]
    page.goto(f"{served.url}/games/blackjack/chart.html?rules=single-deck&dealer=h17")
    page.locator('table.chart[data-section="pairs"] td').first.wait_for(timeout=60_000)
    cells = page.locator("table.chart td").evaluate_all(
        "tds => tds.map(td => [td.dataset.section, td.dataset.row, td.dataset.col, td.textContent])"
    )
    shown: dict[str, dict[str, list[str]]] = {}
    for section, row, _col, letters in cells:
        shown.setdefault(section, {}).setdefault(row, []).append(letters)
    assert shown == {s: expected[s] for s in ("hard", "soft", "pairs")}
    assert page.locator("select[name=dealer]").input_value() == "h17"
    # the page is the blackjack plugin's: the pages menu lists it, from the game's web files
    page.locator('nav[data-games="added"]').wait_for()
    assert page.locator('nav a[aria-current="page"]').inner_text() == "Strategy chart"
    # each cell's EVs on hover, and the arrow keys move between cells
    cell = page.locator('table.chart[data-section="hard"] td[data-row="16"][data-col="T"]')
    cell.hover()
    evs = page.locator("#evs").inner_text()
    stand = expected["values"]["hard"]["16"][8]["stand"]
    assert evs.startswith("hard 16 against T: ") and f"stand {stand:+.4f}".replace("-", "−") in evs
    cell.focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.row") == "17"
    assert page.locator("#evs").inner_text().startswith("hard 17 against T")
    screenshot(page, "chart")


@pytest.mark.parametrize(
    ("lo", "hi", "ticks"),
    [
        (987.3, 1012.6, [980, 990, 1000, 1010, 1020]),
        (0, 1, [0, 0.5, 1]),  # at most about 4 steps: 0.5, not 0.25
        (1000, 1000, [999, 999.5, 1000, 1000.5, 1001]),
        (-37, 140, [-50, 0, 50, 100, 150]),
    ],
)
def test_axis_ticks_are_round_numbers(served, page, lo, hi, ticks):
    page.goto(served.url + "/")
    got = page.evaluate(
        "async ([lo, hi]) => (await import('/js/svg.js')).niceTicks(lo, hi)", [lo, hi]
    )
    assert got == ticks


def test_a_table_finished_before_the_page_opened_shows_its_last_round(served, page):
    """Issue 34: the finished table's page showed an empty felt (its final chips only)."""
    table, info = served.played(seats=2, fill=["lim17", "never-bust"], rounds=3, seed=12)
    events = served.call("history.events", table)
    last = [e for e in events if e["round"] == 3]
    page.goto(f"{served.url}/table.html?table={table}")
    drawn(page, len(last))
    assert page.locator("#status").inner_text().startswith("Finished")
    dealt = [e["card"] for e in last if e["kind"] in ("deal", "reveal") and e["card"] != "#"]
    names = page.locator("#felt .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert len(names) == len(dealt) and all(" of " in n for n in names), names
    for seat, chips in zip(info["seats"], info["chips"], strict=True):
        meta = page.locator(f'#seats li[data-seat="{seat["seat"]}"] .meta').inner_text()
        assert meta.startswith(f"chips {chips} "), (meta, chips)
    log = page.locator("#log li").all_inner_texts()
    assert log[-1] == "Round 3 is settled" and not any("Round 2" in line for line in log)
    assert "3 of 3 rounds played" in page.locator("#summary").inner_text()
    screenshot(page, "table-finished")
