"""``croupier sim --game NAME``: simulate any installed game's built-in strategy.

The game's rule set comes from ``--rules``; its options from its own command-line options
(``croupier_command_lines``), from another game's that name one of its options (blackjack's
``--decks``, ``--penetration``, ``--min-bet``, ``--max-bet``) and from ``--set NAME=VALUE``;
any other game's option is refused in one usage line.
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from typing import Any

from rich.markup import escape

from croupier.clients.cli.common import print_json, resolve_seed, stdout_console
from croupier.clients.cli.executing import executor_for
from croupier.clients.cli.gameoptions import game_options
from croupier.clients.cli.simprogress import sim_progress
from croupier.engine import CroupierError, PluginManager
from croupier.engine.chunks import chunk_count
from croupier.engine.executor import default_workers
from croupier.engine.games import Game
from croupier.engine.gamesim import GAME_CHUNK, simulate_game
from croupier.plugins.blackjack.cli_rules import OVERRIDES

FLAGS = {
    "dealer": "--h17/--s17",
    "double_after_split": "--das/--no-das",
    "max_split_hands": "--split-hands",
    "blackjack_pays": "--payout",
    "peek": "--peek/--no-peek",
    "starting_chips": "--chips",
}
"""The flags of the rules whose option name is not the flag's."""


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default="blackjack",
        metavar="NAME",
        help="the game (default: blackjack; `croupier games` lists them)",
    )
    parser.add_argument(
        "--set",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --set commission=none (repeat for more)",
    )


def option_value(text: str) -> Any:
    """``8`` -> 8, ``0.9`` -> 0.9, ``true``/``false`` -> bools, anything else a string."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def game_overrides(args: argparse.Namespace, names: set[str], game: str) -> dict[str, Any]:
    """The options the command line sets, by ``--set`` and by shared flags (``play`` and
    ``bot``, whose blackjack rule flags are their own)."""
    out: dict[str, Any] = {}
    for name in OVERRIDES:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name not in names:
            flag = FLAGS.get(name, "--" + name.replace("_", "-"))
            raise CroupierError(
                f"{flag} is a blackjack rule; {game}'s options are {', '.join(sorted(names))} "
                "(set one with --set NAME=VALUE)"
            )
        out[name] = value
    return {**out, **set_options(args)}


def set_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options ``--set NAME=VALUE`` sets."""
    out: dict[str, Any] = {}
    for item in args.options:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise CroupierError(f"--set takes NAME=VALUE, such as commission=none, not {item!r}")
        out[name.strip()] = option_value(value)
    return out


def find_game(manager: PluginManager, name: str) -> Game:
    """An installed game by name (one line naming the installed ones when unknown)."""
    if name not in manager.games:
        known = ", ".join(manager.games.names())
        raise CroupierError(f"unknown game {name!r}; known: {known}")
    return manager.games.get(name)


def run_game(manager: PluginManager, args: argparse.Namespace) -> int:
    game = find_game(manager, args.game)
    given = {**game_options(manager, "sim", game, args), **set_options(args)}
    options = game.rules(args.rules, given)
    strategy = game.strategy(args.strategy).name if args.strategy else game.strategies[0].name
    if args.engine == "compiled":
        raise CroupierError(f"{game.name} has no compiled kernel; it plays in Python")
    if args.threads is not None:  # Python holds the GIL: threads would take turns
        raise CroupierError(f"--threads runs compiled kernels; {game.name} plays in Python")
    chunks = chunk_count(args.hands, GAME_CHUNK)
    with ExitStack() as stack:
        executor = stack.enter_context(
            executor_for(args, min(args.workers or default_workers(), chunks))
        )
        seed = resolve_seed(args)
        with sim_progress(args.hands, options.get("min_bet", 1)) as tick:
            report = simulate_game(
                game,
                options,
                strategy,
                args.hands,
                args.seats,
                seed,
                executor=executor,
                progress=tick,
            )
    result = {
        "game": game.name,
        "rules": args.rules,
        "options": options,
        "strategy": strategy,
        "seats": args.seats,
        "seed": seed,
        "ran_on": executor.where,
        **report,
    }
    status = 130 if report["partial"] else 0
    if args.json:
        print_json(result)
        return status
    console = stdout_console()
    rules = args.rules or "standard rules"
    console.print(
        f"[bold]{escape(game.name)}[/], {escape(rules)}, strategy {escape(strategy)}, "
        f"{args.seats} seat(s), {report['rounds']:,} rounds (seed {seed}, on {executor.where})"
    )
    if report["partial"]:
        console.print(
            f"[bold yellow]partial:[/] stopped after {report['rounds']:,} of {args.hands:,} "
            f"rounds, the same as --seed {seed} --hands {report['rounds']} "
            f"(rerun with --seed {seed} for the whole run)"
        )
    per_chip, ci = report["result_per_chip"], report["result_per_chip_ci95"]
    if per_chip is not None:
        interval = "" if ci is None else f" (95% CI {100 * ci[0]:+.3f}% .. {100 * ci[1]:+.3f}%)"
        console.print(f"result per chip staked: {100 * per_chip:+.3f}%{interval}")
    console.print(f"result per hand: {report['mean']:+.4f} chips, SD {report['sd']:.4f}")
    if report["rates"]:
        console.print("  ".join(f"{name} {rate:.2%}" for name, rate in report["rates"].items()))
    return status
