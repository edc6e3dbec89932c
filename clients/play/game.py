"""The game session: a person at a seat, the screen, the keys, and every way it can end.

A :class:`Game` owns the :class:`~croupier.clients.play.view.TableView`, the curses screen
and a channel of keys. Two background tasks feed it: one reads the terminal's bytes when
trio says they are there, one receives signals (SIGWINCH: redraw at the new size; SIGINT,
SIGTERM, SIGHUP: end). :class:`PersonPlayer` is the person at the seat: its ``decide`` shows a
prompt offering the legal keys only and waits for one, on blackjack's typed observation. A local
table is the engine's :class:`~croupier.engine.gametable.GameTable` of the ``blackjack`` game, as
on a server: :class:`PlainSeat` reads its plain observations and events into the typed classes.
A remote table (``--connect``) needs another driver for the same view and player, nothing else.

The game ends by cancelling the session's nursery, never by an exception through the
table, and says why in :attr:`Game.ended`: ``quit``, ``broke`` (out of chips),
``interrupted`` (Ctrl-C, SIGTERM) or ``lost`` (the terminal went away).
"""

from __future__ import annotations

import math
import os
import signal
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from croupier.clients.play.layout import Prompt, layout, too_small, too_small_message
from croupier.clients.play.terminal import BACKSPACE, ENTER, ESCAPE, KeyDecoder, Screen
from croupier.clients.play.view import TableView, Tally
from croupier.engine.errors import CroupierError
from croupier.engine.games import Plain
from croupier.engine.gametable import GameTable
from croupier.engine.manager import PluginManager
from croupier.plugins.blackjack.play import Action, Event, Observation
from croupier.plugins.blackjack.rules import BlackjackRules

KEYS = {
    "hit": ("H", "Hit"),
    "stand": ("S", "Stand"),
    "double": ("D", "Double"),
    "split": ("P", "Split"),
    "surrender": ("R", "Surrender"),
    "raise": ("B", "Raise"),
    "insurance": ("I", "Insurance"),
    "decline": ("N", "No"),
}
"""The key and label of each action (the contest's letters: ``H S D P R B I N``)."""

Hint = Callable[[Observation], list[str]]
"""Lines explaining the best play for an observation (run in a worker thread)."""


