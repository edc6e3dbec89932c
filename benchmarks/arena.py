"""Rounds needed to tell two blackjack bots apart at 95%, by chips and by the oracle's
exact measures; and whether scoring keeps up with a table of 4 TCP bots.

Run: ``.venv/bin/python benchmarks/arena.py [--rounds 300] [--seed 1] [--tcp-rounds 500]``

Separation. Each bot plays ``--rounds`` rounds alone at a vegas-s17 table (seeded, the
seed printed), every decision scored by blackjack's oracle (composition-dependent values
from the remaining shoe). For a pair of bots whose true difference is Δ chips a round
(estimated by the difference of their EV loss per round: expected chips are the round's
value under best play minus the expected losses, the same for both bots), a measure with
per-round variances σ1², σ2² separates them at 95% after n = 1.96² (σ1² + σ2²) / Δ² rounds
each. The measures: plain chips, luck-adjusted chips (control variates), EV loss per round,
and duplicate chips.
Pairs: basic against lim17, and basic against basic with one wrong cell (hitting hard 12
against a 4). The wrong cell comes up in a few rounds in a thousand, so it is measured on
basic's own rounds: each time basic met hard 12 against a 4, the oracle's loss of hitting
there is that round's extra loss (the later decisions of the hand are not rescored; basic
plays them near the best, so this slightly understates the wrong bot's loss).

Duplicate chips (the duplicate format's principle): both bots are dealt the same deals,
each a fresh shoe from its own seed (``seed * 1_000_000 + i`` for deal ``i``), and the
measure is the difference of their chips deal by deal: the cards they share cancel, so
with that difference's variance σd² the pair separates after n = 1.96² σd² / Δ² deals
each (Δ as above, so the columns compare).

Throughput. A server table of 4 TCP SDK bots playing lim17 (benchmarks/tables_tcp.py's
setup, its own subprocess) gives decisions played per second; the same seed and seats
played in-process with the oracle's questions kept (``defer_scoring``) and then answered
give decisions scored per second, side by side. Where scoring is slower than play it runs
off the table's path (after the table, or in workers: the questions are plain data), and
the table never waits on it.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import trio

from croupier.engine import PluginManager
from croupier.engine.confidence import Z95
from croupier.engine.games import GameStrategy, Plain
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.engine.scoring import Moments, Scorer, _adjusted, oracle_for
from croupier.plugins.blackjack.oracle import PlayQuestion

RULE_SET = "vegas-s17"


def wrong_cell(basic: GameStrategy) -> GameStrategy:
    """basic, but hitting hard 12 against a 4."""

    def play(observation: Plain) -> Plain:
        if _hard_12_v_4(observation) and "hit" in observation["legal"]:
            return {"kind": "hit"}
        return basic.play(observation)

    return GameStrategy("basic-12v4", "basic, hitting 12 against 4", play)


def _hard_12_v_4(observation: Plain) -> bool:
    up = observation.get("dealer_upcard")
    return (
        observation.get("phase") == "play"
        and observation.get("total") == 12
        and not observation.get("soft")
        and isinstance(up, str)
        and up[0] == "4"
    )


def scored_run(
    manager: PluginManager, strategy: GameStrategy, rounds: int, seed: int
) -> tuple[Scorer, float]:
    game = manager.games.get("blackjack")
    options = game.rules(RULE_SET)
    table = GameTable(
        game,
        options,
        seed,
        [GameStrategyPlayer(strategy.at(options))],
        chips=[10**7],
        oracle=oracle_for(manager, "blackjack").new(options),
        defer_scoring=True,
    )
    trio.run(table.play, rounds)
    assert table.scorer is not None
    start = time.perf_counter()
    table.scorer.settle()
    return table.scorer, time.perf_counter() - start


def per_round(scorer: Scorer) -> tuple[Moments, Moments, Moments]:
    """Plain, adjusted and EV loss per round of seat 1."""
    card = scorer.card(1)
    return card.plain, card.adjusted, card.round_loss


def rounds_needed(delta: float, var1: float, var2: float) -> float:
    return math.inf if delta == 0 else Z95**2 * (var1 + var2) / delta**2


def wrong_cell_rounds(scorer: Scorer) -> tuple[Moments, Moments, Moments]:
    """basic's rounds with the loss of hitting 12 v 4 added where basic met it."""
    extra: dict[int, float] = {}
    for pending in scorer._pendings():
        q = pending.question.data
        valued = pending.valuation
        if not isinstance(q, PlayQuestion) or valued is None or "hit" not in valued.values:
            continue
        cards = [r + 1 for r in q.hand]
        if q.upcard == 3 and sum(cards) == 12 and 1 not in cards:
            extra[pending.round] = extra.get(pending.round, 0.0) + (
                valued.best_value - valued.values["hit"]
            )
    plain, adjusted, loss = Moments(), Moments(), Moments()
    for number, round_ in enumerate(scorer.rounds, 1):
        booked = round_.get(1)
        if booked is None:
            continue
        more = extra.get(number, 0.0)  # one seat: it books every round, in order
        plain.add(booked.plain - more)  # in expectation: chips move by the loss
        adjusted.add(_adjusted(booked) - more)
        loss.add(sum(p.valuation.loss for p in booked.decisions if p.valuation) + more)
    return plain, adjusted, loss


