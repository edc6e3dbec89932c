"""Executable bots: the King-of-the-Hill contest's interface, as a game table's player.

A bot is any executable, or a command line such as ``python2 bot.py``
(:func:`parse_command_line`), run once per play decision as::

    BOT <hand-score> <hand> <visible cards> <stake> <chips>

(:meth:`~croupier.plugins.blackjack.play.Observation.koth_arguments`), and answers one line: ``H``,
``S``, ``D``, ``B n`` (:meth:`~croupier.plugins.blackjack.play.Action.parse`). The process runs
with:

- a clean environment: ``PATH`` (:data:`BOT_PATH` unless given), ``HOME`` set to the working
  directory, ``LANG=C.UTF-8``, nothing else;
- a working directory chosen by the caller (the tournament gives each bot a fresh empty
  directory per table);
- stdin closed (``/dev/null``), in a new session (its own process group);
- output bounded: at most :data:`MAX_OUTPUT` bytes of stdout and of stderr are read; more
  is a fault.

The time limit is the table's (a trio cancel scope around ``decide``): when it fires, or
on any other exit before the bot is done, the whole process group is killed with SIGKILL
and reaped, so a bot that forks a ``sleep`` leaves nothing behind. A crash (non-zero exit
status or a signal), no output, or a first line that is not an action raises
:class:`BotFault`, which the table turns into the default (stand) and a ``default`` event.
Decisions other than ``play`` (bets, insurance, surrender), which the contest never asks,
get the table's minimum bet or ``decline`` without running the bot.
"""

from __future__ import annotations

import contextlib
import math
import os
import shlex
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs
import trio

from croupier.engine import CroupierError, Plain
from croupier.plugins.blackjack.play import Action, Observation

BOT_PATH = "/usr/local/bin:/usr/bin:/bin"
"""``PATH`` in a bot's environment: the system's, so ``#!/usr/bin/env python3`` finds the
system interpreter the same way on every run (and fast: no version-manager shims)."""
MAX_OUTPUT = 4096
"""Bytes of stdout (and of stderr) read from one run of a bot; more is a fault."""


class BotFault(CroupierError):
    """A bot's run that gave no usable answer: crash, silence, garbage, too much output."""


def bot_environment(workdir: str | os.PathLike[str], path: str = BOT_PATH) -> dict[str, str]:
    """The whole environment a bot runs with."""
    return {"PATH": path, "HOME": os.fspath(workdir), "LANG": "C.UTF-8"}


def check_executable(path: str | os.PathLike[str]) -> Path:
    """The absolute path of an executable file, or a one-line :class:`CroupierError`."""
    p = Path(path).expanduser()
    if not p.exists():
        raise CroupierError(f"bot {os.fspath(path)!r}: no such file")
    if not p.is_file():
        raise CroupierError(f"bot {os.fspath(path)!r}: not a file")
    if not os.access(p, os.X_OK):
        raise CroupierError(
            f"bot {os.fspath(path)!r} is not executable: add a shebang line and run "
            f"'chmod +x {os.fspath(path)}', or enter it with its interpreter, quoted as one "
            f"argument: 'python3 {os.fspath(path)}'"
        )
    return p.resolve()


@attrs.frozen
class CommandLine:
    """A bot entered as a command line (``"python2 bot.py"``): ``command`` to run, with the
    program and every word naming an existing file made absolute; ``script`` the first file
    after the program (what the bot is called in the standings), if any."""

    command: tuple[str, ...]
    script: Path | None


