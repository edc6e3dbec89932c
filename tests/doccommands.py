"""The shell blocks of croupier's pages, as a reader would run them (issue 33).

A page's ```sh and ```console blocks are read one by one: every line of an ``sh`` block is
a command, and of a ``console`` block the lines after a ``$ `` prompt (the others are their
output); a line ending in ``\\`` continues on the next. An HTML comment just before a
block says what the test does not run, always with its reason:

- ``<!-- not run: REASON -->``: none of the block (it starts a server, installs, ...);
- ``<!-- not run "TEXT": REASON -->``: the block's commands containing TEXT.

Several comments may precede one block. Everything else runs, in a shell, in the page's
own folder (where ``.venv`` is the running interpreter's environment), after
:func:`small`: sizes capped so that a page's commands take seconds, and the README's
server address ``127.0.0.1:7171`` replaced by a test server's."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
SHELLS = ("sh", "console")
MARK = re.compile(r'<!-- not run(?: "([^"]+)")?: (.+?) -->')


@attrs.frozen
class Skip:
    """What a page says the test does not run: ``text`` (None: the whole block), and why."""

    text: str | None
    reason: str


@attrs.frozen
class Block:
    """One shell block of a page: where it opens, its commands, and what is not run."""

    page: str
    line: int
    commands: tuple[str, ...]
    skips: tuple[Skip, ...]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    def skipped(self, command: str) -> Skip | None:
        return next((s for s in self.skips if s.text is None or s.text in command), None)

    def runnable(self) -> list[str]:
        return [c for c in self.commands if self.skipped(c) is None]


def logical_lines(body: list[str], console: bool) -> list[str]:
    """A block's commands, continuation lines joined: in a ``console`` block only the
    lines after a ``$ `` prompt (the rest is their output), in an ``sh`` block every line."""
    lines: list[str] = []
    pending: str | None = None
    for raw in body:
        line = raw.rstrip()
        if pending is None:
            if console and not line.startswith("$ "):
                continue
            pending = ""
            line = line.removeprefix("$ ")
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        line, pending = (pending + line).strip(), None
        if line:
            lines.append(line)
    return lines


def blocks(page: str) -> list[Block]:
    """The shell blocks of ``page`` (a path from the repository's root), in order."""
    text = (ROOT / page).read_text().splitlines()
    found: list[Block] = []
    skips: list[Skip] = []
    i = 0
    while i < len(text):
        line = text[i]
        mark = MARK.search(line)
        if mark:
            skips.append(Skip(mark.group(1), mark.group(2)))
        elif line.startswith("```"):
            kind = line[3:].strip()
            end = next(j for j in range(i + 1, len(text)) if text[j].startswith("```"))
            if kind in SHELLS:
                commands = logical_lines(text[i + 1 : end], kind == "console")
                found.append(Block(page, i + 1, tuple(commands), tuple(skips)))
            skips = []
            i = end
        elif line.strip():
            skips = []  # a comment marks the block right after it, nothing further
        i += 1
    return found


def is_croupier(command: str) -> bool:
    """A line that runs croupier (directly, or at the end of a pipe)."""
    return bool(re.search(r"(^|\| *)(\.venv/bin/)?croupier ", command))


CAPS = {"--hands": 20_000, "--rounds": 50, "--games": 20, "--tourneys": 2}
"""The largest size a page's command runs at here (the page's own is kept when smaller)."""


def small(command: str, port: int | None = None) -> str:
    """``command`` capped to the sizes of :data:`CAPS`, on the test server's port."""

    def cap(match: re.Match[str]) -> str:
        option, value = match.group(1), match.group(2)
        try:
            size = float(value)
        except ValueError:
            return match.group(0)
        return f"{option} {min(int(size), CAPS[option])}"

    pattern = "(" + "|".join(re.escape(o) for o in CAPS) + r") +(\S+)"
    command = re.sub(pattern, cap, command)
    if port is not None:
        command = command.replace("127.0.0.1:7171", f"127.0.0.1:{port}")
    return command
