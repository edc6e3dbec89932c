"""``croupier plugins``: every plugin and what it contributes to each family."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.table import Table

from croupier.clients.cli.common import add_json_argument, get_manager, print_json, stdout_console
from croupier.engine import CroupierError


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "plugins",
        help="list plugins and what they contribute",
        description=(
            "List every plugin (built-in or installed from a distribution) and the "
            "randomizers, dealer rules, betting schemes, rule sets, solvers, strategies, "
            "simulator kernels, games and count systems it contributes. Third-party "
            "plugins that failed to load are listed as skipped."
        ),
    )
    parser.add_argument(
        "--check",
        nargs="?",
        const="",
        default=None,
        metavar="NAME",
        help="exercise the plugins' contributions (or plugin NAME's): types, rule sets, "
        "randomizers, and a few seeded rounds of each game; one line per problem",
    )
    parser.add_argument(
        "--golden",
        type=Path,
        default=None,
        metavar="DIR",
        help="with --check: compare each game's seeded playthrough with DIR/<game>.jsonl "
        "(written when missing; delete it to accept a change of play)",
    )
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.check is not None:
        return check(args)
    description = get_manager().describe()
    if args.json:
        print_json(description)
        return 0
    table = Table(title="croupier plugins", show_lines=True)
    table.add_column("plugin", style="bold")
    table.add_column("source")
    table.add_column("contributes")
    for plugin in description["plugins"]:
        origin = f"{plugin['distribution'] or plugin['module']} {plugin['version'] or ''}".strip()
        source = f"built-in ({origin})" if plugin["builtin"] else origin
        contributes = "\n".join(
            f"{family}: {', '.join(names)}" for family, names in plugin["contributes"].items()
        )
        table.add_row(plugin["name"], source, contributes or "(nothing)")
    console = stdout_console()
    console.print(table)
    for skipped in description["skipped"]:
        console.print(f"[yellow]skipped[/]: {skipped['message']}")
    for error in description["errors"]:
        console.print(f"[red]error[/]: {error}")
    return 0


def check(args: argparse.Namespace) -> int:
    """``--check``: 0 when every check passes, 1 with one line per problem."""
    from croupier.engine.plugincheck import check_plugins

    manager = get_manager()
    if args.check and args.check not in manager.info:
        known = ", ".join(manager.info)
        raise CroupierError(f"no plugin named {args.check!r} is installed; known: {known}")
    problems = check_plugins(manager, args.check or None, args.golden)
    if args.json:
        print_json({"plugin": args.check or None, "problems": problems})
    else:
        for problem in problems:
            print(problem)
        if not problems:
            checked = args.check or f"{len(manager.info)} plugins"
            print(f"ok: {checked} checked")
    return 1 if problems else 0
