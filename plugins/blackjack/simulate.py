"""The simulator: local strategies on the round engine, synchronously (the fast path).

:func:`run_rounds` drives :class:`~croupier.plugins.blackjack.round.TableCore` with no event
objects, no observations and no awaits: a strategy reads the engine's own hand and answers with an
action kind, which is checked against the legal actions exactly as at a table (an illegal
answer gets the default, stand). Because it plays the same round engine from the same
stream, a simulation and a game table (:class:`~croupier.engine.gametable.GameTable`) seating
the same strategies produce the same ledger (tested).

:func:`simulate` plays ``rounds`` rounds with every seat following one strategy and a flat
minimum bet, and reports per *initial hand* (a seat's hand before any split): the mean
result in units of the bet with a 95% confidence interval (normal approximation,
``1.96 * s / sqrt(n)``), and the rates of wins, pushes, losses (by the hand's net result,
splits and doubles included), naturals, hands with a bust, doubles and splits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import attrs

from croupier.engine import (
    CroupierError,
    Executor,
    KernelJob,
    PluginManager,
    Stream,
    one_line,
    run_chunks,
)
from croupier.plugins.blackjack.building import build_core, resolve_rules
from croupier.plugins.blackjack.count_report import count_report
from croupier.plugins.blackjack.counting import CountPlay
from croupier.plugins.blackjack.play import Action
from croupier.plugins.blackjack.round import ACT, Hand, Seat, TableCore
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.shoe import make_shoe
from croupier.plugins.blackjack.strategy import Strategy

BANKROLL = 10**12
"""Chips each simulated seat starts with: enough that no run ever ends for lack of chips."""


def run_rounds(
    core: TableCore,
    strategies: list[Strategy],
    rounds: int,
    after_round: Callable[[TableCore], None] | None = None,
) -> int:
    """Play up to ``rounds`` rounds, seat ``i`` following ``strategies[i]``; returns how
    many were played (fewer when every seat has left)."""
    stand = ACT["stand"]
    decline = ACT["decline"]
    act = ACT.get
    plays = [s.play for s in strategies]
    bets: dict[int, Action] = {}

    def decide(
        phase: str, seat: Seat, hand: Hand | None, legal: tuple[str, ...], low: int, high: int
    ) -> Action:
        if phase == "play":
            try:
                kind = plays[seat.index - 1](hand, core.upcard, legal)  # type: ignore[arg-type]
            except Exception as exc:  # a broken strategy makes the numbers meaningless
                name = strategies[seat.index - 1].name
                raise CroupierError(f"strategy {name!r} failed: {one_line(exc)}") from exc
            return act(kind, stand) if kind in legal else stand
        if phase == "bet":
            return bets.get(low) or bets.setdefault(low, Action("bet", low))
        return decline

    play_round = core.play_round_sync
    for played in range(rounds):
        if not play_round(decide):
            return played
        if after_round is not None:
            after_round(core)
    return rounds


@attrs.define
class SimStats:
    """Running totals over initial hands (results in chips; ``bet`` is the flat bet)."""

    bet: int
    rounds: int = 0
    hands: int = 0
    net: int = 0
    net_sq: int = 0
    round_net_sq: int = 0
    wins: int = 0
    pushes: int = 0
    losses: int = 0
    naturals: int = 0
    busts: int = 0
    doubles: int = 0
    splits: int = 0

    def add_round(self, core: TableCore) -> None:
        self.rounds += 1
        table = 0
        for seat in core.seats:
            if not seat.present:
                continue
            net = seat.net
            table += net
            self.hands += 1
            self.net += net
            self.net_sq += net * net
            if net > 0:
                self.wins += 1
            elif net < 0:
                self.losses += 1
            else:
                self.pushes += 1
            self.naturals += seat.natural
            self.busts += seat.busts > 0
            self.doubles += seat.doubles > 0
            self.splits += seat.splits > 0
        self.round_net_sq += table * table

    def report(self) -> dict[str, Any]:
        """Means per initial hand in bets, the SD of a hand, and 95% intervals.

        Seats at one table share the dealer's hand and the shoe, so their results move
        together: the interval comes from the spread of whole rounds (the seats' net
        summed), which is one seat's interval when there is one seat and wider than
        counting hands as independent when there are several."""
        n, bet, rounds = self.hands, self.bet, self.rounds
        mean = self.net / n / bet if n else 0.0
        sd = (
            math.sqrt(max(0.0, (self.net_sq - self.net * self.net / n) / (n - 1))) if n > 1 else 0.0
        )
        ci95: list[float] | None = None  # an interval needs two rounds or more
        if rounds > 1:
            var = (self.round_net_sq - self.net * self.net / rounds) / (rounds - 1)
            half = 1.96 * math.sqrt(max(var, 0.0) / rounds) / (n / rounds) / bet
            ci95 = [mean - half, mean + half]
        rate = (lambda k: k / n) if n else (lambda k: 0.0)
        return {
            "hands": n,
            "bet": self.bet,
            "net_chips": self.net,
            "mean": mean,
            "ci95": ci95,
            "sd": sd / bet,
            "per_100_hands": 100 * mean,
            "per_100_hands_ci95": None if ci95 is None else [100 * ci95[0], 100 * ci95[1]],
            "win_rate": rate(self.wins),
            "push_rate": rate(self.pushes),
            "loss_rate": rate(self.losses),
            "natural_rate": rate(self.naturals),
            "bust_rate": rate(self.busts),
            "double_rate": rate(self.doubles),
            "split_rate": rate(self.splits),
        }


def simulate(
    manager: PluginManager,
    rules: BlackjackRules,
    strategy: Strategy,
    rounds: int,
    seats: int,
    seed: int,
    *,
    progress: Callable[[int], None] | None = None,
    chunk: int = 10_000,
) -> dict[str, Any]:
    """Play ``rounds`` rounds at ``seats`` seats; the report of :class:`SimStats`.
    Ctrl-C (``KeyboardInterrupt``) stops it with the rounds played so far, ``partial``:
    one table plays them in order, so they are the run of that many rounds."""
    strategy = strategy.for_rules(rules)
    core = build_core(manager, rules, seed, [BANKROLL] * seats, keep_entries=False)
    stats = SimStats(rules.min_bet)
    done = 0
    partial = False
    try:
        while done < rounds:
            step = min(chunk, rounds - done)
            run_rounds(core, [strategy] * seats, step, stats.add_round)
            done += step
            if progress is not None:
                progress(step)
    except KeyboardInterrupt:
        partial = True
    report = stats.report()
    report["conserved"] = core.ledger.conserved()
    report["rounds_played"] = stats.rounds
    report["partial"] = partial
    return report


class NotCompiled(CroupierError):
    """No compiled simulator can play these rules and strategy (the message says why)."""


def compiled_job(
    manager: PluginManager,
    rules: BlackjackRules,
    strategy: Strategy,
    seats: int,
    play: CountPlay | None = None,
) -> KernelJob:
    """The first simulator kernel's job for these (a counter's with ``play``), or
    :class:`NotCompiled` with the reasons (``strategy`` already made for the rules). Rules
    no table can play are refused first, with the round engine's own errors."""
    resolve_rules(manager, rules)
    make_shoe(rules, Stream(0))
    reasons = []
    for entry in manager.sim_kernels.entries():
        if play is None:
            job = entry.item.prepare(manager, rules, strategy, seats)
        elif entry.item.count is None:
            job = f"the {entry.name!r} kernel does not count cards"
        else:
            job = entry.item.count(manager, rules, strategy, seats, play)
        if not isinstance(job, str):
            return cast(KernelJob, job)
        reasons.append(job)
    raise NotCompiled("; ".join(reasons) or "no simulator kernel is installed")


