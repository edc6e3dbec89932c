"""``croupier solve``: run a solver plugin on one problem."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from croupier.clients.cli.commands.sim import count_type
from croupier.clients.cli.common import (
    add_json_argument,
    add_seed_argument,
    get_manager,
    load_plugins,
    positive_int,
    print_json,
    progress,
    report_seed,
    seed_type,
    working,
)
from croupier.clients.cli.executing import add_executor_arguments, executor_for
from croupier.clients.cli.figures import check_plot, plot
from croupier.clients.cli.printer import ConsolePrinter
from croupier.clients.cli.solvecache import solve_reusing
from croupier.engine import CommandKit, CommandLine, CroupierError


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve a problem with a solver plugin",
        description="Solve one problem exactly with a solver plugin.",
    )
    solvers = parser.add_subparsers(title="solvers", metavar="SOLVER", parser_class=type(parser))
    lines = load_plugins().command_lines  # the games' own front ends (croupier_command_lines)
    for line in sorted((x for x in lines if x.solve is not None), key=lambda x: x.name):
        _game_front_end(solvers, line)
    call = solvers.add_parser(
        "call",
        help="call any solver by name with a JSON problem",
        description=(
            "Call any solver plugin, built-in or third-party, with its problem as JSON "
            "(inline, or '-' to read stdin) and print its solution as JSON."
        ),
    )
    call.add_argument("name", help="the solver's name (see 'croupier plugins')")
    call.add_argument("problem", help="the problem as a JSON object, or '-' for stdin")
    call.set_defaults(func=run_call)
    parser.set_defaults(func=lambda args: _usage(parser))


def _game_front_end(solvers: argparse._SubParsersAction[Any], line: CommandLine) -> None:
    """``croupier solve NAME`` from a game plugin's ``CommandLine.solve``."""
    assert line.solve is not None
    line.solve(solvers.add_parser(line.name, help=line.solve_help or line.summary), KIT)


KIT = CommandKit(
    manager=get_manager,
    add_json_argument=add_json_argument,
    add_seed_argument=add_seed_argument,
    add_executor_arguments=add_executor_arguments,
    positive_int=positive_int,
    print_json=print_json,
    report_seed=report_seed,
    progress=progress,
    executor=executor_for,
    seed_type=seed_type,
    count_type=count_type,
    printer=ConsolePrinter,
    working=working,
    solve_reusing=solve_reusing,
    check_plot=check_plot,
    plot=plot,
)
"""What a game's solve front end borrows from the command line."""


def _usage(parser: argparse.ArgumentParser) -> int:
    print(
        f"{parser.prog}: error: name a solver ('{parser.prog} --help' lists them)",
        file=sys.stderr,
    )
    return 2


def run_call(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.problem == "-" else args.problem
    try:
        problem = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CroupierError(f"the problem is not valid JSON: {exc}") from None
    if not isinstance(problem, dict):
        raise CroupierError("the problem must be a JSON object")
    solver = get_manager().solvers.get(args.name)
    print_json(solver.solve(problem))
    return 0
