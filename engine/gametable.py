"""A table of any game with seated players: the async driver of a game's rounds.

:class:`GameTable` plays rounds of a :class:`~croupier.engine.games.GameCore` and asks
each seat's player for its decisions, under the same rules as a blackjack table:

- every answer has ``decision_time`` seconds (the shared
  :class:`~croupier.engine.decisions.DecisionClock`); a player that times out or raises
  gets the turn's default at once (a player with nobody behind it,
  :class:`~croupier.engine.errors.PlayerAbsent`, the turn's ``absent`` action if it has one);
- an answer the game refuses (its schema, then :meth:`GameCore.check`:
  :meth:`Game.refusal`) is answered with a ``refused`` event and the player is asked
  again with the reason in ``observation["refused"]``, ``attempts`` times in all, then it
  gets the default (a ``default`` event with the reason).

A player is anything with ``async def decide(observation) -> action`` (plain mappings);
the observation is the game's, plus ``legal`` (the action kinds) and ``refused``. A player
that answers without waiting (a game's strategy, :class:`GameStrategyPlayer`) may also
have ``decide_now(observation) -> action``, which the table calls instead, directly (no
task per decision: :meth:`DecisionClock.answer_now`); the table then lets the event loop
run once per round. A player that answers some decisions without waiting (a remote bot's
seat: the phases it left to the server, an empty seat) may have
``decide_at_once(observation) -> action or None``, called directly first; None: the table
asks ``decide``, or, when the player has it, ``ask(observation)``, which puts the question
and returns a :class:`~croupier.engine.decisions.PendingAnswer` that the table waits for
itself (:meth:`DecisionClock.answer_pending`: no task per decision).
Listeners get every public event (a plain mapping) as it happens, the table's ``action``
event for each action it applies included (see :mod:`~croupier.engine.gamelog`), unless
the game's own events record them (:attr:`Game.action_of`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol, cast

import trio

from croupier.engine.decisions import ATTEMPTS, DECISION_TIME, DecisionClock, PendingAnswer
from croupier.engine.errors import CroupierError, PlayerAbsent, kind_of, player_failure
from croupier.engine.gamelog import GameTally, action_event
from croupier.engine.games import Game, GameStrategy, Plain, Turn
from croupier.engine.ledger import Ledger, seat_account
from croupier.engine.oracle import TableOracle
from croupier.engine.scoring import Scorer

_TEXT = {str}
"""The type of every key of an action map (checked in C: ``set(map(type, answer))``)."""


class GamePlayer(Protocol):
    """A seat's player at a table: given its observation, it answers an action."""

    async def decide(self, observation: Plain) -> Plain: ...


class GameStrategyPlayer:
    """A game's built-in strategy in a seat."""

    def __init__(self, strategy: GameStrategy) -> None:
        self.strategy = strategy

    async def decide(self, observation: Plain) -> Plain:
        return self.strategy.play(observation)

    def decide_now(self, observation: Plain) -> Plain:
        """The same answer, synchronously: the table asks a strategy with no task."""
        return self.strategy.play(observation)

    @property
    def trusted(self) -> bool:
        """Its answers need only the core's check (:attr:`GameStrategy.trusted`)."""
        return self.strategy.trusted


