"""A game's own command-line front end (``croupier_command_lines``), as pytest's
``pytest_addoption``: the generic commands keep ``--game``, ``--rules``, ``--set``, ``--seed``
and the like, and each game adds its own options to ``sim``, ``solve`` and ``tournament``
under a group named after it, and reads them back into its options.

The engine only declares the shapes (argparse alone, no client): the command line calls
``options(command, group)`` for every game while it builds a command's parser, refuses one
game's option used with another game in one line, and merges ``read(command, args)`` into
the chosen game's options (``--set`` overrides it). ``solve(parser, kit)`` fills the parser
of ``croupier solve NAME``, the :class:`CommandKit` lending it what every command shares.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from croupier.engine.executor import Executor
    from croupier.engine.manager import PluginManager

COMMANDS = ("sim", "solve", "tournament")
"""The commands whose options a game may add to (``solve`` is the game's ``solve NAME``)."""

AddOptions = Callable[[str, "argparse._ArgumentGroup"], None]
"""``options(command, group)``: add the game's options for ``command`` to ``group``."""
ReadOptions = Callable[[str, argparse.Namespace], dict[str, Any]]
"""``read(command, args)``: the game options the parsed arguments set (those not given left
out), merged into the game's rule set before ``--set``."""


@attrs.frozen
class CommandKit:
    """What the command line lends a game's ``solve`` front end, so that a plugin imports
    the engine and argparse only: the shared options, output and work placement."""

    manager: Callable[[], PluginManager]
    """The plugin manager, loaded (skipped plugins reported once on stderr)."""
    add_json_argument: Callable[[argparse.ArgumentParser], None]
    add_seed_argument: Callable[[argparse.ArgumentParser], None]
    add_executor_arguments: Callable[[argparse.ArgumentParser, str], None]
    """``--workers N`` or ``--cluster ADDRESS``; the second argument says the default."""
    positive_int: Callable[[str], int]
    """An argparse ``type`` for a whole number above zero."""
    print_json: Callable[[Any], None]
    """Print plain data as strict JSON on stdout."""
    report_seed: Callable[[int], None]
    """Say on stderr which seed a run drew, and how to rerun it."""
    progress: Callable[[str, int], AbstractContextManager[Callable[..., None]]]
    """A progress bar on a terminal's stderr: ``with kit.progress(what, total) as tick``."""
    executor: Callable[[argparse.Namespace, int], AbstractContextManager[Executor]]
    """Where the work runs: ``--cluster``, else this many worker processes (SIGTERM
    stops it as Ctrl-C does)."""


Solve = Callable[[argparse.ArgumentParser, CommandKit], None]
"""``solve(parser, kit)``: add ``croupier solve NAME``'s options and ``set_defaults(func=)``
a function of the parsed arguments returning the exit status."""


@attrs.frozen
class CommandLine:
    """One game's command-line options and its solve front end.

    ``name`` is the game's (the group's title in ``--help``; a ``solve`` front end is
    ``croupier solve NAME``); ``options`` adds the game's options for each command,
    ``read`` reads them back; ``solve`` is the game's solve front end, if it has one.
    """

    name: str
    summary: str
    options: AddOptions | None = None
    read: ReadOptions | None = None
    solve: Solve | None = None
    solve_help: str = ""
    """``croupier solve NAME``'s one-line help (its description is the parser's own)."""
