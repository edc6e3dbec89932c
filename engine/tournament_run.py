"""Playing a tournament: bot entries, one table's hands and the two drivers.

Two drivers share :class:`~croupier.engine.tournament.Tournament`'s bookkeeping:

- :func:`play_tournament` (async) plays in the caller's trio loop, the tables of a round
  concurrently (up to ``concurrency``); any :class:`~croupier.engine.gametable.GamePlayer` can
  fill a seat, e.g. a remote bot whose connection lives in that loop;
- :func:`run_tournament` (sync) plays the tables of a round in a pool of ``workers``
  processes (or in-process with one worker); entries must pickle.

Results do not depend on the driver or the number of workers: a table's play depends only
on its job (seed, seats, chips), and results are booked in job order. The log's format, the
:class:`TournamentResult` and :func:`replay_tournament` live in
:mod:`croupier.engine.tournament_log` and are re-exported here.
"""

from __future__ import annotations

import pickle
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from functools import partial
from typing import Any

import attrs
import trio

from croupier.engine.errors import CroupierError
from croupier.engine.executor import Executor
from croupier.engine.gamelog import game_log_header
from croupier.engine.games import GameStrategy
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.engine.manager import PluginManager
from croupier.engine.oracle import Question, Valuation
from croupier.engine.scoring import oracle_for
from croupier.engine.tournament import (
    Entry,
    TableJob,
    TableResult,
    Tournament,
    TournamentConfig,
)
from croupier.engine.tournament_log import (
    LOG_NAME as LOG_NAME,
)
from croupier.engine.tournament_log import (
    LOG_VERSION as LOG_VERSION,
)
from croupier.engine.tournament_log import (
    LogWriter,
    _finish,
    _header,
)
from croupier.engine.tournament_log import (
    TournamentResult as TournamentResult,
)
from croupier.engine.tournament_log import (
    replay_tournament as replay_tournament,
)

Settle = Callable[[list[Question]], Awaitable[list[Valuation]]]
"""Answers a scored table's questions, in order, elsewhere: a server's scoring worker
processes (without one, :func:`play_table` answers them in a thread)."""

ATTEMPTS = 1
"""Answers per decision at a tournament table: an illegal answer is refused once and the
bot gets the default (re-running a program with the same arguments would only repeat it)."""


async def play_table(
    manager: PluginManager,
    config: TournamentConfig,
    job: TableJob,
    players: Sequence[GamePlayer],
    *,
    log: bool = False,
    settle: Settle | None = None,
) -> TableResult:
    """Play one table's hands; its result (and its log lines when ``log``), counted by the
    game's table; a scored table's answers from ``settle`` (None: a thread of this
    process)."""
    lines: list[dict[str, Any]] = []
    oracle = oracle_for(manager, config.game).new(config.options) if config.scored else None
    table = GameTable(
        manager.games.get(config.game),
        config.options,
        job.seed,
        players,
        chips=job.chips,
        decision_time=config.decision_time,
        attempts=ATTEMPTS,
        listeners=[lines.append] if log else [],
        oracle=oracle,
        defer_scoring=True,  # the oracle's answers wait until the table has played
    )
    if table.scorer is not None:  # its decisions say where they were taken
        table.scorer.table = (job.tourney, job.round, job.table)
        table.scorer.bets = config.score_bets
    header = [game_log_header(table)] if log else []
    await table.play(config.hands)
    chips = tuple(table.ledger.balances[seat_account(i + 1)] for i in range(len(players)))
    tally = table.tally
    scores: tuple[dict[str, Any], ...] = ()
    scored: list[dict[str, Any]] = []
    if table.scorer is not None:
        if settle is None:  # in a thread: a server's loop (and other tables) go on meanwhile
            await trio.to_thread.run_sync(table.scorer.settle)
        else:
            table.scorer.settle(await settle(table.scorer.pending()))
        scores = tuple(table.scorer.card(i + 1).save() for i in range(len(players)))
        if log:
            scored = [{"scored": d.to_dict()} for d in table.scorer.decisions()]
    return TableResult(
        job,
        chips,
        tuple(tally.hands),
        tuple(tally.faults),
        tally.decisions,
        table.ledger.conserved(),
        tuple(header + lines),
        scores,
        tuple(scored),
    )


