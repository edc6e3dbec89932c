"""One table of a game for an environment: the game's own core, driven turn by turn.

The environments do not reimplement a game: they drive its
:meth:`~croupier.engine.games.GameCore.play_round` generator, made by ``new_core`` with
the table's options and seed exactly as a server's or the simulator's table is, so a seed
deals the same shoe here as there. Seats played by built-in strategies answer in place
(with ``legal`` and ``refused`` added to what they see, as a :class:`GameTable` does);
the driver stops at each turn of an agent's seat and settles each seat's result when a
round ends (chips after the round less chips before it: a round's net).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence

from croupier.engine import CroupierError
from croupier.engine.games import Game, GameCore, GameStrategy, Plain, Turn
from croupier.engine.ledger import seat_account


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
    ) -> None:
        self.game = game
        self.options = dict(options)
        self.seed = seed
        self.seats = len(chips)
        self.strategies = dict(strategies)
        self.rounds = rounds
        self.core: GameCore = game.new_core(self.options, seed, list(chips), None)
        self.minimum = game.seat_minimum(self.options)
        self.flow: Generator[Turn, Plain, bool] | None = None
        self.turn: Turn | None = None
        self.over = False
        """No more rounds: the table's rounds are played, or no seat can play."""
        self.finished: list[dict[int, int]] = []
        """Each seat's net in the rounds finished since :meth:`take_results`."""
        self._before: dict[int, int] = {}

    def chips(self, seat: int) -> int:
        return int(self.core.ledger.balances[seat_account(seat)])

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
            self.turn = self._send(played)

    def _next_round(self) -> bool:
        agents = [s for s in range(1, self.seats + 1) if s not in self.strategies]
        if self.over or self.core.round >= self.rounds or all(map(self.broke, agents)):
            self.over = True
            return False
        self._before = {s: self.chips(s) for s in range(1, self.seats + 1)}
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
        if not played:
            self.over = True
            return
        self.finished.append({s: self.chips(s) - b for s, b in self._before.items()})

    def take_results(self) -> list[dict[int, int]]:
        out, self.finished = self.finished, []
        return out
