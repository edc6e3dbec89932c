"""The vectorised blackjack env on the kernel: its tables are the simulator's chunks (the
kernel's chart player through the env nets exactly what ``play_chunk`` nets, seed for
seed, under several rule sets); masks let any legal play through; one-line errors."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import croupier.clients.envs  # noqa: F401 (registers the ids)
from croupier.clients.envs.options import manager
from croupier.clients.envs.vector_env import BlackjackVector
from croupier.clients.envs.vector_kernel import HOLE, POS
from croupier.engine import CroupierError
from croupier.engine.chunks import chunk_seed
from croupier.plugins.blackjack.kernel.data import chart_array
from croupier.plugins.blackjack.kernel.instances import play_chunk
from croupier.plugins.blackjack.kernel.kernel import FIELDS
from croupier.plugins.blackjack.kernels import play_table

RULES = [
    ("vegas-s17", None),
    ("vegas-h17", {"resplit_aces": True, "hit_split_aces": True, "double": "10-11"}),
    ("single-deck", {"peek": False, "surrender": "none", "max_split_hands": 2}),
    ("downtown-h17-6to5", {"shoe": "fresh-pack", "double_after_split": False}),
]


def _rounds(env, rounds, chart):
    """Each table's round nets, the chart player at every table."""
    nets = [[] for _ in range(env.num_envs)]
    while min(len(n) for n in nets) < rounds:
        _, reward, terminated, _, _ = env.step(env.chart_actions(chart))
        for i in np.flatnonzero(terminated):
            if len(nets[i]) < rounds:
                nets[i].append(int(reward[i]))
    return nets


def _same_as_the_kernel(env, chart, rounds):
    env.reset(seed=21)
    nets = _rounds(env, rounds, chart)
    for i in range(env.num_envs):
        played = play_chunk(env.rules, chart, np.uint64(chunk_seed(21, i)), rounds, 1)
        out = dict(zip(FIELDS, played, strict=True))
        assert (sum(nets[i]), sum(n * n for n in nets[i])) == (out["net"], out["net_sq"])
    assert len({tuple(n) for n in nets}) == env.num_envs  # a shoe each


@pytest.mark.parametrize(("rules", "overrides"), RULES)
def test_any_chart_nets_what_the_simulator_kernel_nets(rules, overrides):
    """A random chart (every letter: hit, stand, doubles, splits, surrenders) under rules
    that take every path (no peek, resplit and hit split aces, a fresh pack, ...)."""
    chart = np.random.default_rng(len(rules)).integers(0, 9, (3, 22, 10))
    _same_as_the_kernel(BlackjackVector(3, rules=rules, overrides=overrides), chart, 1500)


@pytest.mark.slow
def test_basic_strategy_nets_what_the_simulator_kernel_nets():
    env = BlackjackVector(2, rules="vegas-s17")
    strategy = manager().strategies.get("basic").for_rules(env.blackjack_rules)
    chart = np.asarray(chart_array(play_table(strategy)), np.int64)
    _same_as_the_kernel(env, chart, 2000)
    env.reset(seed=21)
    assert (env.chart_actions("basic") == env.chart_actions(chart)).all()


def test_random_legal_play_runs_and_a_seed_repeats_it():
    def run(seed):
        env = gymnasium.make_vec("croupier/BlackjackVector-v0", num_envs=64, bet_units=[1, 4])
        obs, info = env.reset(seed=seed)
        assert obs.shape == (64, 18) and env.observation_space.contains(obs)
        rng = np.random.default_rng(0)
        total, rounds, splits = 0.0, 0, 0
        for _ in range(300):
            mask = info["action_mask"]
            action = (rng.random(mask.shape) * mask).argmax(1)
            splits += int((action == 3).sum())
            obs, reward, terminated, truncated, info = env.step(action)
            unseen = obs[:, 8:]
            assert (unseen >= 0).all() and (unseen[:, 9] <= 6 * 16).all()
            betting = obs[:, 0] == 0  # between rounds every card not in the discards is unseen
            assert (unseen[betting].sum(1) <= 6 * 52).all()
            total += reward.sum()
            rounds += int(terminated.sum())
            assert not truncated.any()
        return total, rounds, splits, obs.tolist()

    first = run(5)
    assert first == run(5) and first != run(6)
    assert first[1] > 1000 and first[2] > 0


def test_the_unseen_cards_are_the_shoe_left_and_the_hole_card():
    env = BlackjackVector(2, rules="vegas-s17")
    obs, _ = env.reset(seed=4)
    assert obs[:, 8:].tolist() == [[24] * 9 + [96]] * 2  # a fresh 6-deck shoe
    obs, *_ = env.step(np.full(2, 5))  # bet: the deal
    n_cards, pos = env.shoe.shape[1], env.state[:, POS]
    for i in range(2):
        left = np.bincount(env.shoe[i, pos[i] :], minlength=10)
        hole = np.bincount([env.state[i, HOLE]], minlength=10) * (obs[i, 0] == 1)
        assert obs[i, 8:].tolist() == (left + hole).tolist()
        assert obs[i, 8:].sum() == n_cards - pos[i] + (obs[i, 0] == 1)


def test_an_illegal_action_and_rules_the_kernel_cannot_play_get_one_line():
    env = BlackjackVector(4)
    env.reset(seed=1)
    with pytest.raises(CroupierError, match=r"table 0: hit is not legal now"):
        env.step(np.zeros(4, np.int64))  # a bet is due
    with pytest.raises(CroupierError, match="koth"):
        BlackjackVector(2, rules="koth")
    with pytest.raises(CroupierError, match="num_envs"):
        BlackjackVector(0)
    with pytest.raises(CroupierError, match="pays chips only"):
        BlackjackVector(2, reward="luck")
