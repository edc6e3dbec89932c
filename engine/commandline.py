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
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

import attrs

if TYPE_CHECKING:
    from croupier.engine.executor import Executor
    from croupier.engine.manager import PluginManager
    from croupier.engine.printing import Printer
    from croupier.engine.solvers import Solver

COMMANDS = ("sim", "solve", "tournament")
"""The commands whose options a game may add to (``solve`` is the game's ``solve NAME``)."""

AddOptions = Callable[[str, "argparse._ArgumentGroup"], None]
"""``options(command, group)``: add the game's options for ``command`` to ``group``."""
ReadOptions = Callable[[str, argparse.Namespace], dict[str, Any]]
"""``read(command, args)``: the game options the parsed arguments set (those not given left
out), merged into the game's rule set before ``--set``."""


class SolveReusing(Protocol):
    """``solver.solve(problem)``, or the solution kept for ``key`` (the problem without
    what does not change its solution, such as the number of workers), and whether it was
    kept; ``fresh`` solves again (and keeps the new solution)."""

    def __call__(
        self,
        solver: Solver,
        problem: Mapping[str, Any],
        key: Mapping[str, Any],
        *,
        fresh: bool = False,
    ) -> tuple[dict[str, Any], bool]: ...


@attrs.frozen
class CommandKit:
    """What the command line lends a game's ``solve`` front end, so that a plugin imports
    the engine and argparse only: the shared options, output, pictures, kept solutions and
    work placement."""

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
    seed_type: Callable[[str], int]
    """An argparse ``type`` for a seed (decimal or ``0x`` hexadecimal, 0 to 2**64-1), for a
    ``--seed`` option of the front end's own wording."""
    count_type: Callable[[str], int]
    """An argparse ``type`` for a number of rounds, written plainly or as ``1e8``."""
    printer: Callable[[], Printer]
    """A :class:`~croupier.engine.printing.Printer` on stdout, for one report (text with
    markup and tables, drawn whole however narrow the window)."""
    working: Callable[[str], AbstractContextManager[None]]
    """A spinner with the elapsed time on a terminal's stderr, for work with no steps to
    count (a long solve): ``with kit.working("solving ..."):``."""
    solve_reusing: SolveReusing
    """A solver's solution kept for reuse by the command line (its cache folder)."""
    check_plot: Callable[[str], None]
    """Refuse a picture that cannot be written (not ``.png`` or ``.svg``, no plotting
    library installed, no such folder) before the work: a one-line error."""
    plot: Callable[[str, str, Any, str], None]
    """``plot(figure, path, data, title)``: draw one of the command line's figures into
    ``path`` (``"indices"``: a blackjack index set, the solver's ``indices`` entries, as a
    chart colored like the basic-strategy chart)."""


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