class GameTable:
    """Seats ``1..len(players)`` at one table of ``game`` (see the module's text)."""

    def __init__(
        self,
        game: Game,
        options: Plain,
        seed: int,
        players: Sequence[GamePlayer],
        *,
        chips: Sequence[int] | None = None,
        decision_time: float = DECISION_TIME,
        attempts: int = ATTEMPTS,
        listeners: Sequence[Callable[[dict[str, Any]], None]] = (),
        stalls: Callable[[], float] | None = None,
        oracle: TableOracle | None = None,
        defer_scoring: bool = False,
    ) -> None:
        if decision_time <= 0 or attempts < 1:
            raise CroupierError("a table needs a positive decision time and at least 1 attempt")
        if not 1 <= len(players) <= game.max_seats:
            raise CroupierError(f"a {game.name} table has 1 to {game.max_seats} seats")
        if chips is None:
            chips = [options["starting_chips"]] * len(players)
        if len(chips) != len(players):
            raise CroupierError("give starting chips for every seat")
        self.game = game
        self.options = dict(options)
        self.seed = seed
        self.players = list(players)
        self.starting_chips = list(chips)
        self.attempts = attempts
        self.listeners = list(listeners)
        self.clock = DecisionClock(decision_time, stalls)
        self.tally = GameTally.of(len(self.players), game)
        """Rounds each seat played, its faults, and the actions applied, from the events."""
        self.scorer: Scorer | None = None
        """Scores the seats' decisions against ``oracle`` (None: the table is not scored;
        ``defer_scoring``: the oracle's answers wait for :meth:`Scorer.settle`)."""
        if oracle is not None:
            self.scorer = Scorer(oracle, len(self.players), self._balances, defer=defer_scoring)
        self.core = game.new_core(self.options, seed, list(chips), self._emit)

    def _balances(self) -> list[int]:
        balances = self.core.ledger.balances
        return [balances[seat_account(i + 1)] for i in range(len(self.players))]

    @property
    def ledger(self) -> Ledger:
        return self.core.ledger

    @property
    def decision_time(self) -> float:
        return self.clock.decision_time

    def limit_decisions(self, seconds: float) -> None:
        self.clock.limit_decisions(seconds)

    def _emit(self, event: dict[str, Any]) -> None:
        self.tally.add(event)
        if self.scorer is not None:
            self.scorer.see(event)
        if self.listeners:
            for listener in self.listeners:
                listener(event)

    # -- checkpoints ---------------------------------------------------------------------------
    def save_state(self) -> dict[str, Any] | None:
        """The table between two rounds as plain data (the game's
        :attr:`~croupier.engine.games.Game.checkpoints` and the tally), or None when the
        game cannot save its state."""
        hooks = self.game.checkpoints
        if hooks is None:
            return None
        return {
            "game": self.game.name,
            "version": hooks.version,
            "round": self.core.round,
            "core": hooks.save(self.core),
            "tally": self.tally.save(),
        }

    def restore_state(self, state: Plain) -> None:
        """Put this table, fresh from its options, seed and chips, where :meth:`save_state`
        found its original; :class:`CroupierError` (one line) for a state it cannot take."""
        hooks = self.game.checkpoints
        if hooks is None:
            raise CroupierError(f"{self.game.name} cannot restore a saved table")
        if state.get("game") != self.game.name or state.get("version") != hooks.version:
            raise CroupierError(
                f"the saved table is of {state.get('game')!r} version {state.get('version')!r},"
                f" not {self.game.name!r} version {hooks.version}"
            )
        core = state.get("core")
        tally = state.get("tally")
        if not isinstance(core, Mapping) or not isinstance(tally, Mapping):
            raise CroupierError("the saved table has no core or no tally")
        try:
            hooks.restore(self.core, core)
        except CroupierError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise CroupierError(f"the saved {self.game.name} table is malformed: {exc!r}") from None
        self.tally.restore(tally)
        if self.core.round != state.get("round"):
            raise CroupierError(
                f"the restored table is at round {self.core.round}, the saved one at "
                f"{state.get('round')!r}"
            )

    async def play_round(self) -> bool:
        """Play one round; False when no seat could play (nothing happened)."""
        await trio.lowlevel.checkpoint()  # the loop runs between rounds of players that never wait
        scorer = self.scorer
        if scorer is not None:
            scorer.round_starts()
        flow = self.core.play_round()
        recorded = self.game.action_of is not None  # the game's own events record actions
        ask, send = self._ask, flow.send
        try:
            turn = next(flow)
            while True:
                action = await ask(turn)
                if scorer is not None:  # valued as the seat found it, before it applies
                    scorer.decided(self.core.round, turn, action)
                if not recorded:
                    self._emit(action_event(turn, action, self.core.round))
                turn = send(action)
        except StopIteration as stop:
            if scorer is not None:
                scorer.round_ends()
            return bool(stop.value)

    async def play(self, rounds: int) -> int:
        """Play up to ``rounds`` rounds (fewer when no seat can play); returns how many."""
        for played in range(rounds):
            if not await self.play_round():
                return played
        return rounds

    async def _ask(self, turn: Turn) -> Plain:
        player = self.players[turn.seat - 1]
        decide_now: Callable[[Plain], object] | None = getattr(player, "decide_now", None)
        at_once: Callable[[Plain], object] | None = None
        ask: Callable[[Plain], Awaitable[PendingAnswer]] | None = None
        if decide_now is None:  # the others only matter to a player that may wait
            at_once = getattr(player, "decide_at_once", None)
            ask = getattr(player, "ask", None)
        # only the engine's own wrapper of a game's trusted strategy skips the schema: no
        # other player (a bot's seat, anything of a caller's) can claim to be trusted
        trusted = type(player) is GameStrategyPlayer and player.trusted
        refused: str | None = None
        for _ in range(self.attempts):
            observation = {**turn.observation, "legal": list(turn.legal), "refused": refused}
            if decide_now is not None:  # a player that never waits: asked directly
                await trio.lowlevel.checkpoint_if_cancelled()  # a stopped table stops here
                how, answer = self.clock.answer_now(decide_now, observation)
            else:
                how, answer = "answer", None
                if at_once is not None:  # a remote player that may answer without its bot
                    await trio.lowlevel.checkpoint_if_cancelled()
                    how, answer = self.clock.answer_now(at_once, observation)
                if how == "answer" and answer is None:
                    if ask is not None:  # the question put, its answer awaited right here
                        how, answer = await self.clock.answer_pending(partial(ask, observation))
                    else:
                        how, answer = await self.clock.answer(partial(player.decide, observation))
            if how == "error":
                exc = cast(Exception, answer)
                if isinstance(exc, PlayerAbsent) and turn.absent is not None:
                    return self._default(turn, str(exc), turn.absent)
                return self._default(turn, f"error: {player_failure(exc)}")
            if how == "timeout":
                return self._default(turn, cast(str, answer))
            if type(answer) is dict or isinstance(answer, Mapping):
                if set(map(type, answer)) <= _TEXT or all(isinstance(k, str) for k in answer):
                    refused = self.game.refusal(
                        self.options, self.core, turn, answer, trusted=trusted
                    )
                    if refused is None:
                        return dict(answer)
                else:
                    refused = "an action map's keys are text"
            else:
                refused = f"an answer is an action map (with a kind), not {kind_of(answer)}"
            self._seat_event("refused", turn, refused)
        return self._default(turn, f"{self.attempts} answers refused")

    def _seat_event(self, kind: str, turn: Turn, reason: str) -> None:
        said = "'s answer is refused" if kind == "refused" else " gets the default"
        self._emit(
            {
                "kind": kind,
                "round": self.core.round,
                "seat": turn.seat,
                **turn.context,
                "reason": reason,
                "text": f"Seat {turn.seat}{said}: {reason}.",
            }
        )

    def _default(self, turn: Turn, reason: str, action: Plain | None = None) -> Plain:
        self._seat_event("default", turn, reason)
        return dict(turn.default if action is None else action)