@attrs.frozen
class GameStrategyEntry:
    """A game's built-in strategy (made ready for the tournament's options), played
    in-process.

    It pickles by value when it can (a strategy made ready for the options, such as
    blackjack's basic strategy with its chart, travels whole), else as its game's and
    strategy's names, found again among a worker's plugins: a plugin's strategy may be a
    closure, which does not pickle (and then needs no options).
    """

    name: str
    game: str
    strategy: GameStrategy

    def player(self, stack: ExitStack) -> GamePlayer:
        return GameStrategyPlayer(self.strategy)

    def __reduce__(self) -> tuple[Any, ...]:
        try:
            pickle.dumps(self.strategy)
        except (pickle.PicklingError, AttributeError, TypeError):
            return (_game_strategy_entry, (self.name, self.game, self.strategy.name))
        return (GameStrategyEntry, (self.name, self.game, self.strategy))


def _game_strategy_entry(name: str, game: str, strategy: str) -> GameStrategyEntry:
    found = {s.name: s for s in _worker_manager().games.get(game).strategies}
    return GameStrategyEntry(name, game, found[strategy])


async def _play_job(
    manager: PluginManager,
    config: TournamentConfig,
    entries: Sequence[Entry],
    job: TableJob,
    log: bool,
    settle: Settle | None = None,
) -> TableResult:
    with ExitStack() as stack:
        players = [entries[bot].player(stack) for bot in job.bots]
        return await play_table(manager, config, job, players, log=log, settle=settle)


OnTable = Callable[[TableResult], None]
Gate = Callable[[], Awaitable[None]]
"""Awaited before each table is dealt: a server holds its tables there while it cannot
record them (its journal failing)."""


async def _play_some(
    order: Iterator[int],
    results: list[TableResult | None],
    work: tuple[
        PluginManager,
        TournamentConfig,
        Sequence[Entry],
        list[TableJob],
        bool,
        Callable[[], bool],
        OnTable | None,
        Gate | None,
        Settle | None,
    ],
) -> None:
    """Play the tables ``order`` hands out until there are none left (or it is stopping)."""
    manager, config, entries, jobs, log, stopping, on_table, gate, settle = work
    for i in order:
        if gate is not None:
            await gate()
        if stopping():
            return
        results[i] = result = await _play_job(manager, config, entries, jobs[i], log, settle)
        if on_table is not None:
            on_table(result)


_WORKER_MANAGER: PluginManager | None = None


def _worker_job(
    config: TournamentConfig, entries: Sequence[Entry], job: TableJob, log: bool
) -> TableResult:
    """A pool worker's task: one table, with the installed plugins loaded once per worker."""
    result: TableResult = trio.run(_play_job, _worker_manager(), config, entries, job, log)
    return result


def _worker_manager() -> PluginManager:
    """The installed plugins, loaded once per worker process."""
    global _WORKER_MANAGER
    if _WORKER_MANAGER is None:
        _WORKER_MANAGER = PluginManager()
    return _WORKER_MANAGER


Progress = Callable[[int], None]
SLICE = 500
"""Tables built or booked between two checkpoints of :func:`play_tournament`."""


def _book(
    tournament: Tournament,
    results: Sequence[TableResult],
    write: LogWriter | None,
    progress: Progress | None,
    runs_before: int,
) -> None:
    notes = tournament.apply(results)
    if write is not None:
        for result in results:
            write({"table": result.job.to_dict()})
            for line in result.log:
                write(line)
            for line in result.scored:
                write(line)
        for note in notes:
            write({"disqualified": note})
    if progress is not None:
        progress(runs_before)