def simulate_compiled(
    manager: PluginManager,
    rules: BlackjackRules,
    strategy: Strategy,
    rounds: int,
    seats: int,
    seed: int,
    *,
    executor: Executor | None = None,
    progress: Callable[[int, dict[str, int]], None] | None = None,
    play: CountPlay | None = None,
    hands_per_hour: float = 100.0,
    bankroll: float | None = None,
) -> dict[str, Any]:
    """:func:`simulate` on a compiled kernel, in chunks on ``executor`` (default: this
    process; the same result wherever they run); ``partial`` is true when Ctrl-C stopped it early.
    With ``play``, a card counter's: the flat figures are then the minimum bet's, the
    deviations played, and ``counting`` holds :func:`count_report`'s figures.
    Raises :class:`NotCompiled` when no kernel can play these."""
    strategy = strategy.for_rules(rules)
    job = compiled_job(manager, rules, strategy, seats, play)
    result = run_chunks(job, seed, rounds, executor=executor, progress=progress)
    stats = SimStats(rules.min_bet)
    for name in attrs.fields_dict(SimStats):
        if name not in ("bet", "rounds"):
            setattr(stats, name, result.totals[name])
    stats.rounds = result.rounds
    report = stats.report()
    report["conserved"] = result.totals["house"] == -result.totals["net"]
    report["rounds_played"] = result.rounds
    report["partial"] = result.partial
    if play is not None:
        report["counting"] = count_report(
            result.totals, min_bet=rules.min_bet, hands_per_hour=hands_per_hour, bankroll=bankroll
        )
        report["totals"] = result.totals
    return report
