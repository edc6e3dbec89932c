"""``croupier tournament``: the King-of-the-Hill contest between executables and strategies."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import IO, Any

import attrs
from rich.table import Table as RichTable

from croupier.clients.cli.commands.bot import address
from croupier.clients.cli.common import (
    add_json_argument,
    add_seed_argument,
    get_manager,
    load_plugins,
    positive_int,
    print_json,
    progress,
    resolve_seed,
    stdout_console,
)
from croupier.clients.cli.executing import add_executor_arguments, executor_for
from croupier.clients.cli.gameoptions import add_game_options, game_options
from croupier.clients.cli.stopping import stop_on_signals
from croupier.engine import CroupierError, PluginManager
from croupier.engine.botnames import distinct_names, path_labels
from croupier.engine.executor import default_workers
from croupier.engine.scoring import check_score_bets, oracle_for
from croupier.engine.standings import Standing
from croupier.engine.tournament import (
    FORMATS,
    HANDS,
    MAX_FAULTS,
    ROUNDS,
    TOURNEYS,
    Entry,
    TournamentConfig,
)
from croupier.engine.tournament_run import (
    GameStrategyEntry,
    TournamentResult,
    replay_tournament,
    run_tournament,
)
from croupier.plugins.blackjack.entries import ExecutableEntry, StrategyEntry
from croupier.plugins.blackjack.executable import BOT_PATH, check_executable, parse_command_line
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.strategy import Strategy

RULE_SET = "koth"


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "tournament",
        help="run a King-of-the-Hill blackjack tournament between bots (or of another game)",
        description=(
            "Play T independent runs (tourneys) of R rounds: each round seats the bots at "
            "tables of four (balanced when the count is not a multiple of four) for five "
            "hands of the 'koth' rules, chips reset to 200 each run. A bot's score is its "
            "average chips at the end of a run, shown with a 95% confidence interval. BOT "
            "is an executable (run once per decision with the contest's five arguments), a "
            'command line quoted as one argument ("python2 bot.py": the interpreter is '
            "found on your PATH), a built-in strategy name (see 'croupier plugins'), or 'tcp'."
        ),
    )
    parser.add_argument(
        "bots", nargs="*", metavar="BOT", help="executable path, quoted command line or strategy"
    )
    parser.add_argument(
        "--game",
        default="blackjack",
        metavar="NAME",
        help="another game (see 'croupier games'): BOTs are its strategies, tables seat "
        "them, standings by chips as for blackjack (default: blackjack, the contest)",
    )
    parser.add_argument(
        "--set",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of --game's table, e.g. --set commission=none (repeat for more)",
    )
    parser.add_argument(
        "--tourneys", type=positive_int, default=TOURNEYS, help=f"runs (default: {TOURNEYS})"
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=ROUNDS, help=f"rounds per run (default: {ROUNDS})"
    )
    parser.add_argument(
        "--hands", type=positive_int, default=HANDS, help=f"hands per round (default: {HANDS})"
    )
    parser.add_argument(
        "--time-limit",
        type=_seconds,
        default=2.0,
        metavar="SECONDS",
        help="time for one decision; a slower bot is killed and stands (default: 2)",
    )
    parser.add_argument(
        "--max-faults",
        type=_count,
        default=MAX_FAULTS,
        metavar="K",
        help=f"disqualify a bot after K faults in a run, 0: never (default: {MAX_FAULTS})",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="koth",
        help="koth: every table its own cards (default); duplicate: every bot the same "
        "cards, each tourney played once per rotation of the seats, its score the mean",
    )
    add_executor_arguments(parser, "default: every core with executable bots, else 1")
    parser.add_argument(
        "--bot-path",
        default=BOT_PATH,
        metavar="PATH",
        help=f"PATH in the bots' clean environment (default: {BOT_PATH})",
    )
    parser.add_argument(
        "--score",
        action="store_true",
        help="score every decision against the game's oracle: EV loss per decision and per "
        "100 rounds, plain and luck-adjusted results per round, each with a 95%% interval",
    )
    parser.add_argument(
        "--score-bets",
        action="store_true",
        help="with --score, value every bet by the exact edge of its round too, to show how "
        "a bot's bets followed the edge, for games whose bets are dear to value (blackjack: a "
        "whole solve per round, seconds each; a game whose oracle values every bet with --score "
        "alone, such as three-card-poker, refuses it in one line)",
    )
    parser.add_argument("--log", metavar="FILE", help="save the full event log (JSON lines)")
    parser.add_argument(
        "--replay", metavar="FILE", help="replay a saved log, check it, and show its standings"
    )
    parser.add_argument(
        "--connect",
        type=address,
        metavar="HOST:PORT",
        help="run the tournament on a croupier server; BOT 'tcp' is a seat for a bot that "
        "joins it there (croupier bot NAME --connect HOST:PORT --tournament ID)",
    )
    parser.add_argument(
        "--join-time",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="with --connect: how long the tcp seats may take to fill (default: 60)",
    )
    parser.add_argument(
        "--operator-key",
        metavar="KEY",
        help="with --connect and tcp seats: the server's operator key (its log shows it), "
        "without which the server draws the seed itself and refuses --seed",
    )
    add_seed_argument(parser)
    add_json_argument(parser)
    add_game_options(parser, "tournament", load_plugins())
    parser.set_defaults(func=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected 0 < seconds <= 3600, not {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, not {text!r}")
    return value


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


def run(args: argparse.Namespace) -> int:
    manager = get_manager()
    if args.replay:
        if args.bots or args.log or args.overbet:
            raise CroupierError("--replay takes no BOT arguments, no --log and no --overbet")
        try:
            with open(args.replay, encoding="utf-8") as lines:
                result = replay_tournament(manager, lines)
        except OSError as exc:
            raise CroupierError(f"cannot read {args.replay}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise CroupierError(f"{args.replay} is not a tournament log (not UTF-8 text)") from None
        return show(result, args.json, replayed=True)
    if not args.bots:
        raise CroupierError("name at least one BOT (an executable or a strategy), or --replay")
    if args.operator_key is not None and args.connect is None:
        raise CroupierError("--operator-key applies with --connect only")
    if args.score and args.connect is not None:
        raise CroupierError("--score applies to a tournament played here, not with --connect")
    if args.game != "blackjack" and args.connect is not None:
        from croupier.clients.cli.remote_tournament import run_remote

        return show(run_remote(manager, args), args.json)
    if args.game != "blackjack":
        config, entries = game_tournament(manager, args)
    else:
        contest = game_options(manager, "tournament", manager.games.get("blackjack"), args)
        if args.options:
            raise CroupierError("--set applies to --game; the contest's rules are fixed")
        if args.connect is not None:
            from croupier.clients.cli.remote_tournament import run_remote

            return show(run_remote(manager, args), args.json)
        rules = manager.rule_sets.get(RULE_SET).rules
        rules = rules.evolve(**contest)  # --overbet
        entries = entries_for(manager, args.bots, args.bot_path, rules)
        config = contest_config(manager, args, rules)
    if args.score_bets and not args.score:
        raise CroupierError("--score-bets goes with --score")
    if args.score:
        oracle_for(manager, config.game)  # a game with no oracle: one line, nothing played
        if args.score_bets:  # as table.create and tournament.start have it
            check_score_bets(manager, config.game)
        config = attrs.evolve(config, scored=True, score_bets=args.score_bets)
    return play_local(manager, args, config, entries)


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


def play_local(
    manager: PluginManager,
    args: argparse.Namespace,
    config: TournamentConfig,
    entries: list[Entry],
) -> int:
    """Play the tournament here (workers or a cluster), its log written as it goes."""
    workers = args.workers
    if workers is None:
        executables = any(isinstance(e, ExecutableEntry) for e in entries)
        workers = default_workers() if executables else 1
    with executor_for(args, workers) as executor:  # a cluster answers before a log is opened
        out: IO[str] | None = None
        if args.log:
            try:
                out = open(args.log, "w", encoding="utf-8")  # noqa: SIM115 - closed below
            except OSError as exc:
                raise CroupierError(f"cannot write {args.log}: {exc.strerror}") from None
        stop = threading.Event()  # set by Ctrl-C or SIGTERM: the standings so far
        here = executor.pool is None  # here no new table starts; on workers, at once
        try:
            config = attrs.evolve(config, seed=resolve_seed(args))
            write = None if out is None else _writer(out)
            with (
                progress("tournament", args.tourneys * args.rounds) as tick,
                stop_on_signals(stop, raise_first=not here),
            ):
                result = run_tournament(
                    manager,
                    config,
                    entries,
                    executor=executor,
                    write=write,
                    progress=tick,
                    stopping=stop.is_set,
                )
        finally:
            if out is not None:
                out.close()
    partial = stop.is_set()
    if partial and not args.json:
        print(
            f"partial: stopped after {result.tables} tables, in round {result.rounds} of "
            f"{config.rounds} (seed {config.seed}; rerun with --seed {config.seed} "
            "for the whole tournament)"
        )
    status = show(result, args.json, partial=partial)
    return 130 if partial and status == 0 else status


def _writer(out: IO[str]) -> Any:
    def write(line: dict[str, Any]) -> None:
        out.write(json.dumps(line) + "\n")

    return write


def show(
    result: TournamentResult, as_json: bool, replayed: bool = False, partial: bool = False
) -> int:
    if as_json:
        data = result.to_dict()
        if replayed:
            data["replayed"] = True
        if partial:
            data["partial"] = True
        print_json(data)
        return 0
    config = result.config
    console = stdout_console()
    verb = "replayed" if replayed else "played"
    console.print(
        f"[bold]{'King of the Hill' if config.game == 'blackjack' else config.game}[/]: "
        f"{len(result.names)} bots, {config.tourneys} "
        f"{'duplicate ' if config.duplicate else ''}tourneys of "
        f"{config.rounds} rounds x {config.hands} hands (seed {config.seed}); {verb} "
        f"{result.tables} tables, {result.hands} hands, {result.decisions} decisions"
    )
    table = RichTable(show_edge=False)
    columns = ("rank", "bot", "chips", "95% CI", "sd", "hands", "faults", "broke", "DQ")
    for column in columns:
        justify = "left" if column == "bot" else "right"
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    table.add_column("not yet separated from", justify="left")
    for s in result.standings:
        ci = "n/a" if s.low is None or s.high is None else f"{s.low:.1f} .. {s.high:.1f}"
        sd = "n/a" if s.sd is None else f"{s.sd:.1f}"
        table.add_row(
            s.place,
            s.name,
            f"{s.mean:.1f}",
            ci,
            sd,
            str(s.hands),
            str(s.faults),
            str(s.broke),
            str(s.disqualified),
            unseparated(s.unseparated, len(result.standings)),
        )
    console.print(table)
    console.print(separation_note(result.standings), markup=False)
    if result.scores:
        show_scores(console, result)
    if not result.conserved:
        print("croupier: error: chips were not conserved (a bug)", file=sys.stderr)
        return 1
    return 0


SHOWN = 4
"""Names listed in a standing's 'not yet separated from' cell; the rest are counted."""