async def play_tournament(
    manager: PluginManager,
    config: TournamentConfig,
    entries: Sequence[Entry],
    *,
    concurrency: int = 1,
    write: LogWriter | None = None,
    progress: Progress | None = None,
    stopping: Callable[[], bool] = lambda: False,
    started: Callable[[Tournament, Sequence[TableJob]], None] | None = None,
    known: Mapping[tuple[int, int, int], TableResult] | None = None,
    on_table: OnTable | None = None,
    gate: Gate | None = None,
    settle: Settle | None = None,
) -> TournamentResult:
    """Play the tournament in this trio loop; ``progress(n)`` after each round, with the
    number of tourneys that played it (``tourneys * rounds`` in all, fewer if runs end
    early; a duplicate tourney's rotations count once);
    ``started(tournament, jobs)`` as each round's tables start (for a live view).
    Once ``stopping()`` is true no new table starts: the tables being played finish, are
    booked, and the result holds the standings so far.

    ``on_table(result)`` as each table is played (a server records it), ``gate()`` awaited
    before each (a server pauses there while it cannot record them); ``settle`` answers a
    scored table's questions (see :func:`play_table`); ``known`` holds
    results already played, by ``(tourney, round, table)``: those tables are booked as they
    are, not played again (a tournament resumed after a crash). A known result whose job
    differs from the table's is a :class:`CroupierError`: it belongs to another tournament.

    A round's tables are played by at most ``concurrency`` tasks pulling them in turn, and
    building and booking them yields to the loop every :data:`SLICE` tables: a tournament
    of ten thousand tourneys neither freezes a server nor takes long to cancel.
    """
    if config.scored:
        oracle_for(manager, config.game)  # no oracle: one line, before any table plays
    tournament = Tournament(config, [e.name for e in entries])
    if write is not None:
        write(_header(config, tournament.names))
    log = write is not None
    while not stopping() and tournament.begin_round():
        jobs: list[TableJob] = []
        since = 0
        for t in range(1, len(tournament.runs) + 1):
            jobs.extend(tournament.tourney_jobs(t))
            if len(jobs) - since >= SLICE:
                since = len(jobs)
                await trio.sleep(0)
        runs_before = tournament.tourneys_of(jobs)
        if started is not None:
            started(tournament, jobs)
        results: list[TableResult | None] = [None] * len(jobs)
        if known:
            for i, job in enumerate(jobs):
                found = known.get((job.tourney, job.round, job.table))
                if found is not None:
                    if found.job != job:
                        raise CroupierError(f"a known result does not match {job.to_dict()}")
                    results[i] = found
        todo = [i for i, result in enumerate(results) if result is None]
        order = iter(todo)  # the tasks share it: each table is played once
        work = (manager, config, entries, jobs, log, stopping, on_table, gate, settle)
        async with trio.open_nursery() as nursery:
            for _ in range(min(max(1, concurrency), len(todo))):
                nursery.start_soon(_play_some, order, results, work)
        done = [r for r in results if r is not None]
        if write is not None:  # the log books a round at once, as the local runner does
            _book(tournament, done, write, progress, runs_before)
            continue
        for start in range(0, len(done), SLICE):
            tournament.apply(done[start : start + SLICE])
            await trio.sleep(0)
        if progress is not None:
            progress(runs_before)
    return _finish(tournament, write)


def run_tournament(
    manager: PluginManager,
    config: TournamentConfig,
    entries: Sequence[Entry],
    *,
    executor: Executor | None = None,
    write: LogWriter | None = None,
    progress: Progress | None = None,
    stopping: Callable[[], bool] = lambda: False,
) -> TournamentResult:
    """Play the tournament, the tables of each round on ``executor`` (default: here; the
    same standings wherever the tables are played).

    Stopped early, the result (and the log) holds the standings so far: here, once
    ``stopping()`` is true no new table starts (see :func:`play_tournament`); on worker
    processes, ``KeyboardInterrupt`` ends the run at once with the tables finished (the
    first tables of the round being played, in order)."""
    if executor is None or executor.pool is None:
        result: TournamentResult = trio.run(
            partial(
                play_tournament,
                manager,
                config,
                entries,
                write=write,
                progress=progress,
                stopping=stopping,
            )
        )
        return result
    if config.scored:
        oracle_for(manager, config.game)
    tournament = Tournament(config, [e.name for e in entries])
    if write is not None:
        write(_header(config, tournament.names))
    while not stopping() and (jobs := tournament.next_jobs()):
        tasks = ((config, entries, job, write is not None) for job in jobs)
        results: list[TableResult] = []
        try:
            for _, table in executor.map(_worker_job, tasks, ordered=True):
                results.append(table)
        except KeyboardInterrupt:  # book the tables played, as play_tournament does
            _book(tournament, results, write, progress, tournament.tourneys_of(jobs))
            break
        _book(tournament, results, write, progress, tournament.tourneys_of(jobs))
    return _finish(tournament, write)
