"""Blackjack's own families: the hooks other plugins implement to add to blackjack.

Declared by the blackjack plugin (``croupier_families``), not by the engine: dealer rules,
betting schemes, rule sets, strategies, compiled simulators and index sets are blackjack's
extension points. A plugin implements them with ``croupier.engine.hookimpl`` like any hook.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from croupier.engine import hookspec

if TYPE_CHECKING:
    from croupier.plugins.blackjack.indices import IndexSet
    from croupier.plugins.blackjack.kernels import SimKernel
    from croupier.plugins.blackjack.rules import RuleSet
    from croupier.plugins.blackjack.strategy import Strategy
    from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule


@hookspec
def croupier_dealer_rules() -> Iterable[DealerRule]:
    """Contribute dealer rules: how a blackjack dealer plays and how a round flows.

    Called once, the first time a table is built. Return an iterable of
    :class:`~croupier.plugins.blackjack.tablerules.DealerRule` (``name``, ``summary``,
    ``hits(total, soft, target) -> bool``, ``player_21`` one of ``"stand"``, ``"ask"``,
    ``"win"``, and ``plays_out``). ``hits`` is a pure function: the dealer holding
    ``total`` (``soft`` when an ace counts 11) draws while it returns True; ``target`` is the
    best live player total (0 if none). The built-ins are ``s17``, ``h17``, ``koth`` and
    ``classic``; a rule set names the one it uses in ``BlackjackRules.dealer``. A rule
    whose play equals ``s17``'s or ``h17``'s (checked over every total) is simulated on
    the compiled kernel; any other in Python (docs/tables.md).
    """


@hookspec
def croupier_betting_schemes() -> Iterable[BettingScheme]:
    """Contribute betting schemes: stakes, buy-ins, limits and payouts.

    Called once, the first time a table is built. Return an iterable of
    :class:`~croupier.plugins.blackjack.tablerules.BettingScheme` (``name``, ``summary``,
    ``outcome(player_total, player_natural, dealer_total, dealer_natural)`` returning
    ``"natural"``, ``"win"``, ``"push"`` or ``"lose"``, and the flags ``asks_bet``,
    ``raises`` and ``pays_naturals``). The engine pays from the outcome (natural: stake
    times the rules' ``blackjack_pays``, rounded down; win 1:1; push the stake back;
    insurance 2:1) and settles the player's busts and surrenders itself (``outcome`` sees a
    busted dealer as a total above 21). The built-ins are ``casino``,
    ``koth`` and ``classic``; a rule set names the one it uses in ``BlackjackRules.betting``.
    A scheme that settles as ``casino`` does (checked over every outcome) is simulated on
    the compiled kernel; any other in Python (docs/tables.md).
    """


@hookspec
def croupier_rule_sets() -> Iterable[RuleSet]:
    """Contribute named rule sets (``vegas-s17``, ``koth``, ``classic``, ...).

    Called once, the first time a rule set is looked up. Return an iterable of
    :class:`~croupier.plugins.blackjack.rules.RuleSet`; the dealer rules and betting scheme it names
    must be contributed by some plugin.
    """


@hookspec
def croupier_strategies() -> Iterable[Strategy]:
    """Contribute built-in player strategies (``lim17``, ``basic``, ...) for seats and bots.

    Called once, the first time a strategy is looked up. Return an iterable of
    :class:`~croupier.plugins.blackjack.strategy.Strategy` (``name``, ``summary``,
    ``play(hand, upcard, legal) -> str``): ``hand`` has ``cards`` (ints), ``total`` and
    ``soft``; ``upcard`` is the dealer's upcard value (1 for an ace); the answer is an action
    kind, and one not in ``legal`` gets the default (stand), like any player's. A strategy
    bets the minimum and declines insurance; a game table seats it as the game's strategy
    and the simulator calls it directly (the fast path).
    """


@hookspec
def croupier_sim_kernels() -> Iterable[SimKernel]:
    """Contribute compiled simulators (the blackjack plugin's numba kernel, say).

    Called once, the first time ``croupier sim`` (or :func:`~croupier.plugins.blackjack.simulate.
    simulate`) looks for one. Return an iterable of :class:`~croupier.engine.kernels.
    SimKernel` (``name``, ``summary``, ``prepare(manager, rules, strategy, seats)``).
    ``prepare`` returns a :class:`~croupier.engine.kernels.KernelJob` when the kernel can
    play exactly what the Python round engine would (the same rules, dealer, betting and
    strategy: a strategy is data when it has a :class:`~croupier.engine.kernels.PlayTable`),
    or a one-line reason why not; the simulator then says so and plays in Python. A job's
    ``run(data, seed, rounds)`` must be a module-level function (it runs in worker
    processes) and deterministic in its arguments.
    """


@hookspec
def croupier_index_sets() -> Iterable[IndexSet]:
    """Contribute named index tables (playing deviations by a count: the Illustrious 18).

    Called once, the first time an index set is looked up (``croupier sim --indices NAME``,
    ``croupier solve blackjack --only NAME``, the ``hilo`` bot, ``croupier plugins``).
    Return an iterable of :class:`~croupier.plugins.blackjack.indices.IndexSet`: ``name``,
    ``summary``, ``count`` (the name of the count system whose true count the indices
    read; ``sim --count`` must be that count), ``entries`` (:class:`~croupier.plugins.
    blackjack.indices.IndexEntry` values; ``IndexSet.from_csv`` reads the CSV that ``sim
    --indices FILE`` reads), and in words the ``rules`` it was made for and its ``source``.
    ``croupier plugins --check`` validates one (its count installed, every entry a decision
    of the table, none twice).
    """
