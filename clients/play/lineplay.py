"""``croupier play --game NAME``: a person plays any game line by line, at a local table or
at a table on a server.

:class:`LinePerson` is the person's seat: it prints every public event's ``text`` as it
happens and, at a decision, the observation and the legal actions (:mod:`.lines`), then
reads lines until one is an action. ``q`` or the end of the input quits: the person's
decision is given up by cancelling :attr:`LinePerson.quit_scope`, never by an exception
through the table.

- :func:`play_local`: a :class:`~croupier.engine.gametable.GameTable` in this process,
  the person in seat 1 with no time limit and as many tries as they need, the other seats
  played by the game's strategies. Quitting abandons the round in progress (its stakes
  stay with the house, as when a blackjack player walks away mid-hand).
- :func:`play_remote`: the SDK's :func:`~croupier.clients.bot.sdk.play` with a
  :class:`~croupier.clients.bot.gamebot.GameBot` that asks the person. Quitting gives the
  seat up (``table.leave``); the server then plays the seat's default for the rest of the
  round (its rule for a seat left), and the tally is the table's once that round is over.

Either way the session ends with a :class:`LineTally`: rounds played while seated (a
round sat out, such as a baccarat ``pass``, is not one), the seat's chips and the net
result, as the table has them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

import attrs
import trio

from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.sdk import play
from croupier.clients.play.lines import BadLine, decision_lines, help_lines, parse_action
from croupier.engine.errors import CroupierError
from croupier.engine.gamelog import GameTally
from croupier.engine.games import Game, GameStrategy, Plain
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.protocol import ConnectionClosed, RpcError, connect

PERSON_ATTEMPTS = 1_000_000
"""Answers the local table takes from the person for one decision: a person may try again
as often as they like (a bot gets three)."""
SETTLE_TIME = 5.0
"""Seconds to wait, after leaving a server table, for it to finish the round in progress."""

Read = Callable[[], "str | None"]
Write = Callable[[str], None]


@attrs.define
class LineTally:
    """Rounds played while seated, the seat's chips, and the net result."""

    rounds: int = 0
    chips: int = 0
    net: int = 0

    def line(self) -> str:
        rounds = "1 round" if self.rounds == 1 else f"{self.rounds} rounds"
        return f"{rounds} played; {self.chips} chips, net {self.net:+d}"


class LinePerson:
    """A person at one seat, answering the game's decisions line by line.

    ``read`` gives the next line (None at the end of the input) and runs in a worker
    thread, one read at a time, only when a decision wants a line: a line read for a
    decision the server took back (its ``default`` event) answers the next one.
    :meth:`read_lines` must run beside the table (in the session's nursery)."""

    def __init__(
        self, game: Game, read: Read, write: Write, prompt: Write | None = None, seat: int = 1
    ) -> None:
        self.game = game
        self.read = read
        self.write = write
        self.prompt = prompt or (lambda text: None)
        self.seat = seat
        self.round = 0
        """The round of the latest decision or event."""
        self.chips: int | None = None
        """The seat's chips as last seen (an observation's, or an event's of this seat)."""
        self.seen = GameTally.of(game.max_seats, game)
        """The rounds the events showed each seat to play (as the game counts them: a
        round sat out is not one): the tally when the server cannot be asked."""
        self.ended: str | None = None
        """Why the person stopped: ``quit`` (q or the end of the input) or ``broke``."""
        self.quit_scope: trio.CancelScope | None = None
        self._pending: trio.CancelScope | None = None
        self._want = trio.Event()
        self._asked = False
        self._send, self._lines = trio.open_memory_channel[str | None](math.inf)

    async def read_lines(self) -> None:
        """Read a line whenever a decision asks for one (see the class's text), or while
        the table waits (:meth:`listen`). A ``q`` that no decision is waiting for quits at
        once; any other line waits for the next decision."""
        while True:
            await self._want.wait()
            self._want = trio.Event()
            line = await trio.to_thread.run_sync(self.read, abandon_on_cancel=True)
            self._asked = False
            if self._pending is None and line is not None and is_quit(line):
                await self.stop("quit")
            self._send.send_nowait(line)

    def listen(self) -> None:
        """Read the next line now, though no decision asks for it: the person can quit
        while the table waits for its other seats (a line other than ``q`` answers the
        first decision)."""
        if not self._asked and self._lines.statistics().current_buffer_used == 0:
            self._asked = True
            self._want.set()

    async def _next_line(self) -> str | None:
        self.listen()
        return await self._lines.receive()

    def on_event(self, event: Mapping[str, Any]) -> None:
        """Print a public event. This seat's own ``refused`` events are left out (the next
        prompt says the reason), and the table's ``action`` records (the game's own events
        say the same in its words); its ``default`` event takes its open decision back."""
        if isinstance(event.get("round"), int):
            self.round = max(self.round, event["round"])
        mine = event.get("seat") == self.seat
        if mine and isinstance(event.get("chips"), int):
            self.chips = event["chips"]
        self.seen.add(event)
        if (mine and event.get("kind") == "refused") or event.get("kind") == "action":
            return
        if mine and event.get("kind") == "default" and self._pending is not None:
            self._pending.cancel()
        text = event.get("text")
        if not isinstance(text, str):
            fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "text"))
            text = f"{event.get('kind', 'event')}: {fields}"
        self.write(text)

    async def decide(self, observation: Plain) -> Plain:
        """Show the decision and read lines until one is a legal action."""
        if isinstance(observation.get("round"), int):
            self.round = max(self.round, observation["round"])
        if isinstance(observation.get("chips"), int):
            self.chips = observation["chips"]
        legal = [str(k) for k in observation.get("legal", ())]
        self.write(f"Your turn, seat {self.seat}:")
        for line in decision_lines(observation, self.game.observation, self.game.actions):
            self.write(line)
        with trio.CancelScope() as scope:
            self._pending = scope
            try:
                return await self._answer(legal)
            finally:
                self._pending = None
        raise CroupierError("the decision was taken back")

    async def _answer(self, legal: list[str]) -> Plain:
        while True:
            self.prompt("> ")
            line = await self._next_line()
            if line is None or is_quit(line):
                return await self.stop("quit")
            text = line.strip()
            if text.lower() in ("help", "?"):
                for said in help_lines(self.game.observation, self.game.actions, legal):
                    self.write(said)
                continue
            try:
                return parse_action(text, self.game.actions, legal)
            except BadLine as exc:
                self.write(f"  {exc}")

    async def stop(self, why: str) -> NoReturn:
        """End the session (see the module's text); never returns."""
        self.ended = why
        assert self.quit_scope is not None
        self.quit_scope.cancel()
        await trio.sleep_forever()


