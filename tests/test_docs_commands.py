"""Every shell command of the README, the tutorials and the how-to pages runs as written
(issue 33): each ```sh/```console block runs in a shell, at a small size
(tests/doccommands.py), against a real ``croupier serve`` where it names the README's
server. What a page does not let run is marked in the page with its reason. The README's
blocks are the fast tier; the other pages' take minutes together, and are slow."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.doccommands import ROOT, Block, blocks, is_croupier, small
from tests.test_serve_cli import wait_for_port
from tests.test_tutorials import files

PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
ALL = [block for page in PAGES for block in blocks(page)]
SLOW_IN_README = ("croupier solve", "croupier sim")  # seconds each, on a loaded machine


class Page:
    """A page's folder (its ``.venv`` is this interpreter's), environment and server."""

    def __init__(self, page: str, folder: Path) -> None:
        self.folder = folder
        (folder / ".venv").symlink_to(Path(sys.prefix))
        (folder / "examples").symlink_to(ROOT / "examples")
        bin_dir = str(Path(sys.prefix) / "bin")
        self.env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
        self.env["CROUPIER_DATA"] = ":memory:"
        if page == "docs/tutorial-game.md":
            self.env.update(plugin_from_the_page(folder))
        if page == "docs/games.md":  # its example plugin, as .ci/run installs it
            self.env["CROUPIER_DISABLE_PLUGIN_AUTOLOAD"] = ""
        self.server: subprocess.Popen[str] | None = None
        self.port: int | None = None

    def serve(self) -> int:
        if self.port is None:
            data = ["--data", str(self.folder / "journal.db")]  # `croupier history` reads it
            self.server = subprocess.Popen(
                [sys.executable, "-m", "croupier.clients.cli", "serve", "--port", "0", *data],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env=self.env,
                cwd=self.folder,
            )
            self.port, _ = wait_for_port(self.server)
            drain(self.server)
        return self.port

    def stop(self) -> None:
        if self.server is not None:
            self.server.kill()
            self.server.wait()


def drain(proc: subprocess.Popen[str]) -> None:
    """Read a server's log to its end in a thread: a full pipe would stop the server."""
    assert proc.stderr is not None
    threading.Thread(target=proc.stderr.read, daemon=True).start()


