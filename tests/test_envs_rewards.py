"""The learning environments' exact rewards (croupier.clients.envs.rewards): the EV loss of
each decision and the luck-adjusted result, from the game's oracle as the arena scores them."""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import numpy as np
import pytest
import trio
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from croupier.clients.envs import options
from croupier.clients.envs.aec_env import croupier_aec
from croupier.clients.envs.gym_env import CroupierEnv
from croupier.clients.envs.remote_env import RemoteEnv
from croupier.clients.envs.vector_env import BlackjackVector
from croupier.engine import CroupierError, PluginManager
from croupier.engine.cards import card
from croupier.engine.gametable import GameTable
from croupier.engine.oracle import Valuation, phase_of
from croupier.engine.scoring import Moments, oracle_for
from croupier.plugins.blackjack.oracle import action_values
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.solver.cards import full_shoe, rank_of
from croupier.plugins.three_card_poker.oracle import play_value

BETS: dict[str, dict[str, Any]] = {
    "blackjack": {"kind": "bet", "amount": 10},
    "three-card-poker": {"kind": "bet", "ante": 10, "pair_plus": 0},
}


def _valuation(env: Any) -> Valuation | None:
    """The oracle's values at this turn, asked of a copy of the env's oracle (the env's own
    sees each decision once, as the arena's does)."""
    u = env.unwrapped
    assert u.table.scorer is not None
    oracle = copy.deepcopy(u.table.scorer.oracle)
    turn = u.turn
    if phase_of(turn) == "bet":
        return None
    question = oracle.ask(turn, {"kind": turn.legal[0]})
    return None if question is None else question.valuation()


def _episode(env: Any, seed: int, pick: Any) -> list[tuple[float, dict[str, Any], Any]]:
    """Each step's reward, info and the valuation its action was picked by."""
    _, info = env.reset(seed=seed)
    steps = []
    while True:
        valued = _valuation(env)
        action = pick(env, valued)
        _, reward, terminated, truncated, info = env.step(action)
        steps.append((reward, info, valued))
        if terminated or truncated:
            return steps


def _best(env: Any, valued: Valuation | None) -> int:
    if valued is None:
        return int(env.unwrapped.action_index(BETS[env.unwrapped.setup.game.name]))
    return int(env.unwrapped.action_index({"kind": valued.best}))


def _worst(env: Any, valued: Valuation | None) -> int:
    if valued is None:
        return _best(env, valued)
    worst = min(valued.values, key=lambda k: valued.values[k])
    return int(env.unwrapped.action_index({"kind": worst}))


@pytest.mark.parametrize(
    ("game", "rounds"),
    [("three-card-poker", 300), pytest.param("blackjack", 40, marks=pytest.mark.slow)],
)
def test_the_oracles_best_play_earns_exactly_zero_ev_loss(game, rounds):
    env = CroupierEnv(game, reward="ev-loss", rounds=rounds, chips=10**6)
    steps = _episode(env, 4, _best)
    scored = [d for _, info, _ in steps for d in info["decisions"]]
    assert len(scored) >= rounds // 2
    assert all(reward == 0.0 for reward, _, _ in steps)
    assert all(d["loss"] == 0.0 and d["taken"] == d["best"] for d in scored)
    assert sum(len(info["rounds"]) for _, info, _ in steps) == rounds


@pytest.mark.parametrize(
    ("game", "rounds"),
    [("three-card-poker", 300), pytest.param("blackjack", 30, marks=pytest.mark.slow)],
)
def test_the_oracles_worst_play_earns_minus_its_exact_difference(game, rounds):
    env = CroupierEnv(game, reward="ev-loss", rounds=rounds, chips=10**6)
    steps = _episode(env, 9, _worst)
    lost = 0
    for reward, info, valued in steps:
        if valued is None:  # a bet: blackjack's is not valued, Three Card Poker's is the best
            assert reward == 0.0 and all(d["loss"] == 0.0 for d in info["decisions"])
            continue
        worst = min(valued.values.values())
        assert reward == -(valued.best_value - worst)
        (decision,) = info["decisions"]
        assert decision["value_taken"] == worst and decision["loss"] == -reward
        lost += reward < 0
    assert lost >= rounds // 2