def is_quit(line: str) -> bool:
    return line.strip().lower() in ("q", "quit", "exit")


def rules_label(game: Game, rule_set: str | None, options: Mapping[str, Any]) -> str:
    """The rules a table plays, as a person reads them: the rule set named when the options
    are its own, else the rule set whose options they are (baccarat with ``commission=none``
    is ``no-commission``), else the named one (or the standard rules) with what differs."""
    base = game.rules(rule_set)
    if dict(options) == base:
        return rule_set or "standard rules"
    for name in game.rule_sets:
        if game.rules(name) == dict(options):
            return name
    changed = ", ".join(f"{k}={v}" for k, v in options.items() if base.get(k) != v)
    return f"{rule_set or 'standard rules'} with {changed}"


def greeting(game: Game, rules: str, seed: str, where: str, seats: Sequence[str], mine: int) -> str:
    """Who sits where, under which rules (:func:`rules_label`; ``seed``: ``seed N``, or
    what stands for a seed the server keeps hidden), and how to play."""
    sitting = "; ".join(
        f"seat {i} {'you' if i == mine else name}" for i, name in enumerate(seats, 1)
    )
    return (
        f"{game.name} ({rules}, {seed}) {where}: {sitting}. "
        "Type an action at each prompt, help to explain them, q to quit."
    )


def play_local(
    game: Game,
    options: Plain,
    seed: int,
    strategies: Sequence[GameStrategy],
    person: LinePerson,
) -> tuple[str, LineTally]:
    """Play at a local table until the person quits or cannot play on (see the module)."""
    players: list[GamePlayer] = [person, *(GameStrategyPlayer(s) for s in strategies)]
    table = GameTable(
        game,
        options,
        seed,
        players,
        decision_time=math.inf,
        attempts=PERSON_ATTEMPTS,
        listeners=[person.on_event],
    )
    account = seat_account(1)
    start = table.ledger.balances[account]
    minimum = game.seat_minimum(options)
    tally = LineTally(0, start, 0)

    async def main() -> str:
        ended = "broke"
        async with trio.open_nursery() as nursery:
            person.quit_scope = nursery.cancel_scope
            nursery.start_soon(person.read_lines)
            while table.ledger.balances[account] >= minimum:
                if not await table.play_round():
                    ended = "over"
                    break
                tally.rounds = table.tally.hands[0]  # a round sat out is not counted
                tally.chips = table.ledger.balances[account]
            nursery.cancel_scope.cancel()  # the reader
        return person.ended or ended

    try:
        ended = trio.run(main)
    except BaseException as exc:
        if not interrupted(exc):
            raise
        ended = "interrupted"  # Ctrl-C: the tally so far, as the ledger has it
    tally.chips = table.ledger.balances[account]
    tally.net = tally.chips - start
    return ended, tally


def interrupted(exc: BaseException) -> bool:
    """Ctrl-C, alone or in trio's exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return all(interrupted(e) for e in exc.exceptions)
    return isinstance(exc, KeyboardInterrupt)


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
