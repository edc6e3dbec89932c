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


def build_parser(command: str | None = None) -> ArgumentParser:
    """The whole CLI's parser; with ``command`` (the word after the global options), only
    that command's module is imported when it names one: a command's start-up does not pay
    for every other command's imports (the bot client and the protocol, ~0.7 s)."""
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
    names = sorted(m.name for m in pkgutil.iter_modules(commands.__path__))
    names = [name for name in names if not name.startswith("_")]
    wanted = (command or "").replace("-", "_")
    if wanted in names:
        _register(sub, wanted)
        names.remove(wanted)
    if command not in sub.choices:  # --help, an unknown command: every command
        for name in names:
            _register(sub, name)
    for each in _parsers(sub):  # an unknown option is the command's error, not croupier's
        each.set_defaults(command_parser=each)
    return parser


def _register(sub: argparse._SubParsersAction[ArgumentParser], name: str) -> None:
    importlib.import_module(f"{commands.__name__}.{name}").register(sub)


def _command(argv: Sequence[str]) -> str | None:
    """The command word: the first argument that is not a global option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


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
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command(argv))
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
