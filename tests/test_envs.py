"""The learning environments (croupier.clients.envs): Gymnasium's and PettingZoo's own
checks for every game, the example plugin's included; seeds that deal croupier's tables;
results equal to the simulator's and to a table's; one-line errors for bad options."""

from __future__ import annotations

from functools import partial

import gymnasium
import numpy as np
import pytest
import trio
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from croupier.clients.envs import env_name, options, register
from croupier.clients.envs.aec_env import croupier_aec
from croupier.clients.envs.gym_env import CroupierEnv
from croupier.engine import CroupierError, PluginManager
from croupier.engine.chunks import chunk_seed
from croupier.engine.gamesim import BANKROLL, GameSimData, run_game_chunk
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account


@pytest.fixture(scope="module", autouse=True)
def every_game():
    """Every installed game, the example plugin's coin-toss too."""
    options.use(PluginManager(autoload=True))
    yield
    options.use(PluginManager(autoload=False))


GAMES = ("blackjack", "baccarat", "three-card-poker", "coin-toss")


def test_the_example_plugin_is_there():
    assert set(GAMES) <= set(options.manager().games.names())


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checks_every_game(game):
    others = ["basic"] if game == "blackjack" else []
    check_env(
        CroupierEnv(game, illegal="default", others=others, rounds=20), skip_render_check=True
    )


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_checks_every_game(game):
    api_test(croupier_aec(game, seats=3, rounds=20), num_cycles=100)
    seed_test(partial(croupier_aec, game, seats=3, rounds=20), num_cycles=100)


def test_registered_under_the_croupier_namespace():
    ids = register()
    assert "croupier/Blackjack-v0" in ids and "croupier/CoinToss-v0" in ids
    assert env_name("three-card-poker") == "ThreeCardPoker"
    env = gymnasium.make("croupier/Blackjack-v0", rules="vegas-s17", others=["basic", "basic"])
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert info["seed"] == 5 and obs["phase"] == 1  # bet


def _play(env, seed, choose):
    """Every step's reward and the per-round results until the episode ends."""
    obs, info = env.reset(seed=seed)
    rounds, rewards, actions = [], [], []
    while True:
        action = choose(env, obs, info)
        actions.append(env.unwrapped.action(action))
        obs, reward, terminated, truncated, info = env.step(action)
        rounds += info["rounds"]
        rewards.append(reward)
        if terminated or truncated:
            return rounds, rewards, actions


def _basic(game, opts):
    return game.strategy("basic").at(opts)


@pytest.mark.parametrize("game", ["blackjack", "baccarat", "three-card-poker", "coin-toss"])
def test_a_strategy_through_the_env_earns_what_croupier_sim_does(game, monkeypatch):
    """The simulator's first chunk of seed 11 is a table of seed chunk_seed(11, 0): the
    game's own strategy, answered through the env's action numbers, nets what it nets."""
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "")  # the simulator finds coin-toss
    found = options.manager().games.get(game)
    opts = found.rules(found.default_rules(None))
    strategy = next(s for s in found.strategies if s.for_options is None)  # as sim plays it

    def choose(env, obs, info):
        seen = {**env.unwrapped.turn.observation, "legal": list(env.unwrapped.turn.legal)}
        return env.unwrapped.action_index(strategy.play(seen))

    seed, n = chunk_seed(11, 0), 150
    env = CroupierEnv(game, rounds=n, chips=BANKROLL, bet_units=(1, 2, 5))
    rounds, rewards, _ = _play(env, seed, choose)
    data = GameSimData(game, opts, strategy.name, 1)
    played, _hands, _staked, net, net_sq, *_ = run_game_chunk(data, seed, n)
    assert (len(rounds), sum(rounds), sum(r * r for r in rounds)) == (played, net, net_sq)
    assert sum(rewards) == net


def test_a_random_agent_earns_at_the_env_what_it_earns_at_croupiers_table():
    """Random masked actions at seat 1 (basic at seat 2), replayed at a GameTable of the
    same seed: the same result for both seats, round by round."""
    env = CroupierEnv("blackjack", others=["basic"], rounds=60, bet_units=(1, 3))
    rng = np.random.default_rng(2)

    def choose(env, obs, info):
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    rounds, _, actions = _play(env, 77, choose)
    game, opts = env.setup.game, env.setup.options

    class Replay:
        async def decide(self, observation):
            return actions.pop(0)

    per_round = []
    table = GameTable(game, opts, 77, [Replay(), GameStrategyPlayer(_basic(game, opts))])

    async def main():
        for _ in range(60):
            before = table.ledger.balances[seat_account(1)]
            await table.play_round()
            per_round.append(table.ledger.balances[seat_account(1)] - before)

    trio.run(main)
    assert not actions and per_round == rounds and any(per_round)


def test_a_seed_deals_the_same_shoe_and_reset_draws_a_reported_one():
    env = CroupierEnv("blackjack", rounds=5)

    def cards(seed):
        obs, info = env.reset(seed=seed)
        seen = []
        while True:
            index = int(np.flatnonzero(info["action_mask"])[0])
            obs, _, term, trunc, info = env.step(index)
            seen.append(obs["visible"])
            if term or trunc:
                return seen, info["seed"]

    assert cards(9) == cards(9)
    assert cards(9) != cards(10)
    env.reset(seed=1)
    _, first = env.reset()
    env.reset(seed=1)
    _, again = env.reset()
    assert first["seed"] == again["seed"] != 1  # drawn from the env's generator, reported


