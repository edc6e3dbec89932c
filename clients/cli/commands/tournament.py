"""``croupier tournament``: the King-of-the-Hill contest between executables and strategies."""

from __future__ import annotations

import argparse
import json
import threading
from typing import IO, Any

import attrs

from croupier.clients.cli.commands.bot import address
from croupier.clients.cli.common import (
    add_json_argument,
    add_seed_argument,
    from_zero,
    get_manager,
    load_plugins,
    positive_int,
    progress,
    resolve_seed,
)
from croupier.clients.cli.executing import add_executor_arguments, executor_for
from croupier.clients.cli.gameoptions import add_game_options, game_options
from croupier.clients.cli.stopping import stop_on_signals
from croupier.clients.cli.tournament_entries import contest_config, entries_for, game_tournament
from croupier.clients.cli.tournament_report import show
from croupier.engine import CroupierError, PluginManager
from croupier.engine.executor import default_workers
from croupier.engine.scoring import check_score_bets, oracle_for
from croupier.engine.tournament import (
    FORMATS,
    HANDS,
    MAX_FAULTS,
    ROUNDS,
    TOURNEYS,
    Entry,
    TournamentConfig,
)
from croupier.engine.tournament_run import replay_tournament, run_tournament
from croupier.plugins.blackjack.entries import ExecutableEntry
from croupier.plugins.blackjack.executable import BOT_PATH

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
        type=from_zero("faults"),
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
