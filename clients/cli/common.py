"""What many subcommands share: seeds, JSON output, the plugin manager, progress bars."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from rich.console import Console, ConsoleRenderable, RenderHook
from rich.measure import Measurement
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from croupier.engine import PluginManager, draw_seed


def add_seed_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        help="seed for every random draw (default: draw one and report it)",
    )


MAX_SEED = 2**64 - 1
"""The largest seed, locally and on a server alike."""


def seed_type(text: str) -> int:
    """A seed: decimal (leading zeros are fine: ``007`` is 7) or ``0x`` hexadecimal, from 0
    to 2**64-1."""
    word = text.strip().replace("_", "")
    try:
        value = int(word, 10) if word.isdigit() else int(word, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to 2**64-1, not {text!r}"
        ) from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to 2**64-1, not {text[:40]!r}")
    return value


def workers_type(text: str) -> int:
    """A number of worker processes: at least 1, and at most 4 per core of this machine
    (more only costs memory: the work is CPU-bound). Commands also never start more than
    they have work for."""
    from croupier.engine.executor import default_workers

    value = positive_int(text)
    cores = default_workers()
    if value > 4 * cores:
        raise argparse.ArgumentTypeError(
            f"at most {4 * cores} workers on this machine ({cores} cores), not {value}"
        )
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def from_zero(what: str) -> Callable[[str], int]:
    """The type of an option counting ``what`` (rounds, workers) from 0."""

    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of {what}, not {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"a number of {what} from 0, not {text}")
        return value

    return count


def resolve_seed(args: argparse.Namespace) -> int:
    """The run's seed: ``--seed`` or a fresh one, which is then reported on stderr."""
    if args.seed is not None:
        return int(args.seed)
    seed = draw_seed()
    report_seed(seed)
    return seed


def report_seed(seed: int) -> None:
    """Say on stderr which seed a run drew, and how to rerun it."""
    print(f"croupier: seed {seed} (rerun with --seed {seed} to reproduce)", file=sys.stderr)


def add_json_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def print_json(data: Any) -> None:
    """``data`` as strict JSON: a float that is not finite (from a third-party solver, say)
    becomes null, since NaN and Infinity are not JSON and strict parsers refuse them."""
    json.dump(_finite(data), sys.stdout, indent=2, sort_keys=False, default=str, allow_nan=False)
    sys.stdout.write("\n")


def _finite(data: Any) -> Any:
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(value) for value in data]
    return data


def load_plugins() -> PluginManager:
    """The plugin manager, its families not yet built (a command's parser asks it for the
    games' options: ``croupier_command_lines``)."""
    return PluginManager()


def get_manager() -> PluginManager:
    """Load the plugins; every skipped third-party plugin is one warning line on stderr."""
    manager = load_plugins()
    manager.load_all()  # every family now, so that every failure is reported here, once
    for failure in manager.failures:
        print(f"croupier: warning: {failure.message}", file=sys.stderr)
    return manager


UNLIMITED_WIDTH = 4096
"""Width of a report printed to a pipe or a file (no terminal, no ``COLUMNS``): as wide as
its tables need, where rich would otherwise squeeze them into 80 columns."""


def stdout_console() -> Console:
    """The console every report prints on: whole, whatever the output.

    In a terminal it is the terminal's width; to a pipe, a file or CI it is unlimited
    (:data:`UNLIMITED_WIDTH`) unless ``COLUMNS`` says otherwise. Every table printed on it
    is kept whole by :class:`WholeTables`: numbers are never cut to ``195…``.
    """
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        console = Console(highlight=False, soft_wrap=True, width=UNLIMITED_WIDTH)
    console.push_render_hook(WholeTables(console))
    console.on_broken_pipe = _reader_gone  # type: ignore[method-assign]
    return console


def _reader_gone() -> None:
    """rich exits with status 1 when stdout's reader goes away; croupier's main handles it
    as a Unix tool does (quietly, status 141)."""
    raise BrokenPipeError


class WholeTables(RenderHook):
    """Makes each table about to be printed whole: a column of right-aligned or centred
    cells (numbers, chart letters) is at least as wide as its widest cell, so it is never
    squeezed; other columns are at least as wide as their longest word, and their text
    wraps between words instead of ending in ``…``.
    When the columns cannot all fit, the table is wider than the window: whole beats
    narrow."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.width = console.width

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        console = self.console
        console.width = self.width  # a table printed before widened it for itself only
        need = self.width
        for renderable in renderables:
            if isinstance(renderable, Table):
                keep_whole(console, renderable)
                wide = console.options.update(max_width=UNLIMITED_WIDTH)
                need = max(need, Measurement.get(console, wide, renderable).minimum)
        console.width = need
        return renderables


def keep_whole(console: Console, table: Table) -> None:
    """Set ``table``'s columns so that no cell is cut (see :class:`WholeTables`); a cell
    is measured as if the window had no edge (a long word is as long in a narrow one)."""
    options = console.options.update(max_width=UNLIMITED_WIDTH)
    for column in table.columns:
        cells = [column.header, *column.cells]
        sizes = [Measurement.get(console, options, c) for c in cells]
        if column.justify in ("right", "center"):
            widest = max(size.maximum for size in sizes)
        else:  # text wraps between words, never inside one
            widest = max(size.minimum for size in sizes)
            column.no_wrap = False
        column.min_width = max(column.min_width or 0, widest)
        column.overflow = "fold"


class ProgressTick(Protocol):
    def __call__(self, advance: int = 1) -> None: ...


@contextmanager
def working(description: str, after: float = 1.0) -> Iterator[None]:
    """A spinner with the elapsed time on stderr for work that has no steps to count (a
    solve), shown once it has taken ``after`` seconds and only when stderr is a terminal:
    a long silence looks like a hang."""
    console = Console(file=sys.stderr)
    if not console.is_terminal:
        yield
        return
    started = time.monotonic()
    status = console.status(description)
    done = threading.Event()

    def show() -> None:
        if done.wait(after):
            return
        status.start()
        while not done.wait(0.25):
            status.update(f"{description} ({time.monotonic() - started:.0f} s)")

    thread = threading.Thread(target=show, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        status.stop()


@contextmanager
def progress(description: str, total: int) -> Iterator[ProgressTick]:
    """A progress bar on stderr when stderr is a terminal; a no-op otherwise."""
    console = Console(file=sys.stderr)
    if not console.is_terminal:
        yield lambda advance=1: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda advance=1: bar.advance(task, advance)
