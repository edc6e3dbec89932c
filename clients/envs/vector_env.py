"""Blackjack at many tables stepped in one call, on the compiled kernel (Gymnasium's
vector API): ``BlackjackVector(num_envs=4096, rules="vegas-s17")``.

Each sub-environment is one table with one seat: an episode is a round, from the bet
(actions ``bet xU`` for each of ``bet_units`` times the minimum bet) through the play of
each hand (``hit``, ``stand``, ``double``, ``split``, ``surrender``, masked by the rules
in ``info["action_mask"]``) to the settlement (``terminated``, the reward its net chips).
The table then waits at the next round's bet in the same step (Gymnasium's
``SAME_STEP`` autoreset), its shoe kept, so rounds follow one another as at a table and
the cut card shuffles. The rounds are the simulator kernel's (:mod:`.vector_kernel`, its
pieces in :mod:`.vector_round`): ``reset(seed=S)`` seeds table ``i`` as ``croupier sim
--seed S`` seeds its chunk ``i``, and the kernel's chart player through this env nets
exactly what the simulator does.

Observation (int64, per table): phase (0 bet, 1 play), the hand's total, soft, the
dealer's upcard (1 ace .. 10), the pair's rank (0: none), first move, the hand's number,
the seat's hands, then the cards not yet seen by rank (ace .. ten).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from croupier.clients.envs.options import manager
from croupier.clients.envs.rewards import REWARDS
from croupier.engine import CroupierError
from croupier.engine.chunks import chunk_seed
from croupier.plugins.blackjack.kernel.data import (
    chart_array,
    compiled_betting,
    compiled_dealer,
    rules_vector,
)
from croupier.plugins.blackjack.kernel.kernel import _plans
from croupier.plugins.blackjack.kernels import play_table
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.strategy import Strategy

from .vector_kernel import chart_actions, reset_tables, step_tables
from .vector_round import MOVES, OBS_LEN, PLAY_ACTIONS, STATE_LEN

SEED_RANGE = 2**63


def kernel_rules(rules: str | None, overrides: dict[str, Any] | None) -> BlackjackRules:
    """The rules, checked for the kernel (one line for what it cannot play)."""
    game = manager().games.get("blackjack")
    options = game.rules(game.default_rules(rules), overrides)
    found = rules_from_options(BlackjackRules(), options)
    if found.shoe not in ("casino", "fresh-pack"):
        raise CroupierError(f"the {found.shoe!r} shoe is played in Python: use croupier/Blackjack")
    if compiled_dealer(manager(), found.dealer) is None:
        raise CroupierError(f"the dealer rule {found.dealer!r} has no compiled form")
    if not compiled_betting(manager(), found.betting):
        raise CroupierError(f"the betting scheme {found.betting!r} has no compiled form")
    return found


class BlackjackVector(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` blackjack tables on the kernel (see the module's text)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        num_envs: int = 1,
        *,
        rules: str | None = None,
        overrides: dict[str, Any] | None = None,
        bet_units: Sequence[int] = (1,),
        reward: str = "chips",
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise CroupierError(f"num_envs is a whole number of at least 1, not {num_envs!r}")
        units = tuple(bet_units)
        if not units or any(isinstance(u, bool) or not isinstance(u, int) or u < 1 for u in units):
            raise CroupierError(f"bet_units are whole numbers of at least 1, not {bet_units!r}")
        if reward != "chips":
            known = ", ".join(REWARDS)
            raise CroupierError(
                f"the vectorised env pays chips only, not reward {reward!r} (known: {known}; "
                "the exact ones in croupier/<Game>-v0 and the AEC env)"
            )
        self.blackjack_rules = kernel_rules(rules, overrides)
        dealer = compiled_dealer(manager(), self.blackjack_rules.dealer)
        assert dealer is not None
        self.rules = np.asarray(rules_vector(self.blackjack_rules, dealer), np.int64)
        self.units = np.asarray(units, np.int64)
        self.num_envs = num_envs
        self.actions = (*MOVES, *(f"bet x{u}" for u in units))
        n_cards = int(self.rules[0]) * 52
        self.single_action_space = spaces.Discrete(len(self.actions))
        self.single_observation_space = spaces.Box(0, n_cards, (OBS_LEN,), np.int64)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.shoe = np.zeros((num_envs, n_cards), np.int8)
        self.spare = np.zeros((num_envs, n_cards), np.int8)
        self.state = np.zeros((num_envs, STATE_LEN), np.int64)
        self.unseen = np.zeros((num_envs, 10), np.int64)
        hands = int(self.rules[5])
        self.live = np.zeros((num_envs, 2, max(hands, 1)), np.int64)
        self.keys = np.zeros(num_envs, np.uint64)
        self.counters = np.zeros(num_envs, np.uint64)
        self.obs = np.zeros((num_envs, OBS_LEN), np.int64)
        self.masks = np.zeros((num_envs, len(self.actions)), np.int8)
        self.rewards = np.zeros(num_envs, np.int64)
        self.ended = np.zeros(num_envs, np.bool_)
        self.seed_used: int | None = None
        self._plans: dict[str, np.ndarray] = {}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed if isinstance(seed, int) else None)
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise CroupierError(f"give one seed per table ({self.num_envs}), not {len(seed)}")
            keys = [int(s) % 2**64 for s in seed]
            self.seed_used = None
        else:
            self.seed_used = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
            keys = [chunk_seed(self.seed_used, i) for i in range(self.num_envs)]
        self.keys[:] = np.asarray(keys, np.uint64)
        reset_tables(
            self.rules, self.shoe, self.state, self.unseen, self.keys, self.counters,
            self.obs, self.masks,
        )  # fmt: skip
        return self.obs.copy(), self._info()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        chosen = np.asarray(actions, np.int64).reshape(self.num_envs)
        bad = step_tables(
            self.rules, self.units, chosen, self.shoe, self.spare, self.state, self.unseen,
            self.live, self.keys, self.counters, self.obs, self.masks, self.rewards, self.ended,
        )  # fmt: skip
        if bad >= 0:
            a = int(chosen[bad])
            said = self.actions[a] if 0 <= a < len(self.actions) else f"{a} (no such action)"
            raise CroupierError(f"table {bad}: {said} is not legal now (see info['action_mask'])")
        terminated = self.ended.copy()
        truncated = np.zeros(self.num_envs, np.bool_)
        return self.obs.copy(), self.rewards.astype(np.float64), terminated, truncated, self._info()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.masks.copy(), "seed": self.seed_used}

    def chart_actions(self, strategy: str | np.ndarray = "basic", bet_unit: int = 1) -> np.ndarray:
        """What a chart strategy plays at every table now, as the simulator's kernel plays
        it: a baseline agent. ``strategy``: a blackjack strategy given as a chart
        (``basic``: solved for these rules), or a chart as the kernel takes it (letter
        codes, ``[hard, soft, pairs]`` x 22 rows x 10 upcards)."""
        if bet_unit not in self.units:
            raise CroupierError(f"bet unit {bet_unit} is not one of {list(self.units)}")
        if isinstance(strategy, np.ndarray):
            plans = _plans(self.rules, np.asarray(strategy, np.int64))
        else:
            if strategy not in self._plans:
                self._plans[strategy] = _plans(self.rules, self._chart(strategy))
            plans = self._plans[strategy]
        out = np.zeros(self.num_envs, np.int64)
        bet_action = PLAY_ACTIONS + int(np.flatnonzero(self.units == bet_unit)[0])
        chart_actions(self.rules, plans, self.state, bet_action, out)
        return out

    def _chart(self, strategy: str) -> np.ndarray:
        found = manager().strategies.get(strategy)
        if not isinstance(found, Strategy):
            raise CroupierError(f"{strategy!r} is not a blackjack strategy")
        table = play_table(found.for_rules(self.blackjack_rules))
        if table is None:
            raise CroupierError(f"strategy {strategy!r} is not given as a chart")
        return np.asarray(chart_array(table), np.int64)
