"""The one reconnect loop (``croupier.clients.bot.reconnect.keep_seat``) that the bot SDK,
tournament bots, the terminal games and ``croupier tournament --connect`` share, on virtual
time: how often it tries, when it gives up, when it waits for a server that resumes."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import trio

from croupier.clients.bot import Bot
from croupier.clients.bot.reconnect import keep_seat, retry_delay
from croupier.engine import CroupierError
from croupier.protocol import ConnectionClosed


class Seat:
    def __init__(self, token: str | None = "t") -> None:
        self.token = token
        self.reseat = False
        self.failures = 0
        self.server_stopped = False
        self.resuming = False


def losing(me: Seat, back_after: int | None = None) -> Any:
    """An attempt that loses its connection, or is over at attempt ``back_after``."""
    tries: list[float] = []

    async def attempt() -> bool:
        tries.append(trio.current_time())
        if back_after is not None and len(tries) == back_after:
            return True
        raise ConnectionClosed("closed by peer")

    return attempt, tries


async def test_it_tries_reconnect_times_then_gives_up_with_the_reason(virtual_clock):
    me = Seat()
    attempt, tries = losing(me)
    told: list[tuple[str, float, bool]] = []
    with pytest.raises(CroupierError, match="closed by peer"):
        await keep_seat(me, attempt, 3, on_retry=lambda *a: told.append(a))
    assert len(tries) == 4  # the first and 3 more
    assert [d for _, d, _ in told] == [retry_delay(1), retry_delay(2), retry_delay(3)]
    assert [round(b - a, 6) for a, b in itertools.pairwise(tries)] == [0.2, 0.4, 0.8]


async def test_nothing_to_take_back_or_a_server_gone_for_good_ends_at_once(virtual_clock):
    unseated = Seat(token=None)
    attempt, tries = losing(unseated)
    with pytest.raises(CroupierError, match="closed by peer"):
        await keep_seat(unseated, attempt, 5)
    stopped = Seat()
    stopped.server_stopped = True
    attempt, more = losing(stopped)
    with pytest.raises(CroupierError, match="the server shut down"):
        await keep_seat(stopped, attempt, 5)
    assert len(tries) == len(more) == 1


async def test_a_server_that_resumes_is_waited_for_beyond_the_bound(virtual_clock):
    me = Seat()
    me.resuming = True
    attempt, tries = losing(me, back_after=30)
    await keep_seat(me, attempt, 2, on_retry=lambda *a: None, wait_for_resume=True)
    assert len(tries) == 30
    assert max(b - a for a, b in itertools.pairwise(tries)) == pytest.approx(5.0)  # at most
    me = Seat()
    me.resuming = True
    attempt, tries = losing(me)
    with pytest.raises(CroupierError):  # a bot (no wait_for_resume) keeps to its bound
        await keep_seat(me, attempt, 2, on_retry=lambda *a: None)
    assert len(tries) == 3


def test_croupier_bot_tries_long_enough_to_outlast_a_restart(cli, monkeypatch):
    """``croupier bot`` gave up after the SDK's 5 tries (about 6 s), before a server
    restarting on its journal was back; it tries 20 times (about 80 s) unless told."""
    from croupier.clients.bot.reconnect import reconnect_window
    from croupier.clients.cli.commands import bot as command

    asked: list[int] = []

    async def fake_play(bot: Bot, host: str, port: int, **options: Any) -> dict[str, Any]:
        asked.append(options["reconnect"])
        bot.seat = 1
        rules = {"starting_chips": 1000}
        return {"table": 1, "played": 0, "reason": "r", "chips": [1000], "rules": rules}

    monkeypatch.setattr(command, "play", fake_play)
    assert cli("bot", "lim17")[0] == 0
    assert cli("bot", "lim17", "--reconnect", "3")[0] == 0
    assert asked == [command.RECONNECT, 3]
    assert reconnect_window(5) < 10 < 60 < reconnect_window(command.RECONNECT)
