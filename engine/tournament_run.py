"""Playing a tournament: bot entries, one table's hands, the drivers, the log and its replay.

Two drivers share :class:`~croupier.engine.tournament.Tournament`'s bookkeeping:

- :func:`play_tournament` (async) plays in the caller's trio loop, the tables of a round
  concurrently (up to ``concurrency``); any :class:`~croupier.engine.players.Player` can
  fill a seat, e.g. a remote bot whose connection lives in that loop;
- :func:`run_tournament` (sync) plays the tables of a round in a pool of ``workers``
  processes (or in-process with one worker); entries must pickle.

Results do not depend on the driver or the number of workers: a table's play depends only
on its job (seed, seats, chips), and results are booked in job order.

The log is JSON lines: a header (``{"log": "croupier-tournament", ...}``); for each table a
``{"table": job}`` line followed by that table's own log (a ``croupier-table`` header and
its events, as :mod:`croupier.engine.tablelog` writes them); ``{"disqualified": ...}``
lines; and a last ``{"standings": [...]}`` line. :func:`replay_tournament` checks every
seating and table seed against the header's seed, replays every table from its seed and
logged actions, and recomputes the standings.
"""

from __future__ import annotations

import json
import multiprocessing
import tempfile
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from functools import partial
from typing import Any

import attrs
import trio

from croupier.engine.errors import CroupierError
from croupier.engine.executable import BOT_PATH, ExecutablePlayer, bot_environment
from croupier.engine.manager import PluginManager
from croupier.engine.play import Event
from croupier.engine.players import Player, Strategy, StrategyPlayer
from croupier.engine.standings import Standing
from croupier.engine.table import Table
from croupier.engine.tablelog import log_header, read_log, replay
from croupier.engine.tournament import (
    Entry,
    TableJob,
    TableResult,
    Tournament,
    TournamentConfig,
)

LOG_NAME = "croupier-tournament"
LOG_VERSION = 1
ATTEMPTS = 1
"""Answers per decision at a tournament table: an illegal answer is refused once and the
bot gets the default (re-running a program with the same arguments would only repeat it)."""


@attrs.frozen
class StrategyEntry:
    """A built-in (or plugin) strategy, played in-process."""

    name: str
    strategy: Strategy

    def player(self, stack: ExitStack) -> Player:
        return StrategyPlayer(self.strategy)


@attrs.frozen
class ExecutableEntry:
    """An executable bot: ``command`` is the absolute path and any leading arguments.

    At each table it gets a fresh empty working directory (also its ``HOME``), deleted when
    the table is done; ``path`` is the ``PATH`` of its clean environment.
    """

    name: str
    command: tuple[str, ...]
    path: str = BOT_PATH

    def player(self, stack: ExitStack) -> Player:
        workdir = stack.enter_context(tempfile.TemporaryDirectory(prefix="croupier-bot-"))
        return ExecutablePlayer(self.command, workdir, env=bot_environment(workdir, self.path))


