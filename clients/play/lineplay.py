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
- :func:`~.lineremote.play_remote`: the SDK's :func:`~croupier.clients.bot.sdk.play` with a
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

from croupier.clients.play.lines import BadLine, decision_lines, help_lines, parse_action
from croupier.engine.errors import CroupierError
from croupier.engine.gamelog import GameTally
from croupier.engine.games import Game, GameStrategy, Plain
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account

PERSON_ATTEMPTS = 1_000_000
"""Answers the local table takes from the person for one decision: a person may try again
as often as they like (a bot gets three)."""

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
