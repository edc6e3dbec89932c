"""Shared fixtures. Tests are hermetic: third-party plugins are not autoloaded unless a test
asks for them (the example plugin is installed by the test command, see README)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "1")


@pytest.fixture
def manager():
    """A plugin manager with the built-in plugins only."""
    from croupier.engine import PluginManager

    return PluginManager(autoload=False)


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process: ``cli("plugins", "--json")`` -> (status, stdout, stderr)."""
    from croupier.clients.cli.main import main

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse's --help, --version and usage errors
            status = int(exc.code or 0)
        out, err = capsys.readouterr()
        return status, out, err

    return run
