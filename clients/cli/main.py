"""Entry point of the ``croupier`` command: parse, dispatch, turn errors into one line."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

from croupier.clients.cli import commands
from croupier.engine import CroupierError, __version__

PROG = "croupier"


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=PROG,
        description=(
            "A plugin-based rules engine for games of chance: randomizers, blackjack "
            "tables, solvers and bot tournaments, served over msgpack-rpc."
        ),
        epilog="Run 'croupier COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show a full traceback when something fails"
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=ArgumentParser)
    for module_info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{module_info.name}")
        module.register(sub)
    for command in _parsers(sub):  # an unknown option is the command's error, not croupier's
        command.set_defaults(command_parser=command)
    return parser


def _parsers(sub: argparse._SubParsersAction[ArgumentParser]) -> list[ArgumentParser]:
    """Every command's parser, the nested ones (``solve blackjack``) included."""
    found = []
    for command in dict.fromkeys(sub.choices.values()):
        found.append(command)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.extend(_parsers(action))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 error, 2 usage, 130 interrupted)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        where: ArgumentParser = getattr(args, "command_parser", parser)
        where.error(f"unrecognized arguments: {' '.join(extra)}")
    if not hasattr(args, "func"):
        print(f"{PROG}: error: name a command ('{PROG} --help' lists them)", file=sys.stderr)
        return 2
    try:
        status = args.func(args)
    except CroupierError as exc:
        if args.debug:
            traceback.print_exc()
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `croupier sim ... | head -1`: stop quietly, as `yes` does
        return closed_stdout()
    except Exception as exc:  # a bug: still one line unless --debug
        if args.debug:
            traceback.print_exc()
        line = str(exc).strip().splitlines()
        detail = f": {line[0]}" if line else ""
        print(
            f"{PROG}: internal error: {type(exc).__name__}{detail} (rerun with --debug)",
            file=sys.stderr,
        )
        return 70
    return int(status or 0)


SIGPIPE_STATUS = 128 + 13
"""What a shell reports for a tool killed by SIGPIPE, as GNU tools are when a reader of
their output goes away."""


def closed_stdout() -> int:
    """The reader of stdout went away: say nothing more (the rest of the output, and
    Python's own flush at exit, go to /dev/null) and exit as a Unix tool does."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return SIGPIPE_STATUS


def run() -> NoReturn:  # pragma: no cover - thin wrapper for `python -m`
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