def parse_command_line(text: str, search_path: str | None = None) -> CommandLine:
    """Split ``text`` like a shell (:func:`shlex.split`; it never runs through one).

    The program is found on ``search_path`` (default: the caller's own ``PATH``, not the
    bots' clean one) or is a path; later words that name an existing file, relative to the
    current directory, are made absolute, since a bot runs in a working directory of its own.
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise CroupierError(f"bot {text!r}: cannot split the command line: {exc}") from None
    if not words:
        raise CroupierError("an empty bot command line")
    program = words[0]
    if os.sep in program:
        found: str | os.PathLike[str] = check_executable(program)
    else:
        where = shutil.which(program, path=search_path)
        if where is None:
            raise CroupierError(
                f"bot {text!r}: no program {program!r} on PATH (give its full path, like "
                f"'/usr/bin/{program} ...')"
            )
        found = Path(where).resolve()
    command = [os.fspath(found)]
    script = None
    for word in words[1:]:
        if not word.startswith("-") and Path(word).is_file():
            path = Path(word).resolve()
            script = script or path
            word = os.fspath(path)
        command.append(word)
    return CommandLine(tuple(command), script)


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else ""


def _clip(data: bytes | bytearray, limit: int = 80) -> str:
    text = data.decode("utf-8", "replace").strip().replace("\n", " | ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


async def _read_bounded(stream: trio.abc.ReceiveStream, out: bytearray, limit: int) -> None:
    while True:
        chunk = await stream.receive_some(limit + 1 - len(out))
        if not chunk:
            return
        out += chunk
        if len(out) > limit:
            raise BotFault(f"wrote more than {limit} bytes")


class ExecutablePlayer:
    """Runs ``command`` (an executable and any leading arguments) once per play decision.

    ``workdir`` is the process's working directory and ``HOME``; ``env`` replaces the
    environment (default :func:`bot_environment`). ``runs`` counts the processes started.
    """

    def __init__(
        self,
        command: Sequence[str],
        workdir: str | os.PathLike[str],
        *,
        env: Mapping[str, str] | None = None,
        max_output: int = MAX_OUTPUT,
    ) -> None:
        if not command:
            raise CroupierError("an executable bot needs a command")
        self.command = [os.fspath(c) for c in command]
        self.workdir = os.fspath(workdir)
        self.env = dict(env) if env is not None else bot_environment(self.workdir)
        self.max_output = max_output
        self.runs = 0

    async def decide(self, observation: Plain) -> Plain:
        """A game table's decision (plain maps): the minimum bet, no insurance or early
        surrender, and the bot's line for each move."""
        seen = Observation.read(dict(observation))
        if seen.phase == "bet":
            return Action("bet", seen.min_bet).to_dict()
        if seen.phase != "play":
            return Action("decline").to_dict()
        return Action.parse(await self.answer(seen.koth_arguments())).to_dict()

    async def answer(self, arguments: Sequence[str]) -> str:
        """Run the bot with ``arguments``; its first line of output, or :class:`BotFault`."""
        self.runs += 1
        try:
            process = await trio.lowlevel.open_process(
                [*self.command, *arguments],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env=self.env,
                start_new_session=True,
            )
        except OSError as exc:
            raise BotFault(f"cannot start: {exc.strerror or exc}") from None
        stdout, stderr = process.stdout, process.stderr
        assert stdout is not None and stderr is not None  # both are pipes
        out = bytearray()
        err = bytearray()
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_read_bounded, stdout, out, self.max_output)
                nursery.start_soon(_read_bounded, stderr, err, self.max_output)
            status = await process.wait()
        except BaseExceptionGroup as group:  # both readers failed, or strict groups
            faults, rest = group.split(BotFault)
            if faults is None or rest is not None:
                raise
            raise _leaf(faults) from None
        finally:
            _kill_group(process)
            with trio.CancelScope(shield=True):
                await process.wait()
                await stdout.aclose()
                await stderr.aclose()
        if status != 0:
            how = f"killed by signal {-status}" if status < 0 else f"exited with status {status}"
            last = err.decode("utf-8", "replace").strip().splitlines()[-1:]
            detail = f" ({_clip(last[0].encode())})" if last else ""
            raise BotFault(f"{how}{detail}")
        try:
            text = out.decode("utf-8")
        except UnicodeDecodeError:
            raise BotFault(f"printed bytes that are not UTF-8: {_clip(out)}") from None
        line = _first_line(text)
        if not line:
            raise BotFault("printed nothing")
        try:
            Action.parse(line)
        except CroupierError:
            raise BotFault(f"printed {_clip(line.encode())!r}: not an action") from None
        return line


def _leaf(group: BaseExceptionGroup[BotFault]) -> BotFault:
    first: BaseException = group
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    assert isinstance(first, BotFault)
    return first


def _kill_group(process: trio.Process) -> None:
    """SIGKILL the bot's process group (it is its session leader), ignoring the gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def seconds_text(seconds: float) -> str:
    """``2`` for 2.0, ``0.3`` for 0.3: how time limits are written in messages."""
    return f"{seconds:g}" if math.isfinite(seconds) else "inf"
