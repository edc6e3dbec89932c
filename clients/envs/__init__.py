"""Environments for learning agents: every installed game as Gymnasium and PettingZoo
environments, a vectorised blackjack on the compiled kernel, and a seat at a server.

Importing this package registers ``croupier/<Game>-v0`` with Gymnasium for every
installed game (``croupier/Blackjack-v0``, ``croupier/CoinToss-v0``, ...) and
``croupier/BlackjackVector-v0`` (``gymnasium.make_vec(..., num_envs=N)``: the compiled
tables). See docs/envs.md. Needs the ``gym`` extra.
"""

from __future__ import annotations

import gymnasium

from croupier.clients.envs.options import manager

NAMESPACE = "croupier"


def env_name(game: str) -> str:
    """``three-card-poker`` -> ``ThreeCardPoker``."""
    return "".join(part.capitalize() for part in game.split("-"))


def register() -> list[str]:
    """Register every installed game with Gymnasium; the ids."""
    ids = []
    for game in manager().games:
        env_id = f"{NAMESPACE}/{env_name(game.name)}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="croupier.clients.envs.gym_env:CroupierEnv",
                kwargs={"game": game.name},
                disable_env_checker=True,
            )
        ids.append(env_id)
    vector_id = f"{NAMESPACE}/BlackjackVector-v0"
    if vector_id not in gymnasium.registry:
        gymnasium.register(
            vector_id, vector_entry_point="croupier.clients.envs.vector_env:BlackjackVector"
        )
    return [*ids, vector_id]


IDS = register()
