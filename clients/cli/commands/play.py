"""``croupier play``: full-screen blackjack in the terminal, at a table of the local engine
or (``--connect``) at a table on a croupier server; ``--game NAME`` plays any other
installed game line by line (:mod:`croupier.clients.cli.playgame`)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from croupier.clients.cli.commands.bot import address
from croupier.clients.cli.common import (
    add_seed_argument,
    get_manager,
    positive_int,
    report_seed,
    resolve_seed,
)
from croupier.clients.cli.simgame import add_game_arguments
from croupier.clients.play.view import PERSON_TIME
from croupier.plugins.blackjack.cli_rules import add_rules_arguments, overrides, rules_from_args


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "play",
        help="play blackjack (or, with --game, any game) in the terminal",
        description=(
            "Full-screen blackjack at a table of the local engine: single keys (H hit, "
            "S stand, D double, P split, R surrender, Q quit; only the legal ones are "
            "offered), a running tally shown when you quit. '--rules classic' is the "
            "classic console game: a fresh pack each hand, the dealer draws to your total, "
            "21 wins at once, ties go to the dealer. With --game NAME, any installed game "
            "line by line: each event as it happens, and at your turn what you see and the "
            "legal actions; type one such as 'bet banker 20', 'bet banker=20 tie=20' or "
            "'fold' (a unique prefix works), 'help' for the actions, 'q' to quit."
        ),
    )
    add_rules_arguments(parser, default=None, blackjack="classic")
    add_game_arguments(parser)
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw cards with ASCII only (default: Unicode when the locale is UTF-8; "
        "blackjack only)",
    )
    add_seed_argument(parser)
    parser.add_argument(
        "--connect",
        type=address,
        metavar="HOST:PORT",
        help="play at a table on a croupier server (a new one-seat table of these rules, "
        "with no time limit, unless --table is given)",
    )
    parser.add_argument(
        "--table",
        type=positive_int,
        metavar="T",
        help="with --connect: take the first free seat of table T on the server",
    )
    parser.add_argument(
        "--seats",
        type=positive_int,
        default=1,
        metavar="N",
        help="with --connect: a new table of N seats, yours the first; the others play "
        "the strategies --fill names, or wait for bots (croupier bot NAME --connect HOST:PORT "
        "--table T), whatever the game (default 1); with --game, locally too: seats 2 to N "
        "play the game's strategies (--fill)",
    )
    parser.add_argument(
        "--fill",
        nargs="+",
        default=[],
        metavar="STRATEGY",
        help="the strategies of seats 2, 3, ... ('-' leaves a seat for a bot); seats not "
        "named wait for bots with --connect, and play the game's first strategy at a local "
        "--game table",
    )
    parser.add_argument(
        "--decision-time",
        type=seconds,
        metavar="S",
        help="with --connect: seconds per decision at the new table (default: no limit "
        f"for one seat, {PERSON_TIME:g} with more; a person needs about {PERSON_TIME:g})",
    )
    parser.set_defaults(func=run)


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def _say(line: str) -> None:
    """Print after the game; the terminal may be gone (a hang-up), which is no error."""
    with contextlib.suppress(OSError):
        print(line, flush=True)


def run(args: argparse.Namespace) -> int:
    from croupier.clients.play.game import run_game
    from croupier.clients.play.hint import make_hint
    from croupier.clients.play.terminal import open_screen, require_terminal
    from croupier.engine import CroupierError

    manager = get_manager()
    if args.game != "blackjack":
        from croupier.clients.cli.playgame import run_lines

        return run_lines(manager, args)
    if args.options:
        raise CroupierError("--set applies to --game; blackjack's play has a flag per rule")
    if args.fill and args.connect is None:
        raise CroupierError(
            "--fill names the strategies of seats 2, 3, ...: blackjack's local game has one "
            "seat; give --connect HOST:PORT and --seats N"
        )
    args.rules = args.rules or "classic"
    rules = rules_from_args(manager, args)
    if rules.starting_chips < rules.min_bet:
        raise CroupierError(
            f"{rules.starting_chips} starting chips cannot pay the minimum bet of {rules.min_bet}"
        )
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError):  # a replaced stdin (a test harness, an embedding)
        fd = -1
    if args.connect is None:
        for given, option in (
            (args.table is not None, "--table T joins"),
            (args.seats != 1, "--seats N makes"),
            (args.decision_time is not None, "--decision-time S makes"),
        ):
            if given:
                raise CroupierError(f"{option} a table on a server: give --connect HOST:PORT")
    if args.connect is not None:
        return _remote(args, manager, fd)
    require_terminal(fd)  # before a seed is drawn and reported for a game that cannot start
    seed = resolve_seed(args)
    hint = make_hint(manager, rules)
    with open_screen(fd, "ascii" if args.ascii else None) as screen:
        ended, tally = run_game(
            manager, rules, seed, screen, title=f"{args.rules} (seed {seed})", hint=hint
        )
    _say(f"Thanks for playing. {tally.line()}")
    if ended == "interrupted":
        raise KeyboardInterrupt
    if ended == "lost":
        raise CroupierError("the terminal was closed; the game is over")
    return 0


def _report(create: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """Report the seed this client drew for the table, once the table exists."""
    return lambda info: report_seed(int(create["seed"]))


def _remote(args: argparse.Namespace, manager: Any, fd: int) -> int:
    from croupier.clients.cli.playgame import check_fill
    from croupier.clients.play.hint import make_hint
    from croupier.clients.play.remote import Where, run_remote
    from croupier.clients.play.terminal import open_screen, require_terminal
    from croupier.engine import CroupierError, draw_seed

    host, port = args.connect
    new_table = args.seed is not None or overrides(args) or args.seats != 1
    if args.table is not None and (new_table or args.fill or args.decision_time is not None):
        raise CroupierError(
            "--seed, --seats, --fill, --decision-time and rule options make a new table; "
            "not with --table"
        )
    check_fill(args.fill, args.seats)
    # seats 2..N: the strategies --fill names ("-": a bot's), the rest wait for bots, as
    # at any game's table (croupier play --game NAME --connect)
    fill = [None if name == "-" else name for name in args.fill]
    fill += [None] * (args.seats - 1 - len(fill))
    require_terminal(fd)  # before a table is made on the server
    if args.table is not None:
        where = Where(host, port, args.table)
    else:
        drawn = args.seed is None
        create = {
            "rules": args.rules,
            "options": overrides(args),
            "seed": draw_seed() if drawn else args.seed,
            "seats": args.seats,
            "fill": [None, *fill],
            # a person has all the time in the world alone or with strategies; a table
            # shared with bots needs a limit (the server's rule): one a person can keep to
            "decision_time": args.decision_time or (PERSON_TIME if None in fill else None),
        }
        # a drawn seed is reported once the table exists: a server that cannot be reached
        # or refuses the table is then the only error line
        where = Where(host, port, None, create, _report(create) if drawn else None)
    outcome = run_remote(
        where,
        lambda: open_screen(fd, "ascii" if args.ascii else None),
        lambda rules: make_hint(manager, rules),
    )
    _say(f"Thanks for playing. {outcome.tally.line()}")
    if outcome.ended == "interrupted":
        raise KeyboardInterrupt
    if outcome.ended == "lost":
        raise CroupierError("the terminal was closed; the game is over")
    if outcome.ended == "disconnected":
        raise CroupierError(
            f"lost the connection to {host}:{port} ({outcome.lost}); the game is over"
        )
    return 0
