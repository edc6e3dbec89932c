"""The env at a server's table: one agent's code, run against the local env and against a
real ``croupier serve`` process on 127.0.0.1, sees the same observations and earns the
same rewards, round for round, on the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.clients.envs.gym_env import CroupierEnv
from croupier.clients.envs.remote_env import RemoteEnv
from croupier.engine import CroupierError

OPTIONS = {"rules": "vegas-s17", "others": ["basic"], "rounds": 12, "bet_units": (1, 3)}


def agent(env, obs, info):
    """A simple agent on the encoded observation: the biggest bet, hit below 15, no
    insurance; the same code wherever the env is."""
    mask, actions = info["action_mask"], env.unwrapped.table_actions.actions

    def first(*wanted):
        for kind, amount in wanted:
            for i, a in enumerate(actions):
                if mask[i] and a["kind"] == kind and a.get("amount", amount) == amount:
                    return i
        return None

    found = first(("bet", 30), ("decline", None))
    if found is None:
        found = first(("hit", None)) if obs["total"] < 15 else first(("stand", None))
    return found if found is not None else int(np.flatnonzero(mask)[0])


def episode(env, seed):
    obs, info = env.reset(seed=seed)
    seen, rounds, rewards = [], [], []
    while True:
        obs, reward, terminated, truncated, info = env.step(agent(env, obs, info))
        seen.append({k: v for k, v in obs.items() if k != "action_mask"})
        rounds += info["rounds"]
        rewards.append(reward)
        if terminated or truncated:
            return seen, rounds, rewards, (terminated, truncated)


@pytest.mark.slow  # a real server process
def test_an_agent_earns_at_a_server_table_what_it_earns_locally(server):
    remote = RemoteEnv("127.0.0.1", server.port, "blackjack", **OPTIONS)
    try:
        there = episode(remote, 31)
        again = episode(remote, 31)  # a new table of the same seed: the same again
    finally:
        remote.close()
    here = episode(CroupierEnv("blackjack", **OPTIONS), 31)
    assert len(here[1]) == 12 and any(here[1])
    assert there[1:] == here[1:] == again[1:]
    assert repr(there[0]) == repr(here[0])


@pytest.mark.slow  # a real server process, and retries to a closed port
def test_a_server_refusal_and_no_server_get_one_line(server):
    remote = RemoteEnv("127.0.0.1", server.port, "blackjack", rounds=2, wait=30)
    try:
        remote.reset(seed=1)
        hit = remote.table_actions.actions.index({"kind": "hit"})
        with pytest.raises(CroupierError, match="hit is not legal now"):
            remote.step(hit)
        bet_zero = remote.table_actions.actions.index({"kind": "bet", "amount": 0})
        with pytest.raises(CroupierError, match="the server refused"):
            remote.step(bet_zero)
    finally:
        remote.close()
    with pytest.raises(CroupierError, match="the server's table: "):
        RemoteEnv("127.0.0.1", 1, "blackjack", wait=30).reset(seed=1)
