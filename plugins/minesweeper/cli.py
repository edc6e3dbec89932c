"""``croupier solve minesweeper``: analyse one position, or auto-play many games (the
game's command-line front end, ``croupier_command_lines``).

Everything goes through the ``minesweeper`` solver plugin by name, so this front end works
with the plain-data problems any client could send over the wire.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import Any

import attrs

from croupier.engine import (
    CommandKit,
    CommandLine,
    CroupierError,
    Executor,
    PluginManager,
    Solver,
    default_workers,
    draw_seed,
    wilson_interval,
)

NAME = "minesweeper"
MAX_READ = 1_000_000
"""Characters read from a board file or stdin at most."""


HELP = "Minesweeper: certain cells, exact mine probabilities, best guess; auto-play"


def solve_parser(parser: argparse.ArgumentParser, kit: CommandKit) -> None:
    """``croupier solve minesweeper``'s options."""
    parser.description = (
        "Analyse a Minesweeper position (? covered, 0-8 or . revealed, X or * flagged; "
        "one line per row), or with --play auto-play many seeded games and report the "
        "win rate. See docs/minesweeper.md."
    )
    parser.add_argument("board", nargs="?", help="board file, or '-' to read stdin")
    parser.add_argument(
        "--mines", type=int, default=None, help="total mines, flagged ones included"
    )
    parser.add_argument("--play", action="store_true", help="auto-play games instead")
    parser.add_argument("--size", default="30x16", help="WIDTHxHEIGHT for --play (30x16)")
    parser.add_argument("--games", type=kit.positive_int, default=100, help="games to play (100)")
    parser.add_argument(
        "--first-click",
        choices=("safe", "opening"),
        default="opening",
        help="safe: corner (0,0) is safe; opening: (3,3) and its neighbours are safe",
    )
    kit.add_executor_arguments(parser, "for --play; default: every core")
    kit.add_seed_argument(parser)
    kit.add_json_argument(parser)
    parser.set_defaults(func=lambda args: run(args, kit))


def run(args: argparse.Namespace, kit: CommandKit) -> int:
    if args.play:
        if args.board is not None:
            raise CroupierError("give either a board or --play, not both")
        return play(args, kit)
    if args.board is None:
        raise CroupierError("give a board file (or '-' for stdin), or --play")
    if args.board == "-":
        text = sys.stdin.read(MAX_READ + 1)
    else:
        try:
            with open(args.board, encoding="utf-8") as handle:
                text = handle.read(MAX_READ + 1)
        except (OSError, UnicodeDecodeError) as exc:
            raise CroupierError(f"cannot read {args.board}: {exc}") from None
    if len(text) > MAX_READ:  # the solver refuses far less; this bounds what is held here
        where = "stdin" if args.board == "-" else args.board
        raise CroupierError(f"{where} holds more than {MAX_READ:,} characters: not a board")
    problem: dict[str, Any] = {"board": text}
    if args.mines is not None:
        problem["mines"] = args.mines
    solution = kit.manager().solvers.get(NAME).solve(problem)
    if args.json:
        kit.print_json(solution)
    else:
        print(render(solution))
    return 0


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"({r}, {c})" for r, c in cells) or "none"


def render(solution: dict[str, Any]) -> str:
    """The classic solver's text view: before, mine sets, certain cells, after; then odds."""
    mines = solution["mines"]
    size = f"{solution['width']}x{solution['height']}"
    total = f", {mines} mines" if mines is not None else ""
    lines = [f"Board ({size}{total}):", solution["board"], ""]
    comps = solution["components"]
    lines.append(
        f"Possible mine location sets: {len(comps)} group(s) of frontier cells, "
        f"{solution['placements']} placement(s) in all"
    )
    for n, comp in enumerate(comps, start=1):
        lines.append(
            f"  group {n}: {len(comp['cells'])} cells, {comp['arrangements']} arrangement(s)"
        )
        lines.extend(f"    {{{_cells(s)}}}" for s in comp["sets"])
    lines += [
        f"Definite mines: {_cells(solution['certain_mines'])}",
        f"Definite safe cells: {_cells(solution['certain_safes'])}",
        "",
        "Board after (X certain mine, n certain safe):",
        solution["board_after"],
        "",
        "Mine probability per covered cell (%; . revealed, X flagged):",
    ]
    for row, board_row in zip(
        solution["probabilities"], solution["board"].splitlines(), strict=True
    ):
        out = []
        for p, char in zip(row, board_row, strict=True):
            if char != "?":
                out.append(f"{'X' if char in 'Xx*' else '.':>4}")
            elif p is None:
                out.append("   ?")
            else:
                out.append(f"{_percent(p):>4}")
        lines.append("".join(out))
    guess = solution["best_guess"]
    if solution["certain_safes"]:
        lines.append("Best move: click a definite safe cell.")
    elif guess is not None:
        odds = (
            "unknown"
            if guess["probability"] is None
            else f"{100 * guess['probability']:.2f}% ({guess['exact']})"
        )
        lines.append(f"Best guess: ({guess['row']}, {guess['col']}), mine probability {odds}")
    return "\n".join(lines)


