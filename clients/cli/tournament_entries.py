"""Who plays a ``croupier tournament`` played here, and under which contest: the BOT
arguments as entries (strategies, executables, command lines) and the tournament's config,
for King of the Hill (blackjack) and for another game's strategies (``--game``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path, PurePath

from croupier.clients.cli.gameoptions import game_options
from croupier.engine import CroupierError, PluginManager
from croupier.engine.botnames import distinct_names, path_labels
from croupier.engine.tournament import Entry, TournamentConfig
from croupier.engine.tournament_run import GameStrategyEntry
from croupier.plugins.blackjack.entries import ExecutableEntry, StrategyEntry
from croupier.plugins.blackjack.executable import check_executable, parse_command_line
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.strategy import Strategy


def entries_for(
    manager: PluginManager, bots: Sequence[str], bot_path: str, rules: BlackjackRules
) -> list[Entry]:
    """Entries for the BOT arguments: a strategy name, ``tcp``, a path to an executable, or
    a command line quoted as one argument (``"python2 bot.py"``).

    A name that is both a strategy and a file in the current directory is the strategy;
    write ``./lim17`` for the file. Every entry gets a distinct name in the standings: bots
    of one file name in different folders by the shortest distinguishing path
    (``a/bot.py``), repeats by ``#2``, ``#3`` ...
    """
    made: list[tuple[Entry, PurePath | None]] = []
    for bot in bots:
        entry: Entry
        where: PurePath | None = None
        if bot == "tcp":
            raise CroupierError(
                "BOT 'tcp' is a seat for a bot connected to a croupier server: run the "
                "tournament on that server with --connect HOST:PORT"
            )
        if bot in manager.strategies:
            strategy = manager.strategies.get(bot)
            if not isinstance(strategy, Strategy):
                raise CroupierError(f"strategy {bot!r} cannot play a tournament (not a Strategy)")
            # a rules-dependent strategy (basic) is bound to the tournament's rules here, so
            # one that cannot play them stops the command instead of faulting every decision
            entry = StrategyEntry(bot, strategy.for_rules(rules))
        elif Path(bot).exists() or (os.sep in bot and len(bot.split()) == 1):
            path = check_executable(bot)
            where = Path(bot).expanduser().absolute()  # as written (a symlink's own name)
            entry = ExecutableEntry(where.name, (str(path),), bot_path)
        elif bot.split() != [bot]:
            line = parse_command_line(bot)
            where = line.script
            name = where.name if where is not None else " ".join(bot.split())
            entry = ExecutableEntry(name, line.command, bot_path)
        else:
            known = ", ".join(manager.strategies.names())
            raise CroupierError(
                f"unknown bot {bot!r}: not a file (write ./{bot} for one here), a command "
                f"line (quoted: 'python3 {bot}') nor a strategy ({known})"
            )
        made.append((entry, where))
    paths = [where for _, where in made if where is not None]
    labels = iter(path_labels(paths))
    named = [next(labels) if where is not None else entry.name for entry, where in made]
    entries: list[Entry] = []
    for (entry, _), name in zip(made, distinct_names(named), strict=True):
        if isinstance(entry, StrategyEntry):
            entry = StrategyEntry(name, entry.strategy)
        elif isinstance(entry, ExecutableEntry):
            entry = ExecutableEntry(name, entry.command, entry.path)
        entries.append(entry)
    return entries


def contest_config(
    manager: PluginManager, args: argparse.Namespace, rules: BlackjackRules
) -> TournamentConfig:
    return TournamentConfig.of(  # checked before a seed is drawn: an error is the only line
        manager.games.get("blackjack"),
        rules.to_dict(),
        0,
        tourneys=args.tourneys,
        rounds=args.rounds,
        hands=args.hands,
        decision_time=args.time_limit,
        max_faults=args.max_faults,
        format=args.format,
    )


def game_tournament(
    manager: PluginManager, args: argparse.Namespace
) -> tuple[TournamentConfig, list[Entry]]:
    """The config and entries of a tournament of another game: its strategies only."""
    from croupier.clients.cli.simgame import find_game, set_options

    game = find_game(manager, args.game)
    given = {**game_options(manager, "tournament", game, args), **set_options(args)}
    options = game.rules(None, given)
    known = {s.name: s for s in game.strategies}
    unknown = [bot for bot in args.bots if bot not in known]
    if unknown:
        raise CroupierError(
            f"a {game.name} tournament seats its strategies ({', '.join(known)}), "
            f"not {unknown[0]!r}" + (" ('tcp' seats need --connect)" if unknown[0] == "tcp" else "")
        )
    names = distinct_names(list(args.bots))
    entries: list[Entry] = [
        GameStrategyEntry(name, game.name, known[bot].at(options))
        for name, bot in zip(names, args.bots, strict=True)
    ]
    config = TournamentConfig.of(
        game,
        options,
        0,
        tourneys=args.tourneys,
        rounds=args.rounds,
        hands=args.hands,
        decision_time=args.time_limit,
        max_faults=args.max_faults,
        format=args.format,
    )
    return config, entries