def test_a_seat_out_of_chips_is_terminated_and_one_out_of_rounds_truncated():
    env = CroupierEnv("coin-toss", chips=3, rounds=1000, bet_units=(3,))
    assert env.action_space.n == 4  # heads or tails, 0 or 3 chips
    _, info = env.reset(seed=4)
    bet_all = env.action_index({"kind": "bet", "on": "heads", "amount": 3})
    steps = 0
    while True:
        _, reward, terminated, truncated, info = env.step(bet_all)
        steps += 1
        if terminated or truncated:
            break
    assert terminated and not truncated and info["chips"] == 0 and reward == -3
    assert steps < 1000
    env = CroupierEnv("coin-toss", rounds=3)
    _, info = env.reset(seed=4)
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated and not terminated and len(info["rounds"]) == 1


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"rules": "nope"}, "blackjack has no rule set 'nope'"),
        ({"overrides": {"decks": 0}}, "decks"),
        ({"overrides": {"colour": 1}}, "blackjack has no option 'colour'"),
        ({"others": ["nobody"]}, "blackjack has no strategy 'nobody'"),
        ({"others": ["basic"] * 7}, "a blackjack table has 1 to 7 seats"),
        ({"rounds": 0}, "rounds is at least 1"),
        ({"reward": "luck"}, "unknown reward 'luck'; known: chips, ev-loss, adjusted"),
        ({"bet_units": (0,)}, "bet_units are whole numbers"),
        ({"illegal": "ignore"}, "illegal is one of raise, default"),
        ({"rule": "vegas-s17"}, "unknown env option(s) rule; known: rules, overrides"),
    ],
)
def test_bad_options_get_one_clear_line(kwargs, said):
    with pytest.raises(CroupierError) as caught:
        CroupierEnv("blackjack", **kwargs)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_bad_options_through_gymnasium_make_get_the_same_line():
    with pytest.raises(CroupierError, match="blackjack has no rule set 'nope'"):
        gymnasium.make("croupier/Blackjack-v0", rules="nope")
    with pytest.raises(CroupierError, match="unknown env option"):
        croupier_aec("baccarat", seat=2)


def test_an_unknown_game_and_an_illegal_action_get_one_line():
    with pytest.raises(CroupierError, match="roulette"):
        CroupierEnv("roulette")
    env = CroupierEnv("blackjack")
    _, info = env.reset(seed=1)
    hit = env.action_index({"kind": "hit"})
    assert not info["action_mask"][hit]
    with pytest.raises(CroupierError, match=r"action \d+ \(hit\) is refused: hit is not legal now"):
        env.step(hit)
    with pytest.raises(CroupierError, match="not in 0"):
        env.step(99)


def test_the_mask_an_agent_writes_to_or_an_old_turns_mask_lets_no_illegal_action_through():
    env = CroupierEnv("blackjack")
    obs, info = env.reset(seed=1)
    bet, hit = env.action_index({"kind": "bet", "amount": 10}), env.action_index({"kind": "hit"})
    assert info["action_mask"][bet] and obs["action_mask"] is info["action_mask"]
    info["action_mask"][:] = 1  # the agent's copy: the env keeps what the game accepted
    with pytest.raises(CroupierError, match=r"\(hit\) is refused: hit is not legal now"):
        env.step(hit)
    _, _, _, _, info = env.step(bet)  # seed 1 deals a hand to play: a bet is legal no more
    assert env.turn is not None and env.turn.phase == "play" and not info["action_mask"][bet]
    with pytest.raises(CroupierError, match=r"\(bet 10\) is refused: bet is not legal"):
        env.step(bet)


@pytest.mark.parametrize("game", ["blackjack", "three-card-poker"])
def test_every_seat_of_the_aec_env_earns_what_it_earns_at_croupiers_table(game):
    """Random masked actions for three agents, replayed seat by seat at a GameTable of the
    same seed: each seat's rewards add up to its chips' change there."""
    env = croupier_aec(game, seats=3, rounds=40, bet_units=(1, 2))
    env.reset(seed=8)
    rng = np.random.default_rng(3)
    played = {s: [] for s in (1, 2, 3)}
    earned = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        earned[agent] += reward
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            played[int(agent.split("_")[1])].append(env.table_actions.actions[action])
        env.step(action)

    class Replay:
        def __init__(self, seat):
            self.actions = played[seat]

        async def decide(self, observation):
            return self.actions.pop(0)

    table = GameTable(env.setup.game, env.setup.options, 8, [Replay(s) for s in (1, 2, 3)])
    trio.run(table.play, 40)
    start = env.setup.chips[0]
    chips = {f"seat_{s}": table.ledger.balances[seat_account(s)] - start for s in (1, 2, 3)}
    assert not any(played.values()) and earned == chips and any(chips.values())