# -- auto-play ------------------------------------------------------------------------------
_solver: Solver | None = None

BATCH = 8
"""Games per task handed to a worker process."""


def _init_worker(manager: PluginManager | None = None) -> None:
    """The solver, once per process (a worker loads the plugins itself)."""
    global _solver
    if _solver is None:
        _solver = (manager or PluginManager()).solvers.get(NAME)


def _play_batch(problems: list[dict[str, Any]]) -> list[tuple[dict[str, Any], float]]:
    """Play the games of a batch, in a worker process, on a cluster or here."""
    _init_worker()
    assert _solver is not None
    played = []
    for problem in problems:
        start = time.perf_counter()
        result = _solver.solve(problem)
        played.append((result, time.perf_counter() - start))
    return played


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise CroupierError(f"--size is WIDTHxHEIGHT such as 30x16, not {text!r}") from None
    return width, height


def _batches(options: dict[str, Any], first: int, games: int) -> Iterator[list[dict[str, Any]]]:
    for low in range(first, games, BATCH):
        yield [{"play": {**options, "game": i}} for i in range(low, min(low + BATCH, games))]


def _played(
    options: dict[str, Any], first: int, games: int, executor: Executor
) -> Iterator[tuple[dict[str, Any], float]]:
    """Games ``first..games-1``: each one's result and time, in game order. At most a few
    batches per worker are in flight, so memory stays flat however many games are asked."""
    batches = ((batch,) for batch in _batches(options, first, games))
    for _, played in executor.map(_play_batch, batches, ordered=True):
        yield from played


@attrs.define
class Tally:
    """Running totals of auto-played games: what the summary needs, one game at a time."""

    games: int = 0
    wins: int = 0
    guesses: int = 0
    seconds: float = 0.0
    worst: float = 0.0

    def add(self, result: dict[str, Any], seconds: float) -> None:
        self.games += 1
        self.wins += bool(result["won"])
        self.guesses += result["guesses"]
        self.seconds += seconds
        self.worst = max(self.worst, seconds)

    def summary(self, options: dict[str, Any], wall: float) -> dict[str, Any]:
        """Win rate with its Wilson 95% interval, guesses and time per game."""
        return {
            **options,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games,
            "win_rate_ci95": list(wilson_interval(self.wins, self.games)),
            "guesses_per_game": self.guesses / self.games,
            "seconds_per_game": self.seconds / self.games,
            "worst_seconds": self.worst,
            "wall_seconds": wall,
        }


def play(args: argparse.Namespace, kit: CommandKit) -> int:
    width, height = _size(args.size)
    options = {
        "width": width,
        "height": height,
        "mines": 99 if args.mines is None else args.mines,
        "first_click": args.first_click,
    }
    seed = draw_seed() if args.seed is None else int(args.seed)
    options["seed"] = seed
    _init_worker(kit.manager())
    batches = -(-(args.games - 1) // BATCH)
    workers = max(1, min(args.workers or default_workers(), batches))  # no idle workers
    with kit.executor(args, workers) as executor:  # a cluster answers before anything runs
        tally = Tally()
        start = time.perf_counter()
        # game 0 here first: bad options fail in it, in one line, before a drawn seed is shown
        ((result, seconds),) = _play_batch([{"play": {**options, "game": 0}}])
        if args.seed is None:
            kit.report_seed(seed)
        partial = False
        with kit.progress("playing", args.games) as tick:
            tally.add(result, seconds)
            tick()
            try:
                for result, seconds in _played(options, 1, args.games, executor):
                    tally.add(result, seconds)
                    tick()
            except KeyboardInterrupt:  # Ctrl-C: the games played so far, in game order
                partial = True
    summary = tally.summary(options, time.perf_counter() - start)
    summary["ran_on"] = executor.where
    summary["partial"] = partial
    status = 130 if partial else 0
    if args.json:
        kit.print_json(summary)
    else:
        if partial:
            print(
                f"partial: stopped after {tally.games} of {args.games} games, the same as "
                f"--seed {seed} --games {tally.games} (rerun with --seed {seed} for all)"
            )
        lo, hi = summary["win_rate_ci95"]
        print(
            f"{width}x{height}, {options['mines']} mines, first click {args.first_click}, "
            f"seed {seed}: won {summary['wins']} of {summary['games']} games = "
            f"{100 * summary['win_rate']:.2f}% (95% CI {100 * lo:.2f}-{100 * hi:.2f}%)\n"
            f"guesses per game {summary['guesses_per_game']:.2f}, "
            f"time per game {1000 * summary['seconds_per_game']:.1f} ms "
            f"(worst {1000 * summary['worst_seconds']:.0f} ms), "
            f"wall {summary['wall_seconds']:.1f} s on {executor.where}"
        )
    return status


def _percent(p: float) -> str:
    """A probability as a whole percentage that never rounds a chance to 0 or 100."""
    if p <= 0.0 or p >= 1.0:
        return str(round(100 * p))
    value = round(100 * p)
    if value == 0:
        return "<1"
    if value == 100:
        return ">99"
    return str(value)


COMMAND_LINE = CommandLine(NAME, "croupier solve minesweeper", solve=solve_parser, solve_help=HELP)