def test_folding_every_three_card_poker_hand_costs_what_the_solver_says_playing_is_worth():
    """Independently of the oracle: folding loses the ante, playing is worth the solver's
    exact result per ante, so a fold costs their difference when playing is better."""
    env = CroupierEnv("three-card-poker", reward="ev-loss", rounds=200, chips=10**6)
    bonus = env.setup.options["ante_bonus"]
    fold = env.action_index({"kind": "fold"})
    bet = env.action_index(BETS["three-card-poker"])
    env.reset(seed=5)
    folded = costly = 0
    while True:
        turn = env.turn
        assert turn is not None
        if "fold" in turn.legal:
            hand = tuple(sorted(card(c) for c in turn.observation["cards"]))
            ante = int(turn.observation["ante"])
            expected = -max(0.0, ante * play_value(hand, bonus) + ante)
            _, reward, terminated, truncated, _ = env.step(fold)
            assert reward == expected
            folded += 1
            costly += reward < 0
        else:
            _, reward, terminated, truncated, _ = env.step(bet)
            assert reward == 0.0  # the bet is the oracle's only one: no loss
        if terminated or truncated:
            break
    assert folded == 200 and costly > 100


def _per_round(env: Any, seed: int, choose: Any) -> tuple[list[float], list[float], float]:
    """Each round's chips and adjusted result from ``info``, and the rewards' sum."""
    _, info = env.reset(seed=seed)
    chips: list[float] = []
    adjusted: list[float] = []
    total = 0.0
    while True:
        _, reward, terminated, truncated, info = env.step(choose(env, info))
        chips += info["rounds"]
        adjusted += info["adjusted"]
        total += reward
        if terminated or truncated:
            return chips, adjusted, total


def _unbiased_and_less_noisy(chips: list[float], adjusted: list[float]) -> None:
    diff, plain, luckless = Moments(), Moments(), Moments()
    for c, a in zip(chips, adjusted, strict=True):
        diff.add(c - a)
        plain.add(c)
        luckless.add(a)
    _, low, high = diff.interval()
    assert low <= 0.0 <= high, (diff.mean, low, high)
    assert luckless.variance < plain.variance / 4, (luckless.variance, plain.variance)


@pytest.mark.slow
def test_the_adjusted_reward_has_the_chips_mean_and_less_variance_three_card_poker():
    """A random agent (random antes and pair plus bets, random plays and folds)."""
    env = CroupierEnv("three-card-poker", reward="adjusted", rounds=3000, chips=10**7)
    rng = np.random.default_rng(6)

    def choose(env, info):
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    chips, adjusted, total = _per_round(env, 12, choose)
    assert len(chips) == len(adjusted) == 3000
    assert total == pytest.approx(sum(adjusted), abs=1e-6)
    _unbiased_and_less_noisy(chips, adjusted)


@pytest.mark.slow
def test_the_adjusted_reward_has_the_chips_mean_and_less_variance_blackjack():
    """Basic strategy at a six-deck shoe: its play's luck removed, its deal's kept."""
    env = CroupierEnv("blackjack", rules="vegas-s17", reward="adjusted", rounds=400, chips=10**6)
    game, opts = env.setup.game, env.setup.options
    basic = game.strategy("basic").at(opts)

    def choose(env, info):
        turn = env.unwrapped.turn
        seen = {**turn.observation, "legal": list(turn.legal), "refused": None}
        return env.unwrapped.action_index(basic.play(seen))

    chips, adjusted, total = _per_round(env, 21, choose)
    assert len(chips) == len(adjusted) == 400
    assert total == pytest.approx(sum(adjusted), abs=1e-6)
    assert any(c != a for c, a in zip(chips, adjusted, strict=True))
    _unbiased_and_less_noisy(chips, adjusted)


def _aec_run(game: str, reward: str, rounds: int) -> tuple[dict[str, float], dict[int, list]]:
    """Three agents picking random masked actions: each agent's rewards summed, and the
    actions each seat played."""
    env = croupier_aec(game, seats=3, rounds=rounds, reward=reward, chips=10**5)
    env.reset(seed=8)
    rng = np.random.default_rng(3)
    played: dict[int, list] = {s: [] for s in (1, 2, 3)}
    earned = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, got, terminated, truncated, _ = env.last()
        earned[agent] += got
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            played[int(agent.split("_")[1])].append(env.table_actions.actions[action])
        env.step(action)
    return earned, played


