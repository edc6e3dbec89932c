"""The simulator for any game: a strategy at every seat, rounds in seeded chunks.

A chunk is one table of the game (its own shoe) with ``seats`` seats and an unlimited
bankroll, dealt from the chunk's seed (:func:`~croupier.engine.chunks.chunk_seed`) and
played by the strategy through the game's own round generator, so a simulation plays
exactly the game a table plays. Its totals are integers (seat-rounds with a stake, chips
staked, net chips and their squares, and the game's counters), summed over chunks by the
engine's driver: the same seed gives the same result on one process, every core or a
cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import attrs

from croupier.engine.chunks import run_chunks
from croupier.engine.errors import CroupierError, one_line
from croupier.engine.executor import Executor
from croupier.engine.games import Game, GameCore, GameStrategy, Plain, Turn
from croupier.engine.kernels import KernelJob
from croupier.engine.ledger import seat_account
from croupier.engine.manager import PluginManager

BANKROLL = 10**12
"""Each simulated seat's chips: more than any run can lose."""
BASE_FIELDS = ("rounds", "hands", "staked", "net", "net_sq", "round_net_sq", "house")
GAME_CHUNK = 2_000
"""Rounds per chunk of a game played in Python: a second or so of work (baccarat plays
~8,000 rounds a second with one seat, Three Card Poker ~1,300, seven seats a third to a
quarter of that), against a compiled kernel's million rounds, so that progress moves,
workers share a run of any size and Ctrl-C keeps all but a second of it. Fixed, never
measured, and the same for any number of seats: it fixes the chunks and so the result of
a seed (two runs with one seed deal the same cards whatever the seats)."""


def play_sync(
    core: GameCore,
    strategy: GameStrategy,
    rounds: int,
    refusal: Callable[[Turn, Plain], str | None] | None = None,
) -> int:
    """Play up to ``rounds`` rounds with ``strategy`` at every seat; a refused answer
    (``refusal``: the game's :meth:`~croupier.engine.games.Game.refusal` at the table, by
    default the core's own check) is the strategy's bug, stopped with its name. Returns the
    rounds played."""
    check = core.check if refusal is None else refusal
    for played in range(rounds):
        flow = core.play_round()
        try:
            turn = next(flow)
            while True:
                try:
                    action = strategy.play(turn.observation)
                except Exception as exc:
                    raise CroupierError(
                        f"strategy {strategy.name!r} failed: {one_line(exc)}"
                    ) from None
                refused = check(turn, action)
                if refused is not None:
                    raise CroupierError(f"strategy {strategy.name!r} played {action!r}: {refused}")
                turn = flow.send(action)
        except StopIteration as stop:
            if not stop.value:
                return played
    return rounds


_GAMES: dict[str, Game] = {}


def _game(name: str) -> Game:
    """The game in this process (a worker loads the installed plugins once)."""
    if name not in _GAMES:
        _GAMES[name] = PluginManager().games.get(name)
    return _GAMES[name]


@attrs.frozen
class GameSimData:
    game: str
    options: dict[str, Any]
    strategy: str
    seats: int


def run_game_chunk(data: GameSimData, seed: int, rounds: int) -> list[int]:
    """A chunk's totals: :data:`BASE_FIELDS` then the game's counters."""
    game = _game(data.game)
    strategy = game.strategy(data.strategy)
    core = game.new_core(data.options, seed, [BANKROLL] * data.seats, None)
    refusal = partial(game.refusal, data.options, core)
    accounts = [seat_account(s) for s in range(1, data.seats + 1)]
    hands = net = net_sq = round_net_sq = 0
    balances = core.ledger.balances
    played = 0
    for _ in range(rounds):
        before = [balances[a] for a in accounts]
        if not play_sync(core, strategy, 1, refusal):
            break
        played += 1
        table = 0
        for account, start in zip(accounts, before, strict=True):
            change = balances[account] - start
            table += change
            net_sq += change * change
        net += table
        round_net_sq += table * table  # seats share a round's cards: the round is the unit
        hands += data.seats  # a seat that passed counts as a hand with no stake
    staked = -sum(v for k, v in core.ledger.totals.items() if k.startswith("bet"))
    house = balances["house"]
    counts = (core.counts[c] for c in game.counters)
    return [played, hands, staked, net, net_sq, round_net_sq, house, *counts]


def game_job(game: Game, options: Plain, strategy: str, seats: int) -> KernelJob:
    game.strategy(strategy)  # an unknown name fails here, in one line
    if not 1 <= seats <= game.max_seats:
        raise CroupierError(f"a {game.name} table has 1 to {game.max_seats} seats, not {seats}")
    data = GameSimData(game.name, dict(options), strategy, seats)
    return KernelJob(run_game_chunk, data, BASE_FIELDS + game.counters, GAME_CHUNK)


def simulate_game(
    game: Game,
    options: Plain,
    strategy: str,
    rounds: int,
    seats: int,
    seed: int,
    *,
    executor: Executor | None = None,
    progress: Callable[[int, dict[str, int]], None] | None = None,
) -> dict[str, Any]:
    """Simulate ``rounds`` rounds; the result per hand and per chip staked, with 95%
    intervals, and the game's counters as rates per round."""
    job = game_job(game, options, strategy, seats)
    result = run_chunks(job, seed, rounds, executor=executor, progress=progress)
    return game_report(result.totals, game.counters, partial=result.partial)


def game_report(
    totals: dict[str, int], counters: tuple[str, ...], *, partial: bool
) -> dict[str, Any]:
    """Means, standard deviation and intervals from a simulation's integer totals.

    Seats at one table share its cards, so their results are not independent: intervals
    come from the spread of whole rounds (the sum over seats), never of single hands. The
    result per chip staked is a ratio of two sums; its interval treats the stake per hand
    as fixed (exact for flat bets, the usual case of a strategy's simulation)."""
    hands, staked, net, rounds = totals["hands"], totals["staked"], totals["net"], totals["rounds"]
    mean = net / hands if hands else 0.0
    sd = math.sqrt(max(0.0, totals["net_sq"] / hands - mean * mean)) if hands else 0.0
    half = None
    if rounds > 1:
        per_round = net / rounds
        var = max(0.0, (totals["round_net_sq"] - net * per_round) / (rounds - 1))
        half = 1.96 * math.sqrt(var / rounds) / (hands / rounds)
    per_stake = net / staked if staked else None
    stake = staked / hands if hands else 0.0
    report: dict[str, Any] = {
        "rounds": totals["rounds"],
        "hands": hands,
        "staked": staked,
        "net_chips": net,
        "mean": mean,
        "sd": sd,
        "ci95": None if half is None else [mean - half, mean + half],
        "result_per_chip": per_stake,
        "result_per_chip_ci95": None
        if half is None or per_stake is None
        else [per_stake - half / stake, per_stake + half / stake],
        "rates": {c: totals[c] / totals["rounds"] if totals["rounds"] else 0.0 for c in counters},
        "conserved": totals["house"] == -net,
        "partial": partial,
    }
    return report
