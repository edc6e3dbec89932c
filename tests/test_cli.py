"""The croupier command: version, help, plugins, one-line errors, broken plugins skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from croupier.engine import PluginManager, Solver, __version__, hookimpl

ROOT = Path(__file__).resolve().parent.parent


def croupier(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed console script in a subprocess, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "croupier.clients.cli", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_version(cli):
    status, out, _ = cli("--version")
    assert status == 0
    assert out.strip() == f"croupier {__version__}"
    assert __version__ == metadata.version("croupier")


def test_help_lists_commands(cli):
    status, out, _ = cli("--help")
    assert status == 0
    assert "plugins" in out and "COMMAND" in out


def test_no_command_is_a_one_line_usage_error(cli):
    status, _, err = cli()
    assert status == 2 and err == "croupier: error: name a command ('croupier --help' lists them)\n"
    status, _, err = cli("solve")
    assert status == 2 and err.count("\n") == 1 and "croupier solve --help" in err


def test_usage_error_is_one_line(cli):
    status, out, err = cli("plugins", "--bogus")
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("croupier plugins: error: unrecognized arguments: --bogus")


def test_plugins_json_lists_builtins(cli):
    status, out, _ = cli("plugins", "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"plugins", "skipped", "errors"}
    builtins = [p for p in data["plugins"] if p["builtin"]]
    assert all(p["distribution"] == "croupier" for p in builtins)
    assert data["errors"] == []


def test_plugins_table(cli):
    status, out, _ = cli("plugins")
    assert status == 0
    assert "croupier plugins" in out


def test_broken_third_party_plugin_does_not_stop_the_cli(tmp_path):
    # A real (if tiny) installed distribution whose entry point cannot be imported.
    info = tmp_path / "broken_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-dist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[croupier]\nbroken = no_such_module_abc\n")
    (tmp_path / "raising_plugin.py").write_text(
        textwrap.dedent(
            """
            from croupier.engine import hookimpl

            @hookimpl
            def croupier_solvers():
                raise RuntimeError("I am broken")
            """
        )
    )
    info2 = tmp_path / "raising_dist-2.0.dist-info"
    info2.mkdir()
    (info2 / "METADATA").write_text("Metadata-Version: 2.1\nName: raising-dist\nVersion: 2.0\n")
    (info2 / "entry_points.txt").write_text("[croupier]\nraising = raising_plugin\n")
    env = {
        "PYTHONPATH": str(tmp_path),
        "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "",
    }
    result = croupier("plugins", "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "plugin 'broken' skipped: failed to load" in result.stderr
    data = json.loads(result.stdout)
    skipped = {s["name"]: s["message"] for s in data["skipped"]}
    assert "ModuleNotFoundError" in skipped["broken"]
    assert "I am broken" in skipped["raising"]
    raising = next(p for p in data["plugins"] if p["name"] == "raising")
    assert raising["distribution"] == "raising-dist" and raising["version"] == "2.0"


def test_internal_errors_are_one_line_unless_debug(cli, monkeypatch):
    from croupier.clients.cli.commands import plugins

    def explode(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(plugins, "run", explode)
    status, _, err = cli("plugins")
    assert status == 70
    assert err.strip() == (
        "croupier: internal error: ZeroDivisionError: division by zero (rerun with --debug)"
    )
    status, _, err = cli("--debug", "plugins")
    assert "Traceback" in err


@pytest.mark.parametrize("argv", [["plugins", "--help"], ["--help"]])
def test_help_reads_well(cli, argv):
    status, out, _ = cli(*argv)
    assert status == 0
    assert "usage: croupier" in out


class DoubleSolver:
    @hookimpl
    def croupier_solvers(self):
        return [Solver("double", "doubles x", lambda problem: {"y": 2 * problem["x"]})]


def test_solve_call_runs_any_solver(cli, monkeypatch):
    from croupier.clients.cli import common

    monkeypatch.setattr(
        common, "PluginManager", lambda: PluginManager(plugins=[("double", DoubleSolver())])
    )
    status, out, _ = cli("solve", "call", "double", '{"x": 21}')
    assert status == 0
    assert json.loads(out) == {"y": 42}
    status, _, err = cli("solve", "call", "double", "{oops")
    assert status == 1
    assert err.startswith("croupier: error: the problem is not valid JSON")
    status, _, err = cli("solve", "call", "nope", "{}")
    assert status == 1 and "unknown solver 'nope'" in err


def test_every_plugin_failure_is_warned_at_the_start_of_any_command(cli, monkeypatch):
    """A third-party hook that raises is found when the plugins load, not when its family is
    first used, so a command that never touches that family still says so (once)."""
    from croupier.clients.cli import common
    from croupier.engine import PluginManager, hookimpl

    class Broken:
        @hookimpl
        def croupier_solvers(self):
            raise KeyError("boom")

    def manager() -> PluginManager:
        pm = PluginManager(autoload=False)
        pm.register(Broken(), "broken")
        return pm

    monkeypatch.setattr(common, "PluginManager", manager)
    status, out, err = cli("randomize", "7-bag", "-n", "3", "--seed", "1")
    assert status == 0 and out.split() == ["T", "J", "Z"]
    assert err == (
        "croupier: warning: plugin 'broken': croupier_solvers raised KeyError: 'boom'; "
        "what it contributes is skipped\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "--hands", "20000", "--engine", "python", "--seed", "1"],
        ["stats", "7-bag", "-n", "200000", "--seed", "1"],
        pytest.param(["solve", "blackjack", "--rules", "vegas-s17"], marks=pytest.mark.slow),
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(argv):
    """`croupier sim | head -1` exited 1 with no message (rich's own handling): a closed
    stdout now ends the command as it ends `yes | head`: no message, status 141."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first line
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141, err
    assert err == ""


def test_seeds_are_read_as_people_write_them(cli):
    def seed_of(text: str) -> object:
        status, out, err = cli("sim", "--hands", "2", "--seed", text, "--json")
        return json.loads(out)["seed"] if status == 0 else err

    assert seed_of("007") == 7 and seed_of("0x1f") == 31 and seed_of("1_000") == 1000
    assert seed_of(str(2**64 - 1)) == 2**64 - 1
    for bad in ("-3", str(2**64), "99999999999999999999999999", "abc"):
        err = seed_of(bad)
        assert isinstance(err, str) and "a seed is" in err and "0 to 2**64-1" in err
    # the bot checks the seed itself, before any server is asked
    status, _, err = cli("bot", "lim17", "--connect", "127.0.0.1:1", "--seed", str(2**64))
    assert status == 2 and "a seed is from 0 to 2**64-1" in err and "server" not in err


def test_an_unknown_option_points_to_its_own_commands_help(cli):
    for argv, where in (
        (["sim", "--bogus"], "croupier sim"),
        (["solve", "blackjack", "--bogus"], "croupier solve blackjack"),
        (["--bogus"], "croupier"),
    ):
        status, _, err = cli(*argv)
        assert status == 2 and err.count("\n") == 1
        assert err == f"{where}: error: unrecognized arguments: --bogus (see '{where} --help')\n"


def test_absurd_worker_counts_are_refused_and_the_rest_capped_by_the_work(cli):
    """--workers 60 started 61 processes for 3 games; --workers 1000 said nothing for a
    minute. At most 4 per core are accepted, and no more start than there is work for."""
    from croupier.engine.executor import default_workers

    limit = 4 * default_workers()
    for argv in (
        ["sim", "--hands", "10"],
        ["tournament", "lim17", "--rounds", "1"],
        ["solve", "minesweeper", "--play", "--size", "9x9", "--mines", "10", "--games", "3"],
    ):
        status, _, err = cli(*argv, "--workers", str(limit + 1))
        assert status == 2 and err.count("\n") == 1
        assert f"at most {limit} workers on this machine" in err
    status, out, _ = cli(
        "solve", "minesweeper", "--play", "--size", "9x9", "--mines", "10", "--games", "20",
        "--workers", str(limit), "--seed", "1",
    )  # fmt: skip
    # game 0 here, then 19 games in batches of 8: three batches, three workers at most
    assert status == 0 and f"on {min(limit, 3)} worker processes" in out


def test_a_long_solve_shows_a_spinner_with_its_time(monkeypatch):
    """`solve blackjack --rules classic --decks 8` was silent for 28.7 s."""
    import io
    import time

    from rich.console import Console

    from croupier.clients.cli import common

    screen = io.StringIO()
    monkeypatch.setattr(common, "Console", lambda **kw: Console(file=screen, force_terminal=True))
    with common.working("solving blackjack", after=0.05):
        time.sleep(1.0)  # twenty times the delay before it shows
    assert "solving blackjack (" in screen.getvalue()
    quiet = io.StringIO()
    monkeypatch.setattr(common, "Console", lambda **kw: Console(file=quiet, force_terminal=False))
    with common.working("solving blackjack", after=0.0):
        time.sleep(0.3)
    assert quiet.getvalue() == ""  # not a terminal: nothing
