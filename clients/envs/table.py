"""One table of a game for an environment: the game's own core, driven turn by turn.

The environments do not reimplement a game: they drive its
:meth:`~croupier.engine.games.GameCore.play_round` generator, made by ``new_core`` with
the table's options and seed exactly as a server's or the simulator's table is, so a seed
deals the same shoe here as there. Seats played by built-in strategies answer in place
(with ``legal`` and ``refused`` added to what they see, as a :class:`GameTable` does);
the driver stops at each turn of an agent's seat and settles each seat's result when a
round ends (chips after the round less chips before it: a round's net).

Given a game's oracle, the table is scored as a :class:`GameTable` is: a
:class:`~croupier.engine.scoring.Scorer` sees the core's events (and an ``action`` event
for each action applied, unless the game's own events record them), values each decision
of an agent's seat before it applies, and gives each finished round's luck-adjusted result
(see :mod:`.rewards`).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any

from croupier.clients.envs.options import EnvOptions
from croupier.clients.envs.rewards import Outcome
from croupier.engine import CroupierError
from croupier.engine.gamelog import action_event
from croupier.engine.games import Game, GameCore, GameStrategy, Plain, Turn
from croupier.engine.ledger import seat_account
from croupier.engine.oracle import TableOracle
from croupier.engine.scoring import Scorer

NOTHING = Outcome()
"""What a step that finished nothing brought (shared: never added to)."""


class EnvTable:
    """Seats ``1..seats``; ``strategies`` maps the seats that agents do not play."""

    def __init__(
        self,
        game: Game,
        options: Plain,
        seed: int,
        chips: Sequence[int],
        strategies: Mapping[int, GameStrategy],
        rounds: int,
        oracle: TableOracle | None = None,
    ) -> None:
        self.game = game
        self.options = dict(options)
        self.seed = seed
        self.seats = len(chips)
        self.strategies = dict(strategies)
        self.agents = [s for s in range(1, self.seats + 1) if s not in self.strategies]
        self.rounds = rounds
        self.scorer: Scorer | None = None
        """Scores the agents' decisions against ``oracle`` (None: not scored)."""
        if oracle is not None:
            self.scorer = Scorer(oracle, self.seats, self._balances)
        emit = None if self.scorer is None else self._emit
        self.core: GameCore = game.new_core(self.options, seed, list(chips), emit)
        self.minimum = game.seat_minimum(self.options)
        self.flow: Generator[Turn, Plain, bool] | None = None
        self.turn: Turn | None = None
        self.over = False
        """No more rounds: the table's rounds are played, or no seat can play."""
        self.outcome = Outcome()
        """The rounds finished and decisions scored since :meth:`take_outcome`."""
        self._before: dict[int, int] = {}

    @classmethod
    def of(cls, setup: EnvOptions, seed: int) -> EnvTable:
        """The table ``setup`` describes, with seed ``seed`` (and a fresh oracle of the
        game when its reward needs one)."""
        oracle = None if setup.oracle is None else setup.oracle.new(setup.options)
        return cls(
            setup.game, setup.options, seed, setup.chips, setup.strategies, setup.rounds, oracle
        )

    def chips(self, seat: int) -> int:
        return int(self.core.ledger.balances[seat_account(seat)])

    def _balances(self) -> list[int]:
        return [self.chips(s) for s in range(1, self.seats + 1)]

    def _emit(self, event: dict[str, Any]) -> None:
        assert self.scorer is not None
        self.scorer.see(event)

    def broke(self, seat: int) -> bool:
        return self.chips(seat) < self.minimum

    def check(self, action: Plain) -> str | None:
        assert self.turn is not None
        return self.core.check(self.turn, action)

    def advance(self, action: Plain | None = None) -> Turn | None:
        """Answer the current turn with ``action`` (None: start), play the strategies'
        turns, and stop at the next agent's turn (None: the table is over)."""
        if action is not None:
            assert self.flow is not None
            self._decided(action)
            self.turn = self._send(action)
        while True:
            if self.turn is None and not self._next_round():
                return None
            assert self.turn is not None
            strategy = self.strategies.get(self.turn.seat)
            if strategy is None:
                return self.turn
            seen = {**self.turn.observation, "legal": list(self.turn.legal), "refused": None}
            played = strategy.play(seen)
            refused = self.core.check(self.turn, played)
            if refused is not None:
                raise CroupierError(f"strategy {strategy.name!r} played {played!r}: {refused}")
            self._decided(played)
            self.turn = self._send(played)

    def _decided(self, action: Plain) -> None:
        """Score an agent's decision as the seat found it, and tell the oracle the action
        (as :meth:`GameTable.play_round` does), before the game applies it."""
        if self.scorer is None:
            return
        assert self.turn is not None
        if self.turn.seat in self.agents:
            score = self.scorer.decided(self.core.round, self.turn, action)
            if score is not None:
                self.outcome.decisions.append(score)
        if self.game.action_of is None:  # else the game's own event records it
            self._emit(action_event(self.turn, action, self.core.round))

    def _next_round(self) -> bool:
        if self.over or self.core.round >= self.rounds or all(map(self.broke, self.agents)):
            self.over = True
            return False
        self._before = {s: self.chips(s) for s in range(1, self.seats + 1)}
        if self.scorer is not None:
            self.scorer.round_starts()
        self.flow = self.core.play_round()
        try:
            self.turn = next(self.flow)
        except StopIteration as stop:
            self._round_over(bool(stop.value))
            return not self.over and self._next_round()
        return True

    def _send(self, action: Plain) -> Turn | None:
        assert self.flow is not None
        try:
            return self.flow.send(action)
        except StopIteration as stop:
            self._round_over(bool(stop.value))
            return None

    def _round_over(self, played: bool) -> None:
        self.flow = None
        nets = {s: self.chips(s) - b for s, b in self._before.items()}
        if self.scorer is not None:
            self.scorer.round_ends()
            if played:
                adjusted = {s: self.scorer.adjusted(s) for s in self.agents}
                self.outcome.adjusted.append(
                    {s: float(nets[s]) if a is None else a for s, a in adjusted.items()}
                )
            self.scorer.rounds.clear()  # an env keeps no history: its memory stays flat
        if not played:
            self.over = True
            return
        self.outcome.rounds.append(nets)

    def take_outcome(self) -> Outcome:
        """The rounds finished and decisions scored since the last call."""
        out = self.outcome
        if not (out.rounds or out.decisions or out.adjusted):
            return NOTHING  # most steps: no allocation
        self.outcome = Outcome()
        return out
