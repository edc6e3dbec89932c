"""``croupier play``: full-screen blackjack in the terminal against the local engine."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from croupier.clients.cli.common import add_seed_argument, get_manager, resolve_seed
from croupier.clients.cli.rules_args import add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "play",
        help="play blackjack in the terminal",
        description=(
            "Full-screen blackjack at a table of the local engine: single keys (H hit, "
            "S stand, D double, P split, R surrender, Q quit; only the legal ones are "
            "offered), a running tally shown when you quit. '--rules classic' is the "
            "classic console game: a fresh pack each hand, the dealer draws to your total, "
            "21 wins at once, ties go to the dealer."
        ),
    )
    add_rules_arguments(parser, default="classic")
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw cards with ASCII only (default: Unicode when the locale is UTF-8)",
    )
    add_seed_argument(parser)
    parser.set_defaults(func=run)


def _say(line: str) -> None:
    """Print after the game; the terminal may be gone (a hang-up), which is no error."""
    with contextlib.suppress(OSError):
        print(line, flush=True)


def run(args: argparse.Namespace) -> int:
    from croupier.clients.play.game import run_game
    from croupier.clients.play.hint import make_hint
    from croupier.clients.play.terminal import open_screen
    from croupier.engine import CroupierError

    manager = get_manager()
    rules = rules_from_args(manager, args)
    if rules.starting_chips < rules.min_bet:
        raise CroupierError(
            f"{rules.starting_chips} starting chips cannot pay the minimum bet of {rules.min_bet}"
        )
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError):  # a replaced stdin (a test harness, an embedding)
        fd = -1
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