@pytest.mark.parametrize(
    ("game", "rounds"),
    [("three-card-poker", 40), pytest.param("blackjack", 12, marks=pytest.mark.slow)],
)
def test_every_aec_seat_earns_the_arenas_scores_of_its_play(game, rounds):
    """The same random play, scored by the AEC env and replayed at an arena GameTable of
    the same seed with the game's oracle: each seat's EV-loss and adjusted rewards add up
    to the losses and adjusted results the arena's Scorer books for it."""
    loss, played = _aec_run(game, "ev-loss", rounds)
    adjusted, again = _aec_run(game, "adjusted", rounds)
    assert again == played
    manager = options.manager()
    found = manager.games.get(game)
    opts = found.rules(found.default_rules(None))

    class Replay:
        def __init__(self, seat):
            self.actions = list(played[seat])

        async def decide(self, observation):
            return self.actions.pop(0)

    players = [Replay(s) for s in (1, 2, 3)]
    oracle = oracle_for(manager, game).new(opts)
    table = GameTable(found, opts, 8, players, chips=[10**5] * 3, oracle=oracle)
    trio.run(table.play, rounds)
    assert not any(p.actions for p in players)
    assert table.scorer is not None
    for seat in (1, 2, 3):
        card = table.scorer.card(seat)
        assert card.rounds == rounds
        assert loss[f"seat_{seat}"] == pytest.approx(-card.loss.mean * card.loss.n, abs=1e-9)
        assert adjusted[f"seat_{seat}"] == pytest.approx(
            card.adjusted.mean * card.adjusted.n, abs=1e-9
        )
    assert any(v < 0 for v in loss.values())


@pytest.fixture
def coin_toss():
    options.use(PluginManager(autoload=True))
    yield
    options.use(PluginManager(autoload=False))


@pytest.mark.usefixtures("coin_toss")
def test_exact_rewards_where_there_is_no_oracle_get_one_clear_line():
    for make in (
        lambda: CroupierEnv("coin-toss", reward="ev-loss"),
        lambda: croupier_aec("coin-toss", reward="adjusted"),
    ):
        with pytest.raises(CroupierError) as caught:
            make()
        said = str(caught.value)
        assert "\n" not in said and "needs the game's oracle: coin-toss has no oracle" in said
    CroupierEnv("coin-toss")  # chips need none
    for make, said in (
        (lambda: BlackjackVector(4, reward="ev-loss"), "the vectorised env pays chips only"),
        (lambda: RemoteEnv("127.0.0.1", 1, reward="adjusted"), "server table pays chips only"),
        (lambda: CroupierEnv(reward="luck"), "unknown reward 'luck'; known: chips, ev-loss"),
        (
            lambda: CroupierEnv(overrides={"dealer": "classic"}, reward="ev-loss"),
            "reward 'ev-loss' needs the game's oracle: the blackjack solver knows",
        ),
    ):
        with pytest.raises(CroupierError, match=said) as caught:
            make()
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("reward", ["ev-loss", "adjusted"])
def test_gymnasium_and_pettingzoo_check_the_exact_rewards(reward):
    check_env(
        CroupierEnv("three-card-poker", illegal="default", rounds=20, reward=reward),
        skip_render_check=True,
    )
    make = partial(croupier_aec, "three-card-poker", seats=3, rounds=20, reward=reward)
    api_test(make(), num_cycles=100)
    seed_test(make, num_cycles=100)


def test_standing_on_a_fresh_shoes_first_hand_costs_the_solvers_difference():
    """Independently of the oracle: the first hand after the shuffle is played from the
    full six-deck shoe (the hole card unseen), so standing on it costs exactly the exact
    solver's best value less its value of standing, times the stake."""
    env = CroupierEnv("blackjack", rules="vegas-s17", reward="ev-loss", rounds=1)
    rules = rules_from_options(BlackjackRules(), env.setup.options)
    bet, stand = env.action_index(BETS["blackjack"]), env.action_index({"kind": "stand"})
    decline = env.action_index({"kind": "decline"})
    checked = costly = 0
    for seed in range(8):
        env.reset(seed=seed)
        _, reward, *_ = env.step(bet)
        assert reward == 0.0  # bets are not valued
        while env.turn is not None and phase_of(env.turn) == "insurance":
            env.step(decline)
        if env.turn is None:
            continue  # a natural: no play decision
        obs = env.turn.observation
        hand = tuple(rank_of(c[:-1]) for c in obs["hands"][obs["hand"]])
        legal = tuple(a for a in env.turn.legal if a != "split")
        if "split" in env.turn.legal:
            continue  # a pair: the split's solve is slow, and other hands show the same
        exact = action_values(
            rules, full_shoe(6), hand, rank_of(obs["dealer_upcard"][:-1]), 0, legal
        )
        _, reward, *_ = env.step(stand)
        stake = int(obs["stake"])
        assert reward == pytest.approx(-stake * (max(exact.values()) - exact["stand"]), abs=1e-12)
        checked += 1
        costly += reward < 0
    assert checked >= 4 and costly >= 1
