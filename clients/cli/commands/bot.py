"""``croupier bot NAME --connect HOST:PORT [--table T]``: run a built-in bot at a server table."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

import trio

from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.reconnect import reconnect_window
from croupier.clients.bot.samples import SAMPLES, sample_bot
from croupier.clients.bot.sdk import play
from croupier.clients.bot.tournament import join_tournament
from croupier.clients.cli.common import (
    add_json_argument,
    add_seed_argument,
    get_manager,
    positive_int,
    print_json,
    report_seed,
)
from croupier.clients.cli.simgame import add_game_arguments, find_game, game_overrides
from croupier.engine import CroupierError, PluginManager
from croupier.engine.games import GameStrategy
from croupier.plugins.blackjack.cli_rules import add_rules_arguments, overrides
from croupier.protocol import DEFAULT_PORT, RpcError


def address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host:
        host, port = "127.0.0.1", text if text.isdigit() else ""
    if not port.isdigit() or not 0 < int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    return host.strip("[]"), int(port)


RECONNECT = 20
"""``croupier bot``'s tries after a lost connection: about 80 s, so that a bot run from the
command line outlasts a server restarting on its journal (the SDK's own default, 5, is
about 6 s)."""


def register(sub: argparse._SubParsersAction[Any]) -> None:
    listing = "; ".join(f"{s.name}: {s.summary}" for s in SAMPLES)
    parser = sub.add_parser(
        "bot",
        help="run a built-in bot at a table on a croupier server",
        description=(
            "Connect to a croupier server as a bot and play at a table until it finishes. "
            "Without --table, create a table (rules, seats, fill, rounds, seed as given) and "
            f"take a seat at it. Bots: {listing}."
        ),
    )
    parser.add_argument(
        "name", metavar="NAME", help="lim17, basic or hilo; with --game, one of its strategies"
    )
    parser.add_argument(
        "--connect",
        type=address,
        default=("127.0.0.1", DEFAULT_PORT),
        metavar="HOST:PORT",
        help=f"the server (default 127.0.0.1:{DEFAULT_PORT})",
    )
    parser.add_argument("--table", type=positive_int, help="join table T (default: create one)")
    parser.add_argument(
        "--tournament",
        type=positive_int,
        metavar="ID",
        help="take a tcp seat of tournament ID on the server (croupier tournament --connect)",
    )
    parser.add_argument(
        "--key",
        metavar="KEY",
        help="the tournament's join key (croupier tournament --connect prints it)",
    )
    parser.add_argument(
        "--bot-key",
        metavar="KEY",
        default=None,
        help="the bot's registered key on a server run with --auth keys (croupier keys add "
        "prints it; default: $CROUPIER_KEY): it plays under its registered name",
    )
    parser.add_argument("--seat", type=positive_int, help="seat (default: the first free)")
    parser.add_argument(
        "--reconnect",
        type=positive_int,
        default=RECONNECT,
        metavar="N",
        help=f"tries after a lost connection, 0.2 s then doubling up to 5 s apart (default "
        f"{RECONNECT}: about {reconnect_window(RECONNECT):.0f} s, enough for a server "
        "restarting on its journal)",
    )
    new = parser.add_argument_group("a new table (without --table)")
    new.add_argument("--seats", type=positive_int, default=1, help="seats (default 1)")
    new.add_argument(
        "--fill",
        nargs="+",
        default=[],
        metavar="STRATEGY",
        help="built-in strategies for seats 1, 2, ... ('-' leaves a seat for a bot)",
    )
    new.add_argument("--rounds", type=positive_int, default=100, help="rounds (default 100)")
    new.add_argument(
        "--decision-time",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help="seconds per answer (default 2)",
    )
    add_seed_argument(new)
    add_rules_arguments(parser, default=None)
    add_game_arguments(parser)
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    manager = get_manager()
    bot: GameBot
    if args.game != "blackjack":
        bot, options = game_bot(manager, args)
    else:
        if args.options:
            raise CroupierError("--set applies to --game; blackjack has a flag per rule")
        bot, options = sample_bot(args.name, manager), overrides(args)
    if args.bot_key is not None:
        bot.key = args.bot_key  # else the SDK takes $CROUPIER_KEY
    host, port = args.connect
    say_warnings()
    if args.tournament is not None:
        if args.table is not None:
            raise CroupierError("--table and --tournament exclude each other")
        return _tournament(bot, host, port, args)
    if args.table is None and args.seat is not None and args.seat > args.seats:
        # checked here: the server would create the table before refusing the seat
        raise CroupierError(f"--seat {args.seat} is not a seat of a {args.seats}-seat table")
    create = {
        "rules": args.rules,
        "options": options,
        "seed": args.seed,
        "seats": args.seats,
        "fill": [None if f == "-" else f for f in args.fill],
        "rounds": args.rounds,
        "decision_time": args.decision_time,
    }

    def seated(joined: dict[str, Any]) -> None:
        info = joined["info"]
        # a live table shows its seed to nobody (only a commitment): the seed given, if any
        seed = args.seed if info.get("seed") is None else info["seed"]
        shown = "seed hidden until it finishes" if seed is None else f"seed {seed}"
        print(
            f"croupier: {bot.name} sits at seat {joined['seat']} of table {joined['table']} "
            f"({info['rule_set'] or info.get('game')}, {shown})",
            file=sys.stderr,
        )
        free = sum(s["kind"] == "free" for s in info["seats"])
        game = "" if args.game == "blackjack" else f" --game {args.game}"
        if info["state"] == "waiting" and free:
            print(
                f"croupier: table {joined['table']} waits for {free} more bot"
                f"{'s' * (free > 1)}: croupier bot NAME{game} --connect {host}:{port} --table "
                f"{joined['table']} (or croupier play{game} --connect {host}:{port} --table "
                f"{joined['table']})",
                file=sys.stderr,
            )

    try:
        final = trio.run(
            lambda: play(
                bot,
                host,
                port,
                table=args.table,
                seat=args.seat,
                create=create,
                on_seated=seated,
                reconnect=args.reconnect,
            )
        )
    except RpcError as exc:
        raise CroupierError(f"the server refused: {exc}") from None
    if args.table is None and args.seed is None and final.get("seed") is not None:
        report_seed(int(final["seed"]))  # drawn by the server, shown once it finished
    seat = bot.seat
    start = final["rules"]["starting_chips"]
    net = final["chips"][seat - 1] - start if final["played"] else 0
    if args.json:
        print_json({"bot": bot.name, "seat": seat, "net": net, "table": final})
    else:
        why = final["reason"] if final.get("left") is None else f"{bot.name} left it, broke"
        print(
            f"table {final['table']}: {final['played']} rounds ({why}); "
            f"{bot.name} in seat {seat}: {final['chips'][seat - 1]} chips, net {net:+d}"
        )
    return 0


def game_bot(manager: PluginManager, args: argparse.Namespace) -> tuple[GameBot, dict[str, Any]]:
    """A bot playing another game's built-in strategy, and the options of a new table."""
    game = find_game(manager, args.game)
    strategy = game.strategy(args.name)
    options = game_overrides(args, {f.name for f in game.options}, game.name)
    game.rules(args.rules, options)  # a bad option is refused here, before connecting
    return StrategyGameBot(game.name, strategy), options