@attrs.frozen
class TournamentResult:
    """The standings and the totals of a finished (or replayed) tournament."""

    config: TournamentConfig
    names: tuple[str, ...]
    standings: tuple[Standing, ...]
    rounds: int
    tables: int
    hands: int
    decisions: int
    conserved: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.config.seed,
            "settings": self.config.to_dict(),
            "bots": list(self.names),
            "rounds_played": self.rounds,
            "tables": self.tables,
            "hands": self.hands,
            "decisions": self.decisions,
            "conserved": self.conserved,
            "standings": [s.to_dict() for s in self.standings],
        }

    @classmethod
    def from_dict(cls, data: Any) -> TournamentResult:
        """The result back from :meth:`to_dict`'s data (e.g. a server's ``tournament.info``)."""
        try:
            standings = []
            for s in data["standings"]:
                fields = dict(s)
                fields["scores"] = tuple(fields["scores"])
                standings.append(Standing(**fields))
            return cls(
                TournamentConfig.from_dict(data["settings"]),
                tuple(data["bots"]),
                tuple(standings),
                int(data["rounds_played"]),
                int(data["tables"]),
                int(data["hands"]),
                int(data["decisions"]),
                bool(data["conserved"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CroupierError(f"bad tournament result: {exc}") from None


async def play_table(
    manager: PluginManager,
    config: TournamentConfig,
    job: TableJob,
    players: Sequence[Player],
    *,
    log: bool = False,
) -> TableResult:
    """Play one table's hands; its result (and its log lines when ``log``)."""
    n = len(job.bots)
    hands = [0] * n
    faults = [0] * n
    decisions = 0
    lines: list[dict[str, Any]] = []

    def count(event: Event) -> None:
        nonlocal decisions
        if event.seat is None:
            pass
        elif event.kind == "settle" and event.hand == 0:
            hands[event.seat - 1] += 1
        elif event.kind == "default":
            faults[event.seat - 1] += 1
        elif event.kind == "action":
            decisions += 1
        if log:
            lines.append(event.to_dict())

    table = Table(
        manager,
        config.rules,
        job.seed,
        players,
        chips=job.chips,
        decision_time=config.decision_time,
        attempts=ATTEMPTS,
        listeners=[count],
    )
    header = [log_header(table)] if log else []
    await table.play(config.hands)
    chips = tuple(table.ledger.balances[seat.account] for seat in table.core.seats)
    return TableResult(
        job,
        chips,
        tuple(hands),
        tuple(faults),
        decisions,
        table.ledger.conserved(),
        tuple(header + lines),
    )


async def _play_job(
    manager: PluginManager,
    config: TournamentConfig,
    entries: Sequence[Entry],
    job: TableJob,
    log: bool,
) -> TableResult:
    with ExitStack() as stack:
        players = [entries[bot].player(stack) for bot in job.bots]
        return await play_table(manager, config, job, players, log=log)


async def _play_into(
    results: dict[int, TableResult],
    i: int,
    limiter: trio.CapacityLimiter,
    job: tuple[PluginManager, TournamentConfig, Sequence[Entry], TableJob, bool],
) -> None:
    async with limiter:
        results[i] = await _play_job(*job)


_WORKER_MANAGER: PluginManager | None = None


def _worker_job(
    config: TournamentConfig, entries: Sequence[Entry], job: TableJob, log: bool
) -> TableResult:
    """A pool worker's task: one table, with the installed plugins loaded once per worker."""
    global _WORKER_MANAGER
    if _WORKER_MANAGER is None:
        _WORKER_MANAGER = PluginManager()
    result: TableResult = trio.run(_play_job, _WORKER_MANAGER, config, entries, job, log)
    return result


LogWriter = Callable[[dict[str, Any]], None]
Progress = Callable[[int], None]


def _header(config: TournamentConfig, names: Sequence[str]) -> dict[str, Any]:
    return {
        "log": LOG_NAME,
        "version": LOG_VERSION,
        "seed": config.seed,
        "settings": config.to_dict(),
        "bots": list(names),
    }


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
        for note in notes:
            write({"disqualified": note})
    if progress is not None:
        progress(runs_before)


def _finish(tournament: Tournament, write: LogWriter | None) -> TournamentResult:
    standings = tournament.standings()
    if write is not None:
        write({"standings": [s.to_dict() for s in standings]})
    return TournamentResult(
        tournament.config,
        tuple(tournament.names),
        tuple(standings),
        tournament.round,
        tournament.tables,
        tournament.hands(),
        tournament.decisions,
        tournament.conserved,
    )


def _live_runs(tournament: Tournament) -> int:
    return sum(not run.over for run in tournament.runs)


async def play_tournament(
    manager: PluginManager,
    config: TournamentConfig,
    entries: Sequence[Entry],
    *,
    concurrency: int = 1,
    write: LogWriter | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play the tournament in this trio loop; ``progress(n)`` after each round, with the
    number of runs that played it (``tourneys * rounds`` in all, fewer if runs end early)."""
    tournament = Tournament(config, [e.name for e in entries])
    if write is not None:
        write(_header(config, tournament.names))
    limiter = trio.CapacityLimiter(max(1, concurrency))
    while jobs := tournament.next_jobs():
        results: dict[int, TableResult] = {}
        async with trio.open_nursery() as nursery:
            for i, job in enumerate(jobs):
                nursery.start_soon(
                    _play_into,
                    results,
                    i,
                    limiter,
                    (manager, config, entries, job, write is not None),
                )
        done = [results[i] for i in range(len(jobs))]
        _book(tournament, done, write, progress, len({j.tourney for j in jobs}))
    return _finish(tournament, write)


def run_tournament(
    manager: PluginManager,
    config: TournamentConfig,
    entries: Sequence[Entry],
    *,
    workers: int = 1,
    write: LogWriter | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play the tournament, the tables of each round in ``workers`` processes (1: here)."""
    if workers <= 1:
        result: TournamentResult = trio.run(
            partial(play_tournament, manager, config, entries, write=write, progress=progress)
        )
        return result
    tournament = Tournament(config, [e.name for e in entries])
    if write is not None:
        write(_header(config, tournament.names))
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        while jobs := tournament.next_jobs():
            futures = [
                pool.submit(_worker_job, config, entries, job, write is not None) for job in jobs
            ]
            results = [f.result() for f in futures]
            _book(tournament, results, write, progress, len({j.tourney for j in jobs}))
    return _finish(tournament, write)


def replay_tournament(manager: PluginManager, lines: Iterable[str]) -> TournamentResult:
    """Replay a tournament log: every seating, table seed and table is checked against the
    header's seed; the standings are recomputed (and compared with the logged ones)."""
    items = iter(_json_lines(lines))
    header = next(items, None)
    if not isinstance(header, dict) or header.get("log") != LOG_NAME:
        raise CroupierError("not a croupier tournament log (no header line)")
    if header.get("version") != LOG_VERSION:
        raise CroupierError(f"unsupported tournament log version {header.get('version')!r}")
    config = TournamentConfig.from_dict(header.get("settings"))
    names = header.get("bots")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CroupierError("bad tournament log header: no list of bots")
    tournament = Tournament(config, names)
    blocks: list[tuple[dict[str, Any], list[str]]] = []
    disqualified: list[Any] = []
    logged_standings: Any = None
    for item in items:
        if isinstance(item, dict) and "table" in item:
            blocks.append((item["table"], []))
        elif isinstance(item, dict) and "disqualified" in item:
            disqualified.append(item["disqualified"])
        elif isinstance(item, dict) and "standings" in item:
            logged_standings = item["standings"]
        elif blocks:
            blocks[-1][1].append(json.dumps(item))
        else:
            raise CroupierError("the tournament log has a line outside any table")
    position = 0
    notes: list[dict[str, Any]] = []
    while jobs := tournament.next_jobs():
        results = []
        for job in jobs:
            if position >= len(blocks):
                raise CroupierError(f"the log ends before table {job.to_dict()}")
            logged, table_lines = blocks[position]
            position += 1
            if logged != job.to_dict():
                raise CroupierError(f"the log's table {logged} should be {job.to_dict()}")
            results.append(_replay_table(manager, config, job, table_lines))
        notes += tournament.apply(results)
    if position != len(blocks):
        raise CroupierError(f"the log has {len(blocks) - position} tables too many")
    if notes != disqualified:
        raise CroupierError("the log's disqualifications differ from the replay's")
    result = _finish(tournament, None)
    if logged_standings is not None and logged_standings != [s.to_dict() for s in result.standings]:
        raise CroupierError("the log's standings differ from the replay's")
    return result


def _replay_table(
    manager: PluginManager, config: TournamentConfig, job: TableJob, lines: list[str]
) -> TableResult:
    try:
        core = replay(manager, lines)
        header, events = read_log(lines)
    except CroupierError as exc:
        where = f"tourney {job.tourney} round {job.round} table {job.table}"
        raise CroupierError(f"{where}: {exc}") from None
    if int(header["seed"]) != job.seed or tuple(header["chips"]) != job.chips:
        raise CroupierError(f"the log's table {job.to_dict()} has another seed or chips")
    if header["rules"] != config.rules.to_dict():
        raise CroupierError(f"the log's table {job.to_dict()} has other rules")
    n = len(job.bots)
    hands, faults = [0] * n, [0] * n
    decisions = 0
    for e in events:
        if e.seat is None:
            continue
        if e.kind == "settle" and e.hand == 0:
            hands[e.seat - 1] += 1
        elif e.kind == "default":
            faults[e.seat - 1] += 1
        elif e.kind == "action":
            decisions += 1
    chips = tuple(core.ledger.balances[seat.account] for seat in core.seats)
    return TableResult(job, chips, tuple(hands), tuple(faults), decisions, core.ledger.conserved())


def _json_lines(lines: Iterable[str]) -> Iterable[Any]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise CroupierError(f"line {number} of the log is not JSON: {exc.msg}") from None
