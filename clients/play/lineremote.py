"""``croupier play --game NAME --connect``: the person's seat at a server table.

:func:`play_remote` sits the :class:`~.lineplay.LinePerson` at a server table through the
SDK's :func:`~croupier.clients.bot.sdk.play` with :class:`PersonBot`, a
:class:`~croupier.clients.bot.gamebot.GameBot` that asks the person. Quitting gives the seat
up (``table.leave``); the server then plays the seat's default for the rest of the round,
and the tally is the table's once that round is over (:func:`_settled`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
import trio

from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.sdk import play
from croupier.clients.play.lineplay import LinePerson, LineTally, interrupted
from croupier.engine.errors import CroupierError
from croupier.protocol import ConnectionClosed, RpcError, connect

SETTLE_TIME = 5.0
"""Seconds to wait, after leaving a server table, for it to finish the round in progress."""


class PersonBot(GameBot):
    """The person's seat at a server table: the SDK's bot for the game, asking the person."""

    def __init__(self, person: LinePerson) -> None:
        super().__init__()
        self.game = person.game.name
        self.name = "person"
        self.person = person
        self.minimum = 1
        """The chips the seat needs for a round, from the table's options once seated."""
        self.away = False
        """The connection is lost and the SDK tries again (see :meth:`retry`)."""
        self.on_seated: Callable[[dict[str, Any]], None] | None = None
        """Called once, with ``table``, ``seat`` and ``info``, when the seat is taken (before
        the table's first events reach :meth:`on_event`)."""

    async def decide(self, observation: Any) -> Any:
        return await self.person.decide(observation)

    def check_table(self, info: dict[str, Any]) -> None:
        """Before sitting down: a table of another game is refused in one line."""
        played = info.get("game", "blackjack")
        if played != self.game:
            flag = "" if played == "blackjack" else f" --game {played}"
            raise CroupierError(f"table {info['table']} plays {played}: croupier play{flag}")

    def retry(self, reason: str, delay: float, resuming: bool) -> None:
        """The SDK lost the connection and tries again: say so once (not every try)."""
        if not self.away:
            self.away = True
            why = (
                "The server is restarting: your seat is kept for you"
                if resuming
                else (f"Lost the connection to the server ({reason})")
            )
            self.person.write(f"{why}; trying to connect again (Ctrl-C gives up).")

    def on_table(self, info: dict[str, Any]) -> None:
        if self.away:  # the seat is taken back
            self.away = False
            self.person.write(f"Back at table {info['table']}, seat {self.seat}: the game goes on.")
        seated, self.on_seated = self.on_seated, None
        if seated is not None:
            seated({"table": info["table"], "seat": self.seat, "info": info})

    def on_event(self, event: Any) -> None:
        if isinstance(event, Mapping):
            self.person.on_event(event)
            chips = self.person.chips
            if self.person.ended is None and chips is not None and chips < self.minimum:
                self.person.ended = "broke"  # strategies may play on; the person cannot
                if self.person.quit_scope is not None:
                    self.person.quit_scope.cancel()


@attrs.define
class RemoteEnd:
    """How a server session ended: ``quit``, ``broke`` or ``finished`` (the table's
    ``reason``); the tally; the table's number and final info."""

    ended: str
    tally: LineTally
    table: int | None
    info: dict[str, Any]
    settled: bool = True
    """False when the table had not finished the person's last round within SETTLE_TIME."""
    reached: bool = True
    """False when the server could not be reached after the person stopped (Ctrl-C while
    the game waited for it): the tally is then as last seen."""


async def play_remote(
    person: LinePerson,
    host: str,
    port: int,
    table: int | None,
    create: Mapping[str, Any],
    on_seated: Callable[[dict[str, Any]], None],
) -> RemoteEnd:
    """Sit at a server table and play until the table finishes or the person stops."""
    bot = PersonBot(person)
    start: dict[str, int] = {}

    def seated(joined: dict[str, Any]) -> None:
        info = joined["info"]
        person.seat = int(joined["seat"])
        start["played"] = _hands(info, person.seat)
        start["chips"] = int(info["chips"][person.seat - 1])
        bot.minimum = person.game.seat_minimum(info["rules"])
        on_seated(joined)
        if info.get("state") == "waiting":  # for its other seats: `q` must still quit
            person.listen()

    bot.on_seated = seated
    finals: list[dict[str, Any]] = []
    try:
        async with trio.open_nursery() as nursery:
            person.quit_scope = nursery.cancel_scope
            nursery.start_soon(person.read_lines)
            final = await play(
                bot, host, port, table=table, create=create, on_retry=bot.retry,
                wait_for_resume=True,
            )  # fmt: skip
            finals.append(final)
            nursery.cancel_scope.cancel()  # the reader
    except BaseException as exc:
        if not interrupted(exc) or not bot.table:
            raise
        person.ended = "interrupted"  # Ctrl-C: the SDK has left the seat; tell the tally
    settled = reached = True
    seat = person.seat
    if finals:
        final = finals[0]
    else:  # the person stopped: the table finishes their round without them
        try:
            final, settled = await _settled(host, port, int(bot.table["table"]), person.round)
        except (CroupierError, ConnectionClosed, RpcError, OSError):
            # the server is away (Ctrl-C while waiting for it): the table as last seen
            final, settled, reached = _last_seen(bot.table, seat, person.chips), False, False
    chips = int(final["chips"][seat - 1])
    rounds = _hands(final, seat) - start["played"] if reached else person.seen.hands[seat - 1]
    tally = LineTally(rounds, chips, chips - start["chips"])
    ended = person.ended or "finished"
    return RemoteEnd(ended, tally, int(final["table"]), final, settled, reached)


def _last_seen(info: Mapping[str, Any], seat: int, chips: int | None) -> dict[str, Any]:
    """The table's info from the seat's last (re)seating, with its chips as last seen."""
    found = dict(info)
    if chips is not None:
        found["chips"] = [*info["chips"][: seat - 1], chips, *info["chips"][seat:]]
    return found


def _hands(info: Mapping[str, Any], seat: int) -> int:
    """The rounds ``seat`` has played at a table (not those it sat out); a server that
    does not count them per seat gives the table's rounds."""
    hands = info.get("hands")
    return int(hands[seat - 1]) if isinstance(hands, list) else int(info["played"])


async def _settled(host: str, port: int, table: int, round_: int) -> tuple[dict[str, Any], bool]:
    """The table's info once it has played ``round_`` (or finished), and whether it did
    within :data:`SETTLE_TIME`."""
    async with connect(host, port, name="croupier-play", role="bot") as client:
        info: dict[str, Any] = await client.call("table.info", table)
        with trio.move_on_after(SETTLE_TIME):
            while info["played"] < round_ and info["state"] != "finished":
                await trio.sleep(0.05)
                info = await client.call("table.info", table)
    return info, info["played"] >= round_ or info["state"] == "finished"
