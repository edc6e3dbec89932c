"""The hook specifications: croupier's extension points (games, randomizers, solvers, card
counts, and the families a plugin declares for others to fill).

Blackjack's own families (dealer rules, betting schemes, rule sets, strategies, compiled
simulators) are declared by the blackjack plugin (``croupier_families``; see
``croupier.plugins.blackjack.hookspecs``); any plugin may declare families the same way.

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
    from croupier.engine.commandline import CommandLine
    from croupier.engine.counts import CountSystem
    from croupier.engine.families import Family
    from croupier.engine.games import Game
    from croupier.engine.manager import PluginManager
    from croupier.engine.oracle import OracleKind
    from croupier.engine.randomizers import RandomizerKind, RandomizerLanguage
    from croupier.engine.solvers import Solver

PROJECT = "croupier"
hookspec = pluggy.HookspecMarker(PROJECT)
"""Marks a function of this module as one of croupier's hooks."""
hookimpl = pluggy.HookimplMarker(PROJECT)
"""Marks a plugin's function as its implementation of the hook of the same name."""


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
def croupier_solvers() -> Iterable[Solver]:
    """Contribute solvers: pure functions from a problem to a solution.

    Called once, the first time a solver is looked up. Return an iterable of
    :class:`~croupier.engine.solvers.Solver`; problems and solutions are plain data so that
    the CLI and the wire can call any solver by name.
    """


@hookspec
def croupier_families() -> Iterable[Family]:
    """Declare families of contributions that other plugins fill (a game's own extension
    points: blackjack declares its dealer rules, betting schemes, rule sets, strategies and
    simulator kernels).

    Called once per plugin, as it is registered. Return an iterable of
    :class:`~croupier.engine.families.Family`: the hook's name, the family's name in
    messages, the type every contribution must have, the manager's attribute for its
    registry, and ``specs``, the module or class holding the hook's specification (marked
    with ``croupier.engine.hookspec``). Plugins registered earlier may already implement
    the hook: they are checked against the specification when it arrives.
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
def croupier_oracles() -> Iterable[OracleKind]:
    """Contribute oracles: exact values of the actions open at a game's decisions.

    Called once, the first time an oracle is looked up. Return an iterable of
    :class:`~croupier.engine.oracle.OracleKind`, each named after the game it values;
    ``new(options)`` makes one table's oracle, which sees the table's public events and
    turns each decision into a plain question with a pure answer (see
    :mod:`croupier.engine.oracle`). A game without one still plays, unscored.
    """


@hookspec
def croupier_command_lines() -> Iterable[CommandLine]:
    """Contribute a game's own command-line options, as pytest's ``pytest_addoption``.

    Called once, when ``croupier sim``, ``solve`` or ``tournament`` builds its parser.
    Return an iterable of :class:`~croupier.engine.commandline.CommandLine`, each named
    after its game: ``options(command, group)`` adds the game's argparse options for
    ``command`` (``"sim"``, ``"tournament"``) to a ``--help`` group titled after the game,
    ``read(command, args)`` returns the game options they set (merged under ``--set``), and
    ``solve(parser, kit)`` fills ``croupier solve NAME``. One game's option given with
    another ``--game`` is a one-line usage error, unless it names an option of that game.
    """
