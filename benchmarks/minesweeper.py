"""Minesweeper benchmark: solve time on expert positions, game time, win rates.

Run: ``.venv/bin/python benchmarks/minesweeper.py [--games 1000] [--seed 20240909]``.

1. Solve time: every position the auto-player analyses in expert games (30x16, 99 mines,
   opening first click) is timed with ``analyze``; the floor is reading the board into its
   constraints, which any solver must do, measured on the same positions (the ratio says
   how far above that floor the exact solve is).
2. Whole-game time on expert, including every look-ahead of the guesses.
3. Win rates over ``--games`` games per configuration (seed fixed, game i uses stream child
   ``game-i``), on two worker processes, with the Wilson 95% interval, against the win rates
   the strongest public solvers are quoted at under the same rules.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from croupier.engine import Stream
from croupier.engine.confidence import wilson_interval
from croupier.plugins.minesweeper import analysis as analysis_module
from croupier.plugins.minesweeper.analysis import analyze
from croupier.plugins.minesweeper.autoplay import play_game
from croupier.plugins.minesweeper.board import FLAG, Board
from croupier.plugins.minesweeper.game import Game, GameSpec
from croupier.plugins.minesweeper.guess import best_guess

CONFIGS = [
    ("beginner 9x9/10, opening at (3,3)", GameSpec(9, 9, 10, "opening"), 0.97),
    ("intermediate 16x16/40, opening at (3,3)", GameSpec(16, 16, 40, "opening"), 0.89),
    ("expert 30x16/99, opening at (3,3)", GameSpec(30, 16, 99, "opening"), 0.56),
    ("expert 30x16/99, safe corner", GameSpec(30, 16, 99, "safe"), 0.41),
]
EXPERT = CONFIGS[2][1]


def positions(seed: int, games: int) -> list[Board]:
    """Every position the auto-player analyses in ``games`` expert games."""
    out = []
    for i in range(games):
        game = Game(EXPERT, Stream(seed).child(f"game-{i}"))
        game.reveal(EXPERT.start())
        flags: set[int] = set()
        while not game.over:
            view = list(game.view)
            for j in flags:
                view[j] = FLAG
            board = Board(EXPERT.width, EXPERT.height, tuple(view))
            out.append(board)
            result = analyze(board, EXPERT.mines)
            flags |= result.mines
            if result.safes:
                for j in sorted(result.safes):
                    game.reveal(j)
                continue
            guess = best_guess(result)
            if guess is None:
                break
            game.reveal(guess)
    return out


def timed_game(job: tuple[GameSpec, int, int]) -> tuple[bool, int, float]:
    spec, seed, i = job
    start = time.perf_counter()
    result = play_game(spec, Stream(seed).child(f"game-{i}"))
    return result.won, result.guesses, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20240909)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.workers = 4, 1

    boards = positions(args.seed, 50)
    solve_times, floor_times = [], []
    for board in boards:
        analysis_module._remembered.cache_clear()  # a fresh solve, nothing remembered
        start = time.perf_counter()
        analyze(board, EXPERT.mines)
        solve_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        analysis_module._constraints(board)
        floor_times.append(time.perf_counter() - start)
    mean, worst = statistics.fmean(solve_times), max(solve_times)
    floor = statistics.fmean(floor_times)
    print(f"expert solve, {len(boards)} positions from 50 games (seed {args.seed}):")
    print(f"  mean {1000 * mean:.2f} ms, worst {1000 * worst:.1f} ms per solve (target: mean < 50)")
    print(
        f"  reading the board into constraints: {1000 * floor:.2f} ms; solve / read = "
        f"{mean / floor:.1f}x"
    )

    with ProcessPoolExecutor(args.workers) as pool:
        for label, spec, reference in CONFIGS:
            start = time.perf_counter()
            jobs = [(spec, args.seed, i) for i in range(args.games)]
            results = list(pool.map(timed_game, jobs, chunksize=8))
            wall = time.perf_counter() - start
            wins = sum(won for won, _, _ in results)
            lo, hi = wilson_interval(wins, args.games)
            times = [t for _, _, t in results]
            guesses = statistics.fmean(g for _, g, _ in results)
            print(
                f"{label}: won {wins}/{args.games} = {100 * wins / args.games:.1f}% "
                f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), reference {100 * reference:.0f}%, "
                f"ratio {wins / args.games / reference:.3f}; guesses/game {guesses:.2f}; "
                f"game mean {1000 * statistics.fmean(times):.0f} ms, worst "
                f"{1000 * max(times):.0f} ms; wall {wall:.0f} s on {args.workers} workers"
            )


if __name__ == "__main__":
    main()
