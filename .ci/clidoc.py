"""Write docs/cli.md, the CLI reference, from the parsers of every command.

The reference is generated so that it cannot drift from the code: ``tests/test_docs_reference.py``
fails when docs/cli.md differs from what this prints. Run it after changing an option:

    .venv/bin/python .ci/clidoc.py            # rewrite docs/cli.md
    .venv/bin/python .ci/clidoc.py --check    # exit 1 if docs/cli.md is out of date
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from croupier.clients.cli.main import build_parser

AUTOLOAD = "CROUPIER_DISABLE_PLUGIN_AUTOLOAD"
ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cli.md"

HEADER = """\
# CLI reference

Every command of `croupier`, every option, generated from the parsers by `.ci/clidoc.py`
(do not edit by hand: `tests/test_docs_reference.py` fails when this page and the parsers
differ). `croupier COMMAND --help` prints the same. The examples in the other pages write
`croupier` for `.venv/bin/croupier`.

Every command prints one clear line on stderr and exits non-zero when something is wrong
(1 an error, 2 a usage mistake, 130 interrupted); `croupier --debug COMMAND ...` shows the
full traceback instead. Every command that draws randomness takes `--seed` and, given none,
draws one and prints it.
"""


def cell(text: str) -> str:
    """Text for one markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def invocation(formatter: argparse.HelpFormatter, action: argparse.Action) -> str:
    if not action.option_strings:
        metavar = formatter._get_default_metavar_for_positional(action)
        return formatter._format_args(action, metavar)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = formatter._get_default_metavar_for_optional(action)
    args = formatter._format_args(action, metavar)
    return ", ".join(f"{option} {args}" for option in action.option_strings)


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each subcommand of ``parser``, in order."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            formatter = parser._get_formatter()
            helps = {
                choice.dest: formatter._expand_help(choice) if choice.help else ""
                for choice in action._choices_actions
            }
            for name, sub in action.choices.items():
                if name in helps:  # aliases have no help of their own
                    found.append((name, helps[name], sub))
    return found


def option_rows(parser: argparse.ArgumentParser, actions: list[argparse.Action]) -> list[str]:
    """One table row per option."""
    formatter = parser._get_formatter()
    rows = []
    for action in actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        helped = formatter._expand_help(action) if action.help else ""
        rows.append(f"| `{cell(invocation(formatter, action))}` | {cell(helped)} |")
    return rows


def section(name: str, summary: str, parser: argparse.ArgumentParser) -> list[str]:
    lines = [f"## `{parser.prog}`", ""]
    text = parser.description or summary
    if "%(prog)" in text:  # as argparse shows it
        text = text % {"prog": parser.prog}
    if text:
        lines += [" ".join(text.split()), ""]
    games: dict[str, list[argparse.Action]] = parser.get_default("game_options") or {}
    theirs = {id(action) for actions in games.values() for action in actions}
    rows = option_rows(parser, [a for a in parser._actions if id(a) not in theirs])
    if rows:
        lines += ["| option | what it does |", "| --- | --- |", *rows, ""]
    for game, actions in games.items():  # each game's own options (croupier_command_lines)
        lines += [f"{game}'s options (`--game {game}`):", ""]
        lines += ["| option | what it does |", "| --- | --- |", *option_rows(parser, actions), ""]
    subs = subcommands(parser)
    if subs:
        lines += ["| command | what it does |", "| --- | --- |"]
        lines += [f"| `{sub.prog}` | {cell(text)} |" for _, text, sub in subs]
        lines.append("")
        for sub_name, sub_help, sub in subs:
            lines += section(sub_name, sub_help, sub)
    return lines


def render() -> str:
    """The page, the same on every machine: defaults read from the environment (the
    journal's place) are shown as a user's would be, under ``~``, and third-party plugins'
    options are left out."""
    names = ("CROUPIER_DATA", "XDG_DATA_HOME", AUTOLOAD)
    saved = {name: os.environ.pop(name, None) for name in names}
    os.environ["XDG_DATA_HOME"] = "~/.local/share"
    os.environ[AUTOLOAD] = "1"  # the built-in games' options only, whatever is installed
    try:
        parser = build_parser()
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
    lines = [HEADER]
    commands = subcommands(parser)
    lines += ["| command | what it does |", "| --- | --- |"]
    lines += [
        f"| [`{sub.prog}`](#{anchor(sub.prog)}) | {cell(text)} |" for _, text, sub in commands
    ]
    lines.append("")
    for name, text, sub in commands:
        lines += section(name, text, sub)
    return "\n".join(lines).rstrip() + "\n"


def anchor(prog: str) -> str:
    """GitHub's anchor of the heading ``## `prog` ``."""
    return prog.lower().replace(" ", "-")


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not DOC.exists() or DOC.read_text() != text:
            print("docs/cli.md is out of date: run .venv/bin/python .ci/clidoc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
