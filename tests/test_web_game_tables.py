"""Tables on the web page in headless Chromium, as they are played: baccarat's and Three Card
Poker's cards, a game without a view of its own as its events, and the round count and the
seats' chips followed live while a held bot keeps a round open (a real ``croupier serve
--http``, real TCP bots; screenshots under test-artifacts/)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import trio

from croupier.protocol import connect
from tests.webkit import Served, drawn, screenshot

pytestmark = pytest.mark.slow


def played_game_table(served: Any, page: Any, game: str, fill: list[str], rounds: int) -> Any:
    """A table of ``game`` watched on its page from before it starts until it finishes."""
    created = served.call(
        "table.create",
        named={"game": game, "seats": len(fill), "fill": fill, "rounds": rounds}
        | {"autostart": False, "seed": 3},
    )
    page.goto(f"{served.url}/table.html?table={created['table']}")
    page.locator("#seats li").nth(len(fill) - 1).wait_for()
    served.call("table.start", created["table"], created["key"])
    page.get_by_text("Finished").wait_for()
    events = served.call("history.events", created["table"])
    drawn(page, len(events))
    log = page.locator("#log li").all_inner_texts()
    assert log[0] == "Round 1" and f"Round {rounds}" in log
    assert all(text and text[0].isupper() for text in log), log  # words, not kinds
    info = served.call("table.info", created["table"])
    for seat, chips in zip(info["seats"], info["chips"], strict=True):
        meta = page.locator(f'#seats li[data-seat="{seat["seat"]}"] .meta').inner_text()
        assert meta.startswith(f"chips {chips} "), (meta, chips)
    return events


def card_names(page: Any, where: str) -> list[str]:
    return page.locator(f"{where} .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )


WORDS = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"]
RANKS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace", "T": "Ten"} | {
    str(n): word for n, word in enumerate(WORDS, 2)
}
SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


def name(code: str) -> str:
    """A card's text alternative, as the page gives it ("Queen of Clubs" for QC)."""
    return f"{RANKS[code[0]]} of {SUITS[code[1]]}"


def test_a_baccarat_table_is_drawn_as_cards(served, page):
    events = played_game_table(served, page, "baccarat", ["banker", "player"], 2)
    coup = [e for e in events if e["kind"] == "coup"][-1]
    assert card_names(page, "#dealer") == [name(c) for c in coup["player"] + coup["banker"]]
    assert "wins" in page.locator("#dealer").inner_text() or coup["winner"] == "tie"
    assert page.locator("#plain-seats-section").is_hidden()
    screenshot(page, "table-baccarat")


def test_a_three_card_poker_table_is_drawn_as_cards(served, page):
    events = played_game_table(served, page, "three-card-poker", ["optimal", "pair-plus"], 3)
    last = [e for e in events if e["round"] == 3]
    dealer = next(e for e in last if e["kind"] == "dealer")
    assert card_names(page, "#dealer") == [name(c) for c in dealer["cards"]]
    for result in (e for e in last if e["kind"] == "result"):
        seat = f'#seats li[data-seat="{result["seat"]}"]'
        assert card_names(page, seat) == [name(c) for c in result["cards"]]
    screenshot(page, "table-three-card-poker")


def test_a_game_without_a_view_of_its_own_is_a_list_of_its_events(served, page):
    page.goto(f"{served.url}/table.html?table=1")  # no such table: the page says so
    page.locator("#status.error").wait_for()
    log = page.evaluate(
        """async () => {
            const { TableView } = await import("/js/tableview.js");
            const view = new TableView();
            view.show({ table: 1, game: "coin-toss", seed: 1, played: 1, rounds: 1,
                        seats: [{ seat: 1, kind: "bot", player: "heads" }], chips: [99] });
            view.event({ kind: "toss", round: 1, text: "The coin shows heads." });
            const shown = document.querySelectorAll("#log li, #plain-seats td");
            return [...shown].map(x => x.textContent);
        }"""
    )
    assert log == ["Seat 1", "heads", "99", "Round 1", "The coin shows heads."]
    assert page.locator("#felt").is_hidden()


def heads(observation: dict[str, Any]) -> dict[str, Any]:
    """Coin-toss: call heads for the minimum."""
    return {"kind": "bet", "on": "heads", "amount": observation["min_bet"]}


