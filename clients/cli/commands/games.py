"""``croupier games``: the games installed, their rule sets, options and strategies."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.clients.cli.common import add_json_argument, get_manager, print_json


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "games",
        help="list the games: blackjack and those plugins contribute",
        description=(
            "List the table games plugins contribute (blackjack is built in and has its "
            "own commands), with their rule sets, options, actions and strategies; NAME "
            "shows one. --json prints each game's schema, as the server's games method."
        ),
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="one game")
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from croupier.clients.cli.simgame import find_game

    manager = get_manager()
    games = list(manager.games) if args.name is None else [find_game(manager, args.name)]
    schemas = [game.schema() for game in games]
    if args.json:
        print_json(schemas)
        return 0
    for schema in schemas:
        print(f"{schema['name']}: {schema['summary']}")
        print(f"  rule sets: {', '.join(schema['rule_sets'])}")
        options = ", ".join(f"{k}={v}" for k, v in schema["defaults"].items())
        print(f"  options (--set NAME=VALUE): {options}")
        print(f"  actions: {', '.join(a['kind'] for a in schema['actions'])}")
        print(f"  strategies: {', '.join(schema['strategies'])}")
    return 0
