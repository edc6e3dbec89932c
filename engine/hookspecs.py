"""The hook specifications: croupier's extension points (games, randomizers, dealer rules,
betting, solvers, rule sets, strategies, compiled simulators, card counts and their index
sets).

Every hook is a *contribution* hook in the datasette style: it takes no arguments and
returns an iterable of objects, each with a unique ``name`` and a one-line ``summary``. The
engine calls each plugin's implementation once, the first time the family is needed, and
collects the results into a registry keyed by name (see :mod:`croupier.engine.registry`).
When two plugins contribute the same name, the first comer keeps it (built-ins are
registered first) and the other contribution alone is skipped with a one-line warning naming
both plugins; a third-party plugin whose hook raises is reported and its contributions are
skipped.

A plugin implements any subset::

    from croupier.engine import hookimpl, RandomizerKind

    @hookimpl
    def croupier_randomizers():
        return [RandomizerKind("coin", "heads or tails", build_coin)]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from croupier.engine.counts import CountSystem
    from croupier.engine.games import Game
    from croupier.engine.indices import IndexSet
    from croupier.engine.kernels import SimKernel
    from croupier.engine.manager import PluginManager
    from croupier.engine.players import Strategy
    from croupier.engine.randomizers import RandomizerKind, RandomizerLanguage
    from croupier.engine.rules import RuleSet
    from croupier.engine.solvers import Solver
    from croupier.engine.tablerules import BettingScheme, DealerRule

PROJECT = "croupier"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def croupier_randomizers() -> Iterable[RandomizerKind]:
    """Contribute named randomizers (presets, card shoes, TGM randomizers, ...).

    Called once, the first time any randomizer is looked up. Return an iterable of
    :class:`~croupier.engine.randomizers.RandomizerKind`; each kind's ``factory`` takes a
    :class:`~croupier.engine.seeds.Stream` and returns a fresh randomizer that draws all its
    randomness from that stream.
    """


@hookspec
def croupier_randomizer_languages() -> Iterable[RandomizerLanguage]:
    """Contribute parsers of randomizer spec text (such as the Blackjack language).

    Called once, the first time a spec that is not a known name is built. Return an
    iterable of :class:`~croupier.engine.randomizers.RandomizerLanguage`. Languages are
    tried in order, third-party ones before built-in ones; a language returns ``None`` for
    text that is not its own.
    """


@hookspec
def croupier_dealer_rules() -> Iterable[DealerRule]:
    """Contribute dealer rules: how a blackjack dealer plays and how a round flows.

    Called once, the first time a table is built. Return an iterable of
    :class:`~croupier.engine.tablerules.DealerRule` (``name``, ``summary``,
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
    :class:`~croupier.engine.tablerules.BettingScheme` (``name``, ``summary``,
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
    :class:`~croupier.engine.rules.RuleSet`; the dealer rules and betting scheme it names
    must be contributed by some plugin.
    """


@hookspec
def croupier_solvers() -> Iterable[Solver]:
    """Contribute solvers: pure functions from a problem to a solution.

    Called once, the first time a solver is looked up. Return an iterable of
    :class:`~croupier.engine.solvers.Solver`; problems and solutions are plain data so that
    the CLI and the wire can call any solver by name.
    """


@hookspec
def croupier_strategies() -> Iterable[Strategy]:
    """Contribute built-in player strategies (``lim17``, ``basic``, ...) for seats and bots.

    Called once, the first time a strategy is looked up. Return an iterable of
    :class:`~croupier.engine.players.Strategy` (``name``, ``summary``,
    ``play(hand, upcard, legal) -> str``): ``hand`` has ``cards`` (ints), ``total`` and
    ``soft``; ``upcard`` is the dealer's upcard value (1 for an ace); the answer is an action
    kind, and one not in ``legal`` gets the default (stand), like any player's. A strategy
    bets the minimum and declines insurance; ``StrategyPlayer`` seats it at an async table
    and the simulator calls it directly (the fast path).
    """


@hookspec
def croupier_sim_kernels() -> Iterable[SimKernel]:
    """Contribute compiled simulators (the blackjack plugin's numba kernel, say).

    Called once, the first time ``croupier sim`` (or :func:`~croupier.engine.simulate.
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
def croupier_games(manager: PluginManager) -> Iterable[Game]:
    """Contribute table games (blackjack, baccarat, Three Card Poker, a game of your own).

    Called once, the first time a game is looked up, with the plugin manager for a game
    built from other plugins' contributions (blackjack's dealer rules, betting schemes and
    rule sets); an implementation may leave the argument out. Return an iterable of
    :class:`~croupier.engine.games.Game`: the game's options and rule sets, the schema of
    its actions, observations and events, its built-in strategies, and ``new_core(options,
    seed, chips, emit)`` making one table's :class:`~croupier.engine.games.GameCore`, whose
    ``play_round()`` generator yields a :class:`~croupier.engine.games.Turn` per decision.
    The engine's drivers (the simulator, tables with players) run any game through it; see
    docs/games.md for the smallest complete game.
    """


@hookspec
def croupier_count_systems() -> Iterable[CountSystem]:
    """Contribute card-counting systems (Hi-Lo, KO, Wong Halves, a count of your own).

    Called once, the first time a count is looked up. Return an iterable of
    :class:`~croupier.engine.counts.CountSystem`: ``name``, ``summary``, the ten ``tags``
    (A, 2..9, and one for every ten-valued card) as integers in units of ``1 / scale``,
    ``red_tags`` for a rank whose red cards count differently (Red 7), ``balanced`` (the
    tags must sum to zero over a deck exactly when it is true), the initial running count
    of an unbalanced count (``irc_per_deck * decks + irc_offset``), and how the true count
    is formed (``rounding``: floor, truncate, round or none; ``resolution`` of the decks
    remaining: exact, half or whole). :func:`~croupier.engine.counts.true_count` reads any
    system; ``croupier plugins --check`` validates one.
    """


@hookspec
def croupier_index_sets() -> Iterable[IndexSet]:
    """Contribute named index tables (playing deviations by a count: the Illustrious 18).

    Called once, the first time an index set is looked up (``croupier sim --indices NAME``,
    ``croupier solve blackjack --only NAME``, the ``hilo`` bot, ``croupier plugins``).
    Return an iterable of :class:`~croupier.engine.indices.IndexSet`: ``name``,
    ``summary``, ``count`` (the name of the count system whose true count the indices
    read; ``sim --count`` must be that count), ``entries`` (:class:`IndexEntry` values;
    ``IndexSet.from_csv`` reads the CSV that ``sim --indices FILE`` reads), and in words
    the ``rules`` it was made for and its ``source``. ``croupier plugins --check``
    validates one (its count installed, every entry a decision of the table, none twice).
    """
