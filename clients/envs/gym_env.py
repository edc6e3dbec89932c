"""A Gymnasium environment for one seat at a table of any installed game.

``gymnasium.make("croupier/Blackjack-v0", rules="vegas-s17", others=["basic"])``: the
agent plays seat 1; ``others`` name the built-in strategies of the seats after it. An
episode is a session at one table: ``rounds`` rounds (then ``truncated``), or until the
seat cannot pay a round (``terminated``). The game is the engine's own (its core, rule
for rule, the shoe kept from round to round with its cut card); spaces come from its
schema (:mod:`.spaces`) and ``info["action_mask"]`` (also ``obs["action_mask"]``) says
which actions the game accepts now.

Reward (:mod:`.rewards`) ``chips``: the seat's net chips for each round it finishes, given
at the step in which the round ends; ``ev-loss``: minus the exact EV loss of the decision
the step takes (the game's oracle's, 0 for its best action); ``adjusted``: the round's
luck-adjusted result, when it ends. ``info["rounds"]`` lists the nets of the rounds the
step finished (with an oracle, ``info["adjusted"]`` their adjusted results and
``info["decisions"]`` the step's scored decision), ``info["seed"]`` the table's seed.

Seeds: ``reset(seed=S)`` opens the table croupier opens with seed S (the same shoes as
``croupier serve``'s or ``croupier sim``'s table of that seed); ``reset()`` opens a new
table whose seed is drawn from the environment's generator (and reported in ``info``).

An action the mask excludes is refused with one :class:`CroupierError` line
(``illegal="raise"``), or answered by the turn's default, as a table does for a faulty
player (``illegal="default"``: what Gymnasium's checker, which samples blindly, needs).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from croupier.clients.envs.options import EnvOptions
from croupier.clients.envs.rewards import Outcome
from croupier.clients.envs.spaces import ActionTable, ObservationCoder
from croupier.clients.envs.table import EnvTable
from croupier.engine import CroupierError
from croupier.engine.games import Turn

ILLEGAL = ("raise", "default")
SEED_RANGE = 2**63


class CroupierEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a game's table (see the module's text)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's instance attribute)

    def __init__(
        self,
        game: str = "blackjack",
        *,
        illegal: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal not in ILLEGAL:
            raise CroupierError(f"illegal is one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise CroupierError(f"render_mode is ansi or None, not {render_mode!r}")
        self.setup = EnvOptions.of(game, options, extra=("illegal", "render_mode"))
        self.illegal = illegal
        self.render_mode = render_mode
        self.table_actions = ActionTable.of(self.setup)
        self.coder = ObservationCoder.of(self.setup.game, len(self.table_actions.actions))
        self.action_space = self.table_actions.space
        self.observation_space = self.coder.space
        self.table: EnvTable | None = None
        self.turn: Turn | None = None
        self.mask = np.zeros(len(self.table_actions.actions), np.int8)
        self.accepted: list[int] = []
        """The numbers of the actions the game accepts at :attr:`turn` (the mask's ones,
        kept apart from the mask the agent is given, which it may write to)."""

    @property
    def seat(self) -> int:
        return self.setup.agents[0]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        table_seed = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
        self.table = EnvTable.of(self.setup, table_seed)
        self.turn = self.table.advance()
        self.table.take_outcome()  # nothing is finished before the seat's first turn
        obs, info = self._observe(Outcome())
        return obs, info

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        table, turn = self.table, self.turn
        if table is None or turn is None:
            raise CroupierError("the episode is over: call reset() first")
        chosen = self.table_actions.choose(
            action, turn.legal, turn.default, table.check, self.illegal, self.accepted
        )
        self.turn = table.advance(chosen)
        outcome = table.take_outcome()
        obs, info = self._observe(outcome)
        terminated = truncated = False
        if self.turn is None:
            terminated = table.broke(self.seat)
            truncated = not terminated
        return obs, outcome.reward(self.setup.reward, self.seat), terminated, truncated, info

    def _observe(self, outcome: Outcome) -> tuple[dict[str, Any], dict[str, Any]]:
        table, turn, seat = self.table, self.turn, self.seat
        assert table is not None
        if turn is None:
            self.accepted = []
            seen = None
        else:
            core = table.core
            self.accepted = self.table_actions.accepted(
                turn.legal, lambda action: core.check(turn, action)
            )
            seen = turn.observation
        self.mask = self.table_actions.mask_of(self.accepted)
        info: dict[str, Any] = {"action_mask": self.mask}
        info.update(outcome.info(seat, table.scorer is not None))
        info["seed"] = table.seed
        info["round"] = table.core.round
        info["chips"] = table.chips(seat)
        return self.coder.encode(seen, self.mask), info

    def action(self, index: int) -> dict[str, Any]:
        """The game's action map numbered ``index``."""
        return dict(self.table_actions.actions[index])

    def action_index(self, action: dict[str, Any]) -> int:
        """The number of a game's action map (a strategy's answer, say)."""
        found = self.table_actions.index(action)
        if found is None:
            raise CroupierError(f"{action!r} is not one of this environment's actions")
        return found

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.turn is None:
            return None
        return repr(dict(self.turn.observation))
