"""Each game's own options of ``sim`` and ``tournament``, from its plugin
(``croupier_command_lines``, as pytest's ``pytest_addoption``).

Every game's options are registered (so that ``--help`` lists them, one group per game, and
a mistake is caught by name); after parsing, an option of another game than ``--game`` is one
usage line (exit 2), unless it names an option of the chosen game too (``--decks`` sets
baccarat's decks), and the chosen game's ``read`` gives the options its own set.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from croupier.engine import CommandLine, Game, PluginManager, one_line

DEST = "game_options"
"""Where a parser keeps, per game, the actions of that game's options."""


def command_lines(manager: PluginManager) -> list[CommandLine]:
    """The installed games' command lines, built-ins first."""
    return list(manager.command_lines)


def add_game_options(parser: argparse.ArgumentParser, command: str, manager: PluginManager) -> None:
    """One ``--help`` group per game with options of ``command``, titled after the game."""
    found: dict[str, list[argparse.Action]] = {}
    for entry in manager.command_lines.entries():
        line = entry.item
        if line.options is None:
            continue
        group = parser.add_argument_group(f"{line.name} options (--game {line.name})")
        try:
            line.options(command, group)
        except (argparse.ArgumentError, TypeError, ValueError) as exc:
            if manager.info[entry.plugin].builtin:
                raise
            # a third-party option whose name is taken: its game is still playable by --set
            print(
                f"croupier: warning: plugin {entry.plugin!r}: {line.name}'s options of "
                f"{command} are skipped: {one_line(exc)}",
                file=sys.stderr,
            )
            for action in group._group_actions:
                parser._remove_action(action)
                for word in action.option_strings:
                    parser._option_string_actions.pop(word, None)
            group._group_actions.clear()
            continue
        if group._group_actions:
            found[line.name] = list(group._group_actions)
    parser.set_defaults(**{DEST: found})


def given(actions: list[argparse.Action], args: argparse.Namespace) -> list[tuple[str, str]]:
    """``(dest, flags)`` of each option the user set: its value is not the default (the
    first action's of its dest, as argparse fills it), its flags joined (``--h17/--s17``)."""
    first: dict[str, argparse.Action] = {}
    flags: dict[str, list[str]] = {}
    for action in actions:
        first.setdefault(action.dest, action)
        flags.setdefault(action.dest, []).append(action.option_strings[0])
    return [
        (dest, "/".join(flags[dest]))
        for dest, action in first.items()
        if getattr(args, dest, None) != action.default
    ]


def usage_error(args: argparse.Namespace, message: str) -> NoReturn:
    """One usage line on stderr, exit status 2, as argparse's own errors."""
    prog = getattr(getattr(args, "command_parser", None), "prog", "croupier")
    print(f"{prog}: error: {message} (see '{prog} --help')", file=sys.stderr)
    raise SystemExit(2)


def game_options(
    manager: PluginManager, command: str, game: Game, args: argparse.Namespace
) -> dict[str, Any]:
    """The chosen game's options the command line sets by game options (``--set`` is the
    caller's); another game's option is a usage error unless ``game`` has an option of its
    name (``--decks`` with baccarat)."""
    names = {f.name for f in game.options}
    out: dict[str, Any] = {}
    for owner, actions in getattr(args, DEST, {}).items():
        if owner == game.name:
            continue
        for dest, flags in given(actions, args):
            if dest not in names:
                usage_error(
                    args,
                    f"{flags} is a {owner} option; {game.name}'s options are "
                    f"{', '.join(sorted(names))} (set one with --set NAME=VALUE)",
                )
            out[dest] = getattr(args, dest)
    for line in command_lines(manager):
        if line.name == game.name and line.read is not None:
            out.update(line.read(command, args))
    return out
