"""A PettingZoo AEC environment for a multi-seat table of any installed game.

``croupier_aec("blackjack", seats=3, rules="vegas-s17")``: agents ``seat_1`` ...
``seat_N`` take turns exactly as the game asks them (a round's bets, then each seat's
play), on the same table as the Gymnasium environment (:mod:`.table`): the game's own
core, its shoe kept between rounds, seeds giving croupier's own tables. ``others`` name
strategies for further seats. Each agent's reward is its net chips for each round it
finishes, given when the round ends, or an exact reward (:mod:`.rewards`: ``ev-loss``,
minus the oracle's EV loss of each decision, given to the agent in the step that takes it;
``adjusted``, each round's luck-adjusted result, when it ends). An agent whose seat can no
longer pay a round is terminated; when the table's ``rounds`` are played every agent left
is truncated.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from croupier.clients.envs.gym_env import ILLEGAL, SEED_RANGE
from croupier.clients.envs.options import EnvOptions
from croupier.clients.envs.rewards import Outcome
from croupier.clients.envs.spaces import ActionTable, ObservationCoder
from croupier.clients.envs.table import EnvTable
from croupier.engine import CroupierError
from croupier.engine.games import Plain, Turn


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def _seat_of(agent: str) -> int:
    return int(agent.split("_")[1])


class CroupierAEC(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """Seats ``1..seats`` of a game's table as agents (see the module's text)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "croupier_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "blackjack",
        *,
        seats: int = 2,
        illegal: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if illegal not in ILLEGAL:
            raise CroupierError(f"illegal is one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
            raise CroupierError(f"seats is a whole number of at least 1, not {seats!r}")
        extra = ("seats", "illegal", "render_mode")
        agents = range(1, seats + 1)
        self.setup = EnvOptions.of(game, options, extra, agents=agents)
        self.illegal = illegal
        self.render_mode = render_mode
        self.table_actions = ActionTable.of(self.setup)
        self.coder = ObservationCoder.of(self.setup.game, len(self.table_actions.actions))
        self.possible_agents = [agent_name(s) for s in self.setup.agents]
        self._action_space = self.table_actions.space
        self._observation_space = self.coder.space
        self.table: EnvTable | None = None
        self.turn: Turn | None = None
        self._seen: dict[str, Plain | None] = {}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            table_seed = seed
            self._rng = np.random.default_rng(seed)
        else:
            table_seed = int(self._rng.integers(SEED_RANGE))
        self.table = EnvTable.of(self.setup, table_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._seen = {a: None for a in self.agents}
        self.infos = {a: {"seed": table_seed} for a in self.agents}
        self.turn = self.table.advance()
        self.table.take_outcome()
        self._after_turn(Outcome())

    def _mask(self, agent: str) -> np.ndarray:
        if self.turn is None or self.table is None or agent_name(self.turn.seat) != agent:
            return np.zeros(len(self.table_actions.actions), np.int8)
        return self.table_actions.mask(self.turn.legal, self.table.check)

    def observe(self, agent: str) -> dict[str, Any]:
        return self.coder.encode(self._seen.get(agent), self._mask(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.table is not None and self.turn is not None
        if action is None:
            raise CroupierError(f"{agent} must act: give an action number, not None")
        chosen = self.table_actions.choose(
            action, self.turn.legal, self.turn.default, self.table.check, self.illegal
        )
        self._cumulative_rewards[agent] = 0.0
        self.turn = self.table.advance(chosen)
        outcome = self.table.take_outcome()
        kind = self.setup.reward
        self.rewards = {a: outcome.reward(kind, _seat_of(a)) for a in self.agents}
        self._accumulate_rewards()
        self._after_turn(outcome)

    def _after_turn(self, outcome: Outcome) -> None:
        """Who is out, and whose turn it is (the dead step first, as PettingZoo asks)."""
        assert self.table is not None
        scored = self.table.scorer is not None
        for agent in self.agents:
            seat = _seat_of(agent)
            info: dict[str, Any] = {
                **outcome.info(seat, scored),
                "seed": self.table.seed,
                "chips": self.table.chips(seat),
                "round": self.table.core.round,
                "action_mask": self._mask(agent),
            }
            self.infos[agent] = info
            if self.table.broke(seat):
                self.terminations[agent] = True
            elif self.turn is None:
                self.truncations[agent] = True
        if self.turn is not None:
            name = agent_name(self.turn.seat)
            self._seen[name] = self.turn.observation
            self.agent_selection = name
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            self.agent_selection = dead[0]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.turn is None:
            return None
        return repr(dict(self.turn.observation))

    def close(self) -> None:
        pass


def croupier_aec(game: str = "blackjack", **options: Any) -> CroupierAEC:
    """The AEC environment of ``game`` (see :class:`CroupierAEC`)."""
    return CroupierAEC(game, **options)