def duplicate_chips(
    manager: PluginManager, a: GameStrategy, b: GameStrategy, deals: int, seed: int
) -> Moments:
    """Per deal, ``a``'s chips won minus ``b``'s, each playing it alone from the same
    fresh shoe (deal ``i``'s seed ``seed * 1_000_000 + i``)."""
    game = manager.games.get("blackjack")
    options = game.rules(RULE_SET)
    difference = Moments()
    for deal in range(deals):
        won = []
        for strategy in (a, b):
            player = GameStrategyPlayer(strategy)
            table = GameTable(game, options, seed * 1_000_000 + deal, [player], chips=[10**7])
            trio.run(table.play, 1)
            won.append(table.ledger.balances[seat_account(1)] - 10**7)
        difference.add(won[0] - won[1])
    return difference


def _met(scorer: Scorer) -> int:
    return sum(
        1
        for p in scorer._pendings()
        if isinstance(p.question.data, PlayQuestion)
        and p.question.data.upcard == 3
        and sum(r + 1 for r in p.question.data.hand) == 12
        and 0 not in p.question.data.hand
    )


def separation(manager: PluginManager, rounds: int, seed: int) -> None:
    game = manager.games.get("blackjack")
    basic = game.strategy("basic").at(game.rules(RULE_SET))
    runs: dict[str, tuple[Moments, Moments, Moments]] = {}
    scorers: dict[str, Scorer] = {}
    for name, strategy in (("basic", basic), ("lim17", game.strategy("lim17"))):
        start = time.perf_counter()
        scorer, _ = scored_run(manager, strategy, rounds, seed)
        scorers[name] = scorer
        runs[name] = per_round(scorer)
        print(f"  {name}: {rounds} rounds scored in {time.perf_counter() - start:.1f}s")
    runs["basic-12v4"] = wrong_cell_rounds(scorers["basic"])
    print(f"  basic met hard 12 v 4 in {_met(scorers['basic'])} of {rounds} rounds")
    strategies = {"basic": basic, "lim17": game.strategy("lim17"), "basic-12v4": wrong_cell(basic)}
    start = time.perf_counter()
    duplicate = {
        b: duplicate_chips(manager, strategies[a], strategies[b], rounds, seed)
        for a, b in (("basic", "lim17"), ("basic", "basic-12v4"))
    }
    print(f"  duplicate deals: {rounds} a bot a pair in {time.perf_counter() - start:.1f}s")
    print(f"{RULE_SET}, {rounds} rounds a bot, seed {seed}; rounds each bot must play to")
    print("separate the pair at 95% (1.96^2 (var1 + var2) / delta^2):")
    print(f"  {'pair':<22}{'delta/round':>12}{'chips':>14}{'dup chips':>14}{'adjusted':>14}"
          f"{'EV loss':>14}{'chips/EV loss':>15}")  # fmt: skip
    for a, b in (("basic", "lim17"), ("basic", "basic-12v4")):
        (pa, aa, la), (pb, ab, lb) = runs[a], runs[b]
        delta = lb.mean - la.mean
        chips = rounds_needed(delta, pa.variance, pb.variance)
        adjusted = rounds_needed(delta, aa.variance, ab.variance)
        loss = rounds_needed(delta, la.variance, lb.variance)
        paired = rounds_needed(delta, duplicate[b].variance, 0.0)
        print(
            f"  {a + ' v ' + b:<22}{delta:>12.4f}{chips:>14,.0f}{paired:>14,.0f}"
            f"{adjusted:>14,.0f}{loss:>14,.0f}{chips / loss:>15,.0f}"
        )
    print("  (dup chips: the deal-by-deal difference of chips on the same fresh shoes)")


def throughput(manager: PluginManager, tcp_rounds: int) -> None:
    sys.path.insert(0, os.path.dirname(__file__))
    import tables_tcp  # the same server, seats, seed and bots as the table benchmark

    child, port = tables_tcp.start(":memory:")
    try:
        tcp, _, _, _ = trio.run(tables_tcp.over_tcp, port, tcp_rounds, tables_tcp.Lim17)
    finally:
        child.terminate()
        child.wait()
    game = manager.games.get("blackjack")
    options = game.rules(RULE_SET)
    lim17 = game.strategy("lim17")
    table = GameTable(
        game,
        options,
        tables_tcp.SEED,
        [GameStrategyPlayer(lim17)] * tables_tcp.SEATS,
        oracle=oracle_for(manager, "blackjack").new(options),
        defer_scoring=True,
    )
    start = time.perf_counter()
    trio.run(table.play, tcp_rounds)
    played_here = time.perf_counter() - start
    assert table.scorer is not None
    questions = len(table.scorer.pending())
    start = time.perf_counter()
    table.scorer.settle()
    scoring = time.perf_counter() - start
    decisions = table.tally.decisions
    played = decisions / tcp
    scored = questions / scoring
    print(f"table of {tables_tcp.SEATS} TCP bots (lim17, {RULE_SET}), {tcp_rounds} rounds:")
    print(f"  decisions played/s over TCP     {played:10.0f}")
    print(f"  decisions played/s in-process   {decisions / played_here:10.0f}  (kept questions)")
    print(f"  decisions scored/s (one core)   {scored:10.0f}  ({questions} questions)")
    print(f"  scored / played (TCP)           {scored / played:10.3f}")
    if scored < played:
        print("  scoring is slower than play: it runs off the table's path (after the table,")
        print("  or in workers), and the table never waits on it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tcp-rounds", type=int, default=300)
    parser.add_argument("--skip-tcp", action="store_true")
    parser.add_argument(
        "--smoke", action="store_true", help="a tiny run, for CI to see it still runs"
    )
    args = parser.parse_args()
    if args.smoke:  # its figures mean nothing
        args.rounds, args.tcp_rounds = 20, 10
    manager = PluginManager(autoload=False)
    separation(manager, args.rounds, args.seed)
    if not args.skip_tcp:
        throughput(manager, args.tcp_rounds)


if __name__ == "__main__":
    main()