def stand(observation: dict[str, Any]) -> dict[str, Any]:
    """Blackjack: bet the minimum, decline what is offered, stand."""
    if observation["phase"] == "bet":
        return {"kind": "bet", "amount": observation["min_bet"]}
    return {"kind": "stand" if "stand" in observation["legal"] else "decline"}


class HeldBot(threading.Thread):
    """A bot in seat 1 of ``table``, on a trio loop of its own, that answers with
    ``answer(observation)`` until the table asks it in round ``hold``; it holds that
    decision (the table, with no time limit, waits) until :attr:`release` is set."""

    def __init__(self, port: int, table: int, hold: int, answer: Any) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.hold, self.answer = port, table, hold, answer
        self.holding = threading.Event()
        self.release = threading.Event()

    def run(self) -> None:
        async def decide(_table: int, observation: dict[str, Any]) -> dict[str, Any]:
            if observation["round"] == self.hold:
                self.holding.set()
                await trio.to_thread.run_sync(self.release.wait)
            return self.answer(observation)

        async def play() -> None:
            async with connect(
                "127.0.0.1", self.port, name="held-bot", role="bot", handlers={"decide": decide}
            ) as client:
                await client.call("table.join", self.table, 1)
                while (await client.call("table.info", self.table))["state"] != "finished":
                    await trio.sleep(0.05)

        trio.run(play)


@pytest.fixture(scope="module")
def served_with_plugins() -> Iterator[Served]:
    coin = pytest.importorskip("croupier_coin", reason="pip install ./examples/croupier-coin")
    assert coin
    served = Served("--seed", "2026", "--data", ":memory:", plugins=True)
    try:
        yield served
    finally:
        served.stop()


def test_a_game_without_a_view_follows_its_rounds_and_chips_as_they_are_played(
    served_with_plugins, page
):
    """Issue 34: the round count and the seats' chips stayed as they were at page load, and
    each action was in the log twice (the table's ``action`` record and the game's words)."""
    served = served_with_plugins
    created = served.call(
        "table.create",
        named={"game": "coin-toss", "seats": 2, "fill": [None, "heads"], "rounds": 6}
        | {"decision_time": None, "seed": 8},
    )
    table = created["table"]
    page.goto(f"{served.url}/table.html?table={table}")
    page.locator("#plain-seats tbody tr").nth(1).wait_for()
    bot = HeldBot(served.port, table, hold=4, answer=heads)
    bot.start()
    try:
        assert bot.holding.wait(60), "the bot was never asked a fourth time"
        # round 4 has no event yet (the bot's call is the first): three played
        page.locator("#summary").filter(has_text=re.compile("; 3 of 6 rounds played$")).wait_for()
        info = served.call("table.info", table)
        assert info["played"] == 3 and info["chips"] != [100, 100]
        for seat, chips in zip(info["seats"], info["chips"], strict=True):
            row = page.locator("#plain-seats tbody tr").nth(seat["seat"] - 1)
            row.locator("td.num").filter(has_text=re.compile(f"^{chips}$")).wait_for()
        log = page.locator("#log li").all_inner_texts()
        assert log.count("Seat 1 calls heads.") == 3, log  # once a round
        assert not [line for line in log if line.startswith("Seat 1: bet")], log
        screenshot(page, "table-coin-toss")
    finally:
        bot.release.set()
        bot.join(60)
    page.get_by_text("Finished").wait_for()
    assert "6 of 6 rounds played" in page.locator("#summary").inner_text()


def test_a_live_table_counts_its_rounds_as_they_are_played(served, page):
    """Issue 34: "36 of 200 rounds" while the log said round 56 (the count was the table's
    info at page load, sent again only when the table ends)."""
    created = served.call(
        "table.create",
        named={"seats": 1, "fill": [None], "rounds": 6, "decision_time": None, "seed": 8},
    )
    table = created["table"]
    page.goto(f"{served.url}/table.html?table={table}")
    page.locator("#seats li").first.wait_for()
    bot = HeldBot(served.port, table, hold=4, answer=stand)
    bot.start()
    try:
        assert bot.holding.wait(60), "the bot was never asked in round 4"
        summary = page.locator("#summary")
        summary.filter(has_text=re.compile("; 3 of 6 rounds played, round 4 in play$")).wait_for()
        assert served.call("table.info", table)["played"] == 3
    finally:
        bot.release.set()
        bot.join(60)
    page.get_by_text("Finished").wait_for()
    summary.filter(has_text=re.compile("; 6 of 6 rounds played$")).wait_for()