def unseparated(names: Sequence[str], bots: int) -> str:
    """A standing's 'not yet separated from' cell: up to :data:`SHOWN` names."""
    if not names:
        return "-"
    if len(names) == bots - 1 and bots > 2:
        return "all others"
    more = f" +{len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more


def separation_note(standings: Sequence[Standing]) -> str:
    """One line under the standings: how many bots are told apart, and what '=' means."""
    n = len(standings)
    pairs = n * (n - 1) // 2
    apart = pairs - sum(len(s.unseparated) for s in standings) // 2
    runs = len(standings[0].scores) if standings else 0
    ties = " '=': tied (equal mean chips)." if any(s.tied for s in standings) else ""
    if runs < 2:
        return f"One run: no interval, no bot is yet separated from another.{ties}"
    return (
        f"{apart} of {pairs} pairs of bots separated at 95% (paired over the {runs} tourneys)."
        + ties
    )


def show_scores(console: Any, result: TournamentResult) -> None:
    """Each bot's scorecard: EV loss against the oracle, plain and luck-adjusted results."""

    def ci(values: list[float], digits: int = 2) -> str:
        mean, low, high = values
        if low != low:  # nan: too few rounds for an interval
            return f"{mean:.{digits}f}"
        return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"

    table = RichTable(show_edge=False, title="scored against the oracle (95% intervals)")
    for column in (
        "bot",
        "decisions",
        "EV loss/decision",
        "EV loss/100 rounds",
        "plain/round",
        "adjusted/round",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for name, card in zip(result.names, result.scores, strict=True):
        table.add_row(
            name,
            str(card["decisions"]),
            ci(card["loss_per_decision"], 3),
            ci(card["loss_per_100_rounds"]),
            ci(card["plain_per_round"]),
            ci(card["adjusted_per_round"]),
        )
    console.print(table)
    for name, card in zip(result.names, result.scores, strict=True):
        bets = card.get("bets")
        if bets:  # how the stakes followed the edge: flat betting gets the mean edge
            console.print(
                f"{name}'s {bets['count']} bets: mean edge {bets['mean_edge']:+.4%}, "
                f"weighted by stake {bets['staked_edge']:+.4%}",
                highlight=False,
            )
    for name, card in zip(result.names, result.scores, strict=True):
        if card["costliest"]:
            said = "; ".join(where_taken(d) for d in card["costliest"][:3])
            console.print(f"{name}'s costliest: {said}", highlight=False)


def where_taken(decision: dict[str, Any]) -> str:
    """A costliest decision in words, with where a replay finds it: its table (a
    tournament table's tourney, round and table; a server table's id) and hand."""
    table = decision.get("table")
    if isinstance(table, list) and len(table) == 3:
        at = f"tourney {table[0]} round {table[1]} table {table[2]}"
    else:
        at = f"table {table}"
    return (
        f"{at} hand {decision['round']} seat {decision['seat']}: {decision['taken']} "
        f"(best {decision['best']}) -{decision['loss']:.3f}"
    )
