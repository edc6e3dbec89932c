"""The person's seat at a server table when the server stops waiting: the prompt of a
decision the server gave up (its ``default`` event) or replaced (a newer ``decide``) is
withdrawn, the person is told what was played for them, and each key answers only the
decision on screen. No terminal, no server: the seat's handlers called in order."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from croupier.clients.play.game import Game, PersonPlayer
from croupier.clients.play.remote import RemoteSeat, Where
from croupier.clients.play.view import TableView
from croupier.plugins.blackjack.play import Event
from croupier.protocol import RpcError

TABLE, SEAT = 7, 2


class FakeScreen:
    """Paints nothing; the game's prompt and view are read directly."""

    fd = -1
    charset = "ascii"
    closed = False

    def size(self) -> tuple[int, int]:
        return 80, 24

    def paint(self, spans: Any) -> None:
        pass

    def resize(self) -> None:
        pass


def observation(phase: str, round_: int, legal: list[str]) -> dict[str, Any]:
    obs: dict[str, Any] = {
        "round": round_,
        "seat": SEAT,
        "hand": 0,
        "phase": phase,
        "legal": legal,
        "chips": 990,
        "min_bet": 10,
        "max_bet": 1000,
        "hands": [["9C", "7D"]] if phase != "bet" else [],
        "total": 16 if phase != "bet" else 0,
        "soft": False,
        "dealer_upcard": "TS" if phase != "bet" else None,
    }
    return obs


@pytest.fixture
def seated() -> tuple[RemoteSeat, Game]:
    me = RemoteSeat(Where("127.0.0.1", 1, TABLE))
    me.table, me.seat = TABLE, SEAT
    game = Game(FakeScreen(), TableView(SEAT, 1000, "test"))  # type: ignore[arg-type]
    me.game, me.person = game, PersonPlayer(game)
    return me, game


async def ask(me: RemoteSeat, obs: dict[str, Any], answers: list[Any]) -> None:
    try:
        answers.append(await me.decide(TABLE, obs))
    except RpcError as exc:
        answers.append(exc.message)


def default(round_: int) -> list[Any]:
    event = Event("default", round_, seat=SEAT, hand=0, reason="timeout after 2s")
    return [TABLE, event.to_dict()]


async def test_a_default_withdraws_the_prompt_and_says_so(seated):
    me, game = seated
    answers: list[Any] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ask, me, observation("bet", 1, ["bet"]), answers)
        await trio.testing.wait_all_tasks_blocked()
        assert game.prompt is not None and game.prompt.question.startswith("Your bet")
        await me.notified("table.event", default(1))  # the server played the minimum bet
        await trio.testing.wait_all_tasks_blocked()
        assert answers == ["the decision was withdrawn"]
        assert game.prompt is None  # the stale prompt is gone
        assert game.view.log[-1] == "Time ran out: the dealer bet the minimum (10) for you"
        game.press("h")  # pressed with nothing on screen: must not answer the next prompt
        nursery.start_soon(ask, me, observation("play", 1, ["hit", "stand"]), answers)
        await trio.testing.wait_all_tasks_blocked()
        assert game.prompt is not None and game.prompt.question.startswith("Your move (16")
        assert game.prompt.notes == ("Time ran out: the dealer bet the minimum (10) for you",)
        game.press("s")
        await trio.testing.wait_all_tasks_blocked()
    assert answers[1] == {"kind": "stand", "amount": 0}
    assert game.prompt is None


async def test_a_newer_decision_replaces_a_stale_one(seated):
    me, game = seated
    answers: list[Any] = []
    await me.notified("table.event", [TABLE, {"kind": "chips", "round": 1, "seat": SEAT,
                                               "amount": -10, "reason": "bet"}])  # fmt: skip
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ask, me, observation("play", 1, ["hit", "stand"]), answers)
        await trio.testing.wait_all_tasks_blocked()
        game.press("q")  # Quit? asked for round 1's hand...
        await trio.testing.wait_all_tasks_blocked()
        assert game.prompt is not None and "forfeit" in game.prompt.question
        # ... which the server gave up without a default reaching us yet: round 2's bet
        nursery.start_soon(ask, me, observation("bet", 2, ["bet"]), answers)
        await trio.testing.wait_all_tasks_blocked()
        assert answers == ["the decision was withdrawn"]
        # round 2's prompt stays up: the withdrawn one's cleanup does not wipe it
        assert game.prompt is not None and game.prompt.question.startswith("Your bet")
        game.press("y")  # meant for the withdrawn question: not a digit, ignored here
        for key in ("2", "0", "ENTER"):
            game.press(key)
        await trio.testing.wait_all_tasks_blocked()
    assert answers[1] == {"kind": "bet", "amount": 20}
    assert game.ended is None


async def test_the_end_of_the_game_withdraws_the_decision(seated):
    me, game = seated
    answers: list[Any] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ask, me, observation("play", 1, ["hit", "stand"]), answers)
        await trio.testing.wait_all_tasks_blocked()
        await me.withdrawn()  # as play_remote does before the screen closes
        assert answers == ["the decision was withdrawn"] and game.prompt is None
        nursery.cancel_scope.cancel()


def test_others_defaults_and_an_empty_stake():
    view = TableView(SEAT, 1000, "test")
    view.apply(Event("default", 1, seat=1, hand=0, reason="timeout after 2s"))
    assert view.log[-1] == "Seat 1 ran out of time: the table played its default"
    assert view.notice is None
    view.apply(Event("chips", 1, seat=SEAT, amount=-10, reason="bet"))
    assert view.at_stake == 10  # bet, not yet dealt: Q must ask before forfeiting it
