"""The Gymnasium environment at a server's table: the same spaces, steps and rewards as
:class:`~croupier.clients.envs.gym_env.CroupierEnv`, the seat a real seat at a croupier
server reached over the protocol (the bot SDK), so an agent trained locally is evaluated
at a server table with no change of code::

    env = RemoteEnv("127.0.0.1", 7171, "blackjack", rules="vegas-s17", others=["basic"])

``reset(seed=S)`` creates the table ``table.create`` makes with seed S (so it deals the
local env's shoe of seed S), the agent in seat 1 and ``others`` filling the seats after
it, for ``rounds`` rounds; the SDK runs in a thread of its own (trio), its ``decide``
calls handed to :meth:`step` through queues. The mask is the kinds the server lists as
legal; stakes are checked by the server: an action it refuses raises one line (as an
action outside the mask does), and the next step answers the same decision again.
Reward ``chips``: the seat's net for each round it finishes, from its chips at its first
decision of each round (and at the table's end), given in the step in which the round
ends, as locally.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import trio

from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.sdk import play
from croupier.clients.envs.gym_env import SEED_RANGE
from croupier.clients.envs.options import EnvOptions
from croupier.clients.envs.spaces import ActionTable, ObservationCoder
from croupier.engine import CroupierError
from croupier.engine.errors import one_line

WAIT = 60.0
"""Seconds :meth:`RemoteEnv.step` waits for the server (then one line, never a hang)."""


class _EnvBot(GameBot):
    """The env's seat: each decision goes out to the env's thread and its answer back."""

    events = False

    def __init__(self, game: str, to_env: queue.Queue[Any], from_env: queue.Queue[Any]) -> None:
        super().__init__()
        self.game = game
        self.to_env = to_env
        self.from_env = from_env

    async def _ask(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        self.to_env.put(("turn", dict(observation)))
        answer: dict[str, Any] = await trio.to_thread.run_sync(
            self.from_env.get, abandon_on_cancel=True
        )
        return answer

    async def answer_game(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        return await self._ask(observation)  # every game's, blackjack's too


def _no_check(action: Mapping[str, Any]) -> None:
    return None  # the server checks stakes


class RemoteEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat at a server's table (see the module's text)."""

    metadata = {"render_modes": []}  # noqa: RUF012 (Gymnasium's instance attribute)

    def __init__(
        self,
        host: str,
        port: int,
        game: str = "blackjack",
        *,
        wait: float = WAIT,
        name: str = "gym-agent",
        **options: Any,
    ) -> None:
        self.setup = EnvOptions.of(game, options, extra=("wait", "name"))
        if self.setup.reward != "chips":  # the oracle follows a whole table's events
            raise CroupierError(
                f"the env at a server table pays chips only, not reward {self.setup.reward!r}"
            )
        self.rules_name = options.get("rules")
        self.overrides = dict(options.get("overrides") or {})
        self.others = list(options.get("others") or [])
        self.host, self.port, self.name = host, port, name
        self.wait = wait
        self.table_actions = ActionTable.of(self.setup)
        self.coder = ObservationCoder.of(self.setup.game, len(self.table_actions.actions))
        self.action_space = self.table_actions.space
        self.observation_space = self.coder.space
        self._thread: threading.Thread | None = None
        self._cancel: tuple[trio.lowlevel.TrioToken, trio.CancelScope] | None = None
        self.to_env: queue.Queue[Any] = queue.Queue()
        self.from_env: queue.Queue[Any] = queue.Queue()
        self.seen: dict[str, Any] | None = None
        self.seed = 0
        self._round = 0
        self._chips: int | None = None

    def _run(self, create: dict[str, Any], bot: _EnvBot) -> None:
        async def main() -> None:
            with trio.CancelScope() as scope:
                self._cancel = (trio.lowlevel.current_trio_token(), scope)
                try:
                    final = await play(bot, self.host, self.port, create=create, name=self.name)
                    self.to_env.put(("end", final))
                except Exception as exc:
                    self.to_env.put(("error", one_line(exc)))

        trio.run(main)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.close()
        self.seed = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
        self.to_env, self.from_env = queue.Queue(), queue.Queue()
        create = {
            "game": self.setup.game.name,
            "rules": self.rules_name,
            "options": self.overrides,
            "seed": self.seed,
            "seats": self.setup.seats,
            "fill": [None, *self.others],
            "rounds": self.setup.rounds,
            "decision_time": None,
        }
        if self.setup.chips[0] != self.setup.options["starting_chips"]:
            create["options"] = {**self.overrides, "starting_chips": self.setup.chips[0]}
        bot = _EnvBot(self.setup.game.name, self.to_env, self.from_env)
        self._thread = threading.Thread(target=self._run, args=(create, bot), daemon=True)
        self._thread.start()
        self._round, self._chips = 0, None
        kind, data = self._next()
        if kind != "turn":
            raise CroupierError(f"the server's table gave the seat no decision: {data}")
        obs, info, _ = self._observe(data)
        return obs, info

    def _next(self) -> tuple[str, Any]:
        try:
            kind, data = self.to_env.get(timeout=self.wait)
        except queue.Empty:
            raise CroupierError(
                f"the server at {self.host}:{self.port} sent nothing for {self.wait:g} s"
            ) from None
        if kind == "error":
            raise CroupierError(f"the server's table: {data}")
        return kind, data

    def _observe(self, seen: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], list[int]]:
        self.seen = seen
        results = []
        chips = seen.get("chips")
        if seen.get("round") != self._round and isinstance(chips, int):
            if self._chips is not None:
                results.append(chips - self._chips)
            self._round, self._chips = seen.get("round", 0), chips
        mask = self._mask(seen)
        info = {"action_mask": mask, "rounds": results, "seed": self.seed, "round": self._round}
        return self.coder.encode(seen, mask), info, results

    def _mask(self, seen: Mapping[str, Any] | None) -> np.ndarray:
        legal = list((seen or {}).get("legal") or [])
        return self.table_actions.mask(legal, _no_check)

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.seen is None:
            raise CroupierError("the episode is over: call reset() first")
        chosen = dict(
            self.table_actions.choose(action, self.seen.get("legal") or (), {}, _no_check)
        )
        self.from_env.put(chosen)
        kind, data = self._next()
        if kind == "turn":
            if data.get("refused"):  # asked again: the answer stands refused
                self.seen = data
                raise CroupierError(f"the server refused {chosen}: {data['refused']}")
            obs, info, results = self._observe(data)
            return obs, float(sum(results)), False, False, info
        final = data
        self.seen = None
        chips = list(final.get("chips") or [])
        end = int(chips[0]) if chips else (self._chips or 0)
        results = [end - self._chips] if self._chips is not None else []
        mask = np.zeros(len(self.table_actions.actions), np.int8)
        info = {"action_mask": mask, "rounds": results, "seed": self.seed, "final": final}
        terminated = end < self.setup.game.seat_minimum(self.setup.options)
        obs = self.coder.encode(None, mask)
        return obs, float(sum(results)), terminated, not terminated, info

    def close(self) -> None:
        """Leave the table (the SDK says so to the server) and stop the thread."""
        if self._thread is not None and self._thread.is_alive() and self._cancel is not None:
            token, scope = self._cancel
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(scope.cancel, trio_token=token)
            self.from_env.put({"kind": "__closed__"})
            self._thread.join(self.wait)
        self._thread, self._cancel, self.seen = None, None, None