class StrategyGameBot(GameBot):
    """A game's built-in strategy as a remote bot."""

    def __init__(self, game: str, strategy: GameStrategy) -> None:
        self.game = game
        self.name = strategy.name
        self.strategy = strategy

    def decide(self, observation: Any) -> Any:
        return self.strategy.play(observation)


def _tournament(bot: GameBot, host: str, port: int, args: argparse.Namespace) -> int:
    """Play in tournament ``args.tournament``; print the bot's line of the standings."""
    entry = 0

    def seated(joined: dict[str, Any]) -> None:
        nonlocal entry
        entry = joined["entry"]
        print(
            f"croupier: {bot.name} takes entry {entry} of tournament {joined['tournament']}",
            file=sys.stderr,
        )

    try:
        final = trio.run(
            lambda: join_tournament(
                bot,
                host,
                port,
                tournament=args.tournament,
                key=args.key,
                on_seated=seated,
                reconnect=args.reconnect,
            )
        )
    except RpcError as exc:
        raise CroupierError(f"the server refused: {exc}") from None
    result = final.get("result")
    if result is None:
        raise CroupierError(f"the tournament did not finish: {final.get('reason')}")
    mine = next(s for s in result["standings"] if s["bot"] == entry - 1)
    if args.json:
        print_json({"bot": bot.name, "entry": entry, "standing": mine, "tournament": final})
    else:
        print(
            f"tournament {final['tournament']}: {bot.name} (entry {entry}) ranks "
            f"{mine['rank']}{'=' if mine.get('tied') else ''} of {len(result['standings'])} "
            f"with {mine['mean']:.1f} chips "
            f"on average"
        )
    return 0


def say_warnings() -> None:
    """The SDK's warnings (a lost connection, a reconnection) as ``croupier:`` lines on
    stderr, like every other message of the CLI."""
    logger = logging.getLogger("croupier.bot")
    if not any(isinstance(h, _Stderr) for h in logger.handlers):
        logger.addHandler(_Stderr())
        logger.setLevel(logging.WARNING)


class _Stderr(logging.Handler):
    """Writes ``croupier: message`` to whatever ``sys.stderr`` is when a record comes."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"croupier: {record.getMessage()}", file=sys.stderr)