def plugin_from_the_page(folder: Path) -> dict[str, str]:
    """docs/tutorial-game.md's package, built from its code blocks, found by croupier as if
    installed (its entry point in a dist-info on PYTHONPATH): ``pip install -e`` would
    change the test's environment."""
    for path, code in files((ROOT / "docs" / "tutorial-game.md").read_text()).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(code)
    project = (folder / "croupier-dice" / "pyproject.toml").read_text()
    (entry,) = re.findall(r"\[project\.entry-points\.croupier\]\n(.*?)\n", project)
    info = folder / "site" / "croupier_dice-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: croupier-dice\nVersion: 0.1.0\n")
    name, _, module = entry.partition(" = ")
    (info / "entry_points.txt").write_text(f"[croupier]\n{name} = {module.strip(chr(34))}\n")
    path = f"{folder / 'croupier-dice'}:{folder / 'site'}"
    return {"PYTHONPATH": path, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": ""}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Page]]:
    made: dict[str, Page] = {}

    class Pages(dict[str, Page]):
        def __missing__(self, page: str) -> Page:
            made[page] = self[page] = Page(page, tmp_path_factory.mktemp(Path(page).stem))
            return made[page]

    yield Pages()
    for page in made.values():
        page.stop()


def slow(block: Block) -> bool:
    if block.page != "README.md":
        return True
    return any(word in command for command in block.runnable() for word in SLOW_IN_README)


def run(block: Block, page: Page) -> subprocess.CompletedProcess[str]:
    commands = block.runnable()
    port = page.serve() if any("127.0.0.1:7171" in c for c in commands) else None
    script = "\n".join(["set -euo pipefail", *(small(c, port) for c in commands)])
    return subprocess.run(
        ["bash", "-c", script],
        cwd=page.folder,
        env=page.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(block, id=block.id, marks=[pytest.mark.slow] if slow(block) else [])
        for block in ALL
        if block.runnable()
    ],
)
def test_each_pages_commands_run_as_written(block: Block, pages: dict[str, Page]) -> None:
    done = run(block, pages[block.page])
    assert done.returncode == 0, (block.runnable(), done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    if any(is_croupier(c) for c in block.runnable()):
        assert done.stdout.strip() or done.stderr.strip(), "no output"


def test_what_is_not_run_says_why_and_the_rest_is_most() -> None:
    """Each command a page keeps from the test is marked there with a reason; most run."""
    commands = [(b, c) for b in ALL for c in b.commands if is_croupier(c)]
    skipped = [(b.id, c, b.skipped(c)) for b, c in commands if b.skipped(c) is not None]
    assert all(skip.reason.strip() for _, _, skip in skipped)  # type: ignore[union-attr]
    assert len(commands) > 80
    assert len(skipped) < len(commands) / 2, skipped  # 35 of 90 when written


def test_every_mark_names_a_command_of_its_block() -> None:
    """A ``not run "TEXT"`` mark whose TEXT no command has would hide nothing, wrongly."""
    for block in ALL:
        for skip in block.skips:
            if skip.text is not None:
                assert any(skip.text in c for c in block.commands), (block.id, skip.text)


def test_the_readmes_set_up_commands_are_the_ones_ci_and_a_newcomer_use() -> None:
    readme = blocks("README.md")
    server = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/croupier serve"
    assert readme[0].commands[-1] == server and not readme[0].runnable()
    assert readme[1].commands[-1] == "bash .ci/run" and not readme[1].runnable()
    assert (ROOT / ".ci" / "run").exists()


def test_the_readmes_randomizer_deals_what_it_says(pages: dict[str, Page]) -> None:
    (block,) = [b for b in blocks("README.md") if any("randomize" in c for c in b.commands)]
    (line,) = [c for c in block.commands if "randomize" in c]
    said = line.split("#", 1)[1].split()
    done = run(Block(block.page, block.line, (line,), ()), pages["README.md"])
    assert done.stdout.split() == said
    assert shlex.split(line, comments=True)[:2] == [".venv/bin/croupier", "randomize"]


@pytest.mark.slow
def test_the_readmes_bot_runs_as_written(pages: dict[str, Page]) -> None:
    readme = (ROOT / "README.md").read_text()
    (bot,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "run(lim17" in b]
    port = pages["README.md"].serve()
    done = subprocess.run(
        [sys.executable, "-c", bot.replace("7171", str(port))],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("100 rounds played")


PLACEHOLDER = re.compile(r"\[|\.\.\.|\b[A-Z]{2,}\b")  # [--seed S], Xq3..., HOST:PORT, FILE.csv


def parsed(command: str) -> list[str] | None:
    """The arguments of a croupier command that is not a synopsis, else None."""
    if "|" in command or PLACEHOLDER.search(command.split("#", 1)[0]):
        return None
    words = shlex.split(command, comments=True)
    return [w for w in words[1:] if w != "&"]


NOT_RUN = [
    pytest.param(argv, id=f"{b.id}:{argv[0]}")
    for b in ALL
    for c in b.commands
    if is_croupier(c) and b.skipped(c) is not None and (argv := parsed(c)) is not None
]


@pytest.mark.parametrize("argv", NOT_RUN)
def test_what_is_not_run_is_still_a_command_croupier_takes(argv: list[str]) -> None:
    """A command a page keeps from running still parses, options and all: a renamed or
    removed option is caught even where the command is too long to run here."""
    from croupier.clients.cli.main import _command, build_parser

    try:
        _, extra = build_parser(_command(argv)).parse_known_args(argv)
    except SystemExit as exc:
        raise AssertionError(f"croupier {' '.join(argv)} does not parse") from exc
    assert extra == [], extra


def test_commands_not_run_are_parsed_here() -> None:
    assert len(NOT_RUN) >= 15  # the placeholder rule leaves most of them to the parser


def test_the_readmes_bot_is_the_tutorials_first_bot() -> None:
    """The README says to save its bot as first_bot.py, where the tutorial picks it up."""
    readme = (ROOT / "README.md").read_text()
    tutorial = (ROOT / "docs" / "tutorial-bot.md").read_text()
    (bot,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "run(lim17" in b]
    assert "`first_bot.py`" in readme and f"`first_bot.py`:\n\n```python\n{bot}```" in tutorial


@pytest.mark.slow
def test_the_game_tutorials_transcripts_are_what_its_commands_print(
    pages: dict[str, Page],
) -> None:
    """docs/tutorial-game.md's play transcript and simulation result, at the page's own
    sizes: what a newcomer typing the page's lines sees."""
    text = (ROOT / "docs" / "tutorial-game.md").read_text()
    page = pages["docs/tutorial-game.md"]
    transcript, result = re.findall(r"```text\n(.*?)```", text, re.S)
    typed = "".join(f"{line[2:]}\n" for line in transcript.splitlines() if line.startswith("> "))
    assert "Type `bet 5`, then\n`bet amount=200`" in text and typed == "bet 5\n"
    runs = {
        ".venv/bin/croupier play --game dice-duel --seed 3": "bet 5\nbet amount=200\nq\n",
        ".venv/bin/croupier sim --game dice-duel --hands 1e5 --seed 1": "",
    }
    printed = ""
    for command, stdin in runs.items():
        assert command in text
        done = subprocess.run(
            shlex.split(command),
            cwd=page.folder,
            env=page.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        printed += done.stdout
    for line in [*transcript.splitlines(), *result.splitlines()]:
        assert line in printed.splitlines(), line
    assert "refused: the amount is from 1 to 100, not 200" in printed  # as the page says