class Game:
    """The screen, the view and the keys of one session (see the module docstring)."""

    def __init__(self, screen: Screen, view: TableView, hint: Hint | None = None) -> None:
        self.screen = screen
        self.view = view
        self.hint = hint
        self.prompt: Prompt | None = None
        self.ended: str | None = None
        self.away = False
        """No table to answer for now (reconnecting to a server): Q quits at once."""
        self._scope: trio.CancelScope | None = None
        self._send, self._keys = trio.open_memory_channel(256)

    # -- drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        width, height = self.screen.size()
        if too_small(width, height):
            self.screen.paint(too_small_message(width, height))
        else:
            self.screen.paint(layout(self.view, self.prompt, width, height, self.screen.charset))

    def on_event(self, event: Event) -> None:
        """A table listener: follow the event and show it."""
        self.view.apply(event)
        self.redraw()

    def ask(self, prompt: Prompt | None) -> None:
        self.prompt = prompt
        self.redraw()

    # -- keys and signals -------------------------------------------------------------------
    async def next_key(self) -> str:
        """The next key pressed while the table fits on the screen."""
        return str(await self._keys.receive())

    async def read_keys(self) -> None:
        """Read the terminal's bytes without blocking the event loop; an end of file or a
        read error means the terminal is gone."""
        decoder = KeyDecoder()
        fd = self.screen.fd
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                data = os.read(fd, 1024)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                self.end("lost")
                return
            for key in decoder.feed(data):
                self.press(key)

    def press(self, key: str) -> None:
        """A key from the terminal: for the prompt on screen, if there is one."""
        if too_small(*self.screen.size()):
            if key.upper() == "Q":  # the only key heeded while the table is hidden
                self.end("quit")
        elif self.prompt is None:
            # no question on screen (other seats play, or the server took the decision
            # back): kept, the key would answer a later prompt the person has not seen
            if key.upper() == "Q" and (self.view.at_stake == 0 or self.away):
                self.end("quit")
        else:
            self._send.send_nowait(key)

    def drop_keys(self) -> None:
        """Forget keys not yet read: a new decision is answered by keys pressed for it."""
        while True:
            try:
                self._keys.receive_nowait()
            except trio.WouldBlock:
                return

    async def watch_signals(self, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Handle signals; started (``nursery.start``) before the first drawing, so no
        resize or Ctrl-C can fall between the screen appearing and its handler."""
        signals = (signal.SIGWINCH, signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        with trio.open_signal_receiver(*signals) as received:
            task_status.started()
            async for signum in received:
                if signum == signal.SIGWINCH:
                    self.screen.resize()
                    self.redraw()
                elif signum == signal.SIGHUP:
                    self.end("lost")
                else:
                    self.end("interrupted")

    def end(self, reason: str) -> None:
        """End the session (the first reason given is kept)."""
        if self.ended is None:
            self.ended = reason
        if self._scope is not None:
            self._scope.cancel()

    async def session(self, body: Callable[[], Awaitable[None]]) -> None:
        """Run ``body`` (the driver: a local table's rounds, or a remote table's seat) with
        the keys and signals live, until it returns or the session is ended."""
        async with trio.open_nursery() as nursery:
            self._scope = nursery.cancel_scope
            await nursery.start(self.watch_signals)
            nursery.start_soon(self.read_keys)
            self.redraw()
            await body()
            nursery.cancel_scope.cancel()

    async def game_over(self, line: str, title: str, reason: str) -> None:
        """Say why the game is over, wait for Q or Enter, and end the session."""
        self.view.say(line)
        self.ask(Prompt(title, (("Q", "Quit"),)))
        while (await self.next_key()).upper() not in ("Q", ENTER):
            pass
        self.end(reason)

    def on_plain_event(self, event: Plain) -> None:
        """A :class:`~croupier.engine.gametable.GameTable` listener: the plain event, read."""
        self.on_event(Event.read(dict(event)))

    async def run(self, table: GameTable) -> None:
        """Play rounds until the person quits, runs out of chips or the session is ended."""

        async def rounds() -> None:
            while await table.play_round():
                pass
            await self.game_over("You are out of chips: the game is over", "Out of chips.", "broke")

        await self.session(rounds)


class PlainSeat:
    """A typed blackjack player (``decide(Observation) -> Action``) as a
    :class:`~croupier.engine.gametable.GameTable` player, which speaks plain maps."""

    def __init__(self, player: PersonPlayer) -> None:
        self.player = player

    async def decide(self, observation: Plain) -> Plain:
        action = await self.player.decide(Observation.read(dict(observation)))
        return action.to_dict()


class PersonPlayer:
    """The person's seat: each decision is a prompt offering the legal keys only."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.last_bet: int | None = None
        self._asked = 0

    async def decide(self, observation: Observation) -> Action:
        """The person's answer. A decision withdrawn (cancelled: at a server table, the
        server gave up on it) takes its prompt away, unless a newer decision's is up."""
        self._asked += 1
        asked = self._asked
        self.game.view.observe(observation)
        self.game.drop_keys()
        view = self.game.view
        notes = (f"The table refused that: {observation.refused}",) if observation.refused else ()
        if view.notice is not None:  # the server answered the last decision: say so
            notes, view.notice = (view.notice, *notes), None
        try:
            if observation.phase == "bet":
                return await self._bet(observation, notes)
            return await self._choose(observation, notes)
        finally:
            if asked == self._asked:  # else the prompt on screen is a newer decision's
                self.game.ask(None)

    async def _bet(self, observation: Observation, notes: tuple[str, ...]) -> Action:
        low, high = observation.min_bet, observation.max_bet
        default = min(max(self.last_bet or low, low), high)
        question = "Play again? Your bet" if self.last_bet is not None else "Your bet"
        amount = await self._amount(
            f"{question} ({low}-{high}):", default, low, high, notes, quit_now=True
        )
        if amount is None:  # Q: nothing at stake between hands
            self.game.end("quit")
            await trio.sleep_forever()
        self.last_bet = amount
        return Action("bet", amount or low)

    async def _amount(
        self,
        question: str,
        default: int,
        low: int,
        high: int,
        notes: tuple[str, ...],
        quit_now: bool = False,
    ) -> int | None:
        """An amount typed in digits (Enter confirms); None for Q (or Esc when not
        ``quit_now``)."""
        entry, fresh = str(default), True
        keys = (
            ("Enter", "Deal" if quit_now else "OK"),
            ("Q", "Quit") if quit_now else ("Esc", "Back"),
        )
        while True:
            self.game.ask(Prompt(question, keys, notes, entry))
            key = await self.game.next_key()
            if key.isdigit():
                entry = key if fresh else (entry + key)[:9]
                fresh = False
            elif key == BACKSPACE:
                entry, fresh = entry[:-1], False
            elif key == ENTER and entry:
                amount = int(entry)
                if low <= amount <= high:
                    return amount
                notes = (f"Between {low} and {high}, please.",)
            elif (quit_now and key.upper() == "Q") or (not quit_now and key == ESCAPE):
                return None

    async def _choose(self, observation: Observation, notes: tuple[str, ...]) -> Action:
        legal = [kind for kind in KEYS if kind in observation.legal]
        by_key = {KEYS[kind][0]: kind for kind in legal}
        keys = [KEYS[kind] for kind in legal]
        if self.game.hint is not None and observation.phase == "play":
            keys.append(("?", "Hint"))
        keys.append(("Q", "Quit"))
        question = _question(observation)
        while True:
            self.game.ask(Prompt(question, tuple(keys), notes))
            key = (await self.game.next_key()).upper()
            kind = by_key.get(key)
            if kind == "raise":
                amount = await self._amount(
                    "Raise by:", 1, 1, observation.chips, (), quit_now=False
                )
                if amount is not None:
                    return Action("raise", amount)
            elif kind is not None:
                return Action(kind)
            elif key == "?" and self.game.hint is not None:
                notes = await self._hint(observation)
            elif key == "Q" and await self._confirm_quit():
                self.game.end("quit")
                await trio.sleep_forever()

    async def _confirm_quit(self) -> bool:
        stake = self.game.view.at_stake
        if stake == 0:  # nothing to forfeit: no question
            return True
        question = f"Quit now and forfeit the {stake} chips on the table?"
        self.game.ask(Prompt(question, (("Y", "Yes, quit"), ("N", "No, play on"))))
        while True:
            key = (await self.game.next_key()).upper()
            if key in ("Y", "N", ESCAPE):
                return key == "Y"

    async def _hint(self, observation: Observation) -> tuple[str, ...]:
        hint = self.game.hint
        assert hint is not None
        self.game.ask(Prompt("Working out the exact value of every action...", ()))
        try:
            # abandoned if the decision is withdrawn: the hint is pure computation
            lines = await trio.to_thread.run_sync(hint, observation, abandon_on_cancel=True)
        except CroupierError as exc:
            lines = [f"No hint: {exc}"]
        return tuple(lines)


def _question(observation: Observation) -> str:
    if observation.phase == "insurance":
        natural = len(observation.cards) == 2 and observation.total == 21
        return "Even money? (the dealer shows an Ace)" if natural else "Insurance?"
    if observation.phase == "surrender":
        return "Surrender early (lose half your bet)?"
    total = f"{'Soft ' if observation.soft else ''}{observation.total}"
    return f"Your move ({total} against the dealer's {_rank_text(observation.dealer_upcard)}):"


def _rank_text(code: str | None) -> str:
    if not code:
        return "?"
    return {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}.get(code[0], code[0])


def run_game(
    manager: PluginManager,
    rules: BlackjackRules,
    seed: int,
    screen: Screen,
    *,
    title: str,
    hint: Hint | None = None,
) -> tuple[str, Tally]:
    """Play at a local table on ``screen`` until the session ends; returns why it ended
    and the tally. A person has all the time in the world to decide."""
    view = TableView(1, rules.starting_chips, title)
    game = Game(screen, view, hint)
    table = GameTable(
        manager.games.get("blackjack"),
        rules.to_dict(),
        seed,
        [PlainSeat(PersonPlayer(game))],
        decision_time=math.inf,
        listeners=[game.on_plain_event],
    )
    run_session(game.run, table)
    return game.ended or "quit", view.tally


def run_session(fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """``trio.run(fn, *args)`` for a game session: signals the session receives are handled
    by :meth:`Game.watch_signals`; any left pending when it ends (a hang-up sends SIGHUP
    twice, Ctrl-C may be pressed twice) are redelivered by trio to the handler in place
    before: ignore them then, the session is over."""
    ended = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    before = {signum: signal.signal(signum, signal.SIG_IGN) for signum in ended}
    try:
        return trio.run(fn, *args)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
