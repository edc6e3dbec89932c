"""``croupier solve``: run a solver plugin on one problem."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from typing import Any

from croupier.clients.cli import solve as front_ends
from croupier.clients.cli.common import get_manager, print_json
from croupier.engine import CroupierError


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve a problem with a solver plugin",
        description="Solve one problem exactly with a solver plugin.",
    )
    solvers = parser.add_subparsers(title="solvers", metavar="SOLVER", parser_class=type(parser))
    for info in sorted(pkgutil.iter_modules(front_ends.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{front_ends.__name__}.{info.name}").register(solvers)
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
