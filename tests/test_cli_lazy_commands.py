"""A command imports only its own module: ``croupier sim`` does not pay for the bot
client, the protocol or the other commands (0.7 s of imports before), while ``--help``
and an unknown command still see every command."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from croupier.clients.cli.main import build_parser
parser = build_parser({command!r})
commands = sorted(parser._subparsers._group_actions[0].choices)
loaded = sorted(m for m in sys.modules if m.startswith(("croupier.clients.bot", "croupier.protocol",
                "croupier.clients.cli.commands.")))
print(commands, loaded)
"""


def probe(command):
    out = subprocess.check_output([sys.executable, "-c", PROBE.format(command=command)], text=True)
    commands, loaded = out.strip().split("] [")
    return commands + "]", "[" + loaded


def test_a_command_imports_its_own_module_only():
    commands, loaded = probe("sim")
    assert commands == "['sim']"
    assert loaded == "['croupier.clients.cli.commands.sim']"
    commands, _ = probe("check-sim")  # a dash in the command, an underscore in the module
    assert commands == "['check-sim']"


def test_help_and_unknown_commands_see_every_command():
    for command in (None, "no-such-command"):
        commands, loaded = probe(command)
        assert "'bot'" in commands and "'sim'" in commands and "'tournament'" in commands
        assert "croupier.clients.cli.commands.bot" in loaded


def test_an_unknown_command_lists_every_choice(cli):
    status, _, err = cli("simm")
    assert status == 2 and err.count("\n") == 1
    assert "'bot'" in err and "'tournament'" in err
