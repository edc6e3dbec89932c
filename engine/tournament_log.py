"""A tournament's log and result: the JSON-lines format, the result, and the log's replay.

Split from :mod:`croupier.engine.tournament_run` (which re-exports :class:`TournamentResult`
and :func:`replay_tournament`) so that what a tournament produces, and how a log is checked,
reads apart from how the tables are played.

The log is JSON lines: a header (``{"log": "croupier-tournament", ...}``); for each table a
``{"table": job}`` line followed by that table's own log (a ``croupier-game-table`` header
and its events, as :mod:`croupier.engine.gamelog` writes them; a table log a game wrote
before it was a game replays through the game's :mod:`~croupier.engine.legacylogs`);
``{"disqualified": ...}``
lines; and a last ``{"standings": [...]}`` line. :func:`replay_tournament` checks every
seating and table seed against the header's seed, replays every table from its seed and
logged actions, and recomputes the standings.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from croupier.engine.errors import CroupierError
from croupier.engine.gamelog import LOG_NAME as GAME_LOG
from croupier.engine.gamelog import GameTally, read_game_log, replay_game
from croupier.engine.ledger import seat_account
from croupier.engine.legacylogs import upgrade_settings
from croupier.engine.manager import PluginManager
from croupier.engine.standings import Standing
from croupier.engine.tournament import (
    TableJob,
    TableResult,
    Tournament,
    TournamentConfig,
)

LOG_NAME = "croupier-tournament"
LOG_VERSION = 1


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
    scores: tuple[dict[str, Any], ...] = ()
    """Each bot's scorecard (:meth:`Scorecard.to_dict`) when the tournament was scored."""

    def to_dict(self) -> dict[str, Any]:
        extra = {"scores": list(self.scores)} if self.scores else {}
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
            **extra,
        }

    @classmethod
    def from_dict(cls, data: Any) -> TournamentResult:
        """The result back from :meth:`to_dict`'s data (e.g. a server's ``tournament.info``).
        A standing's fields this version does not know (a newer server's) are ignored; the
        settings are not: they fix the outcome."""
        known = set(attrs.fields_dict(Standing))
        try:
            standings = []
            for s in data["standings"]:
                fields = {k: v for k, v in dict(s).items() if k in known}
                fields["scores"] = tuple(fields["scores"])
                fields["unseparated"] = tuple(fields.get("unseparated", ()))
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
                tuple(dict(s) for s in data.get("scores", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CroupierError(f"bad tournament result: {exc}") from None


LogWriter = Callable[[dict[str, Any]], None]


def _header(config: TournamentConfig, names: Sequence[str]) -> dict[str, Any]:
    return {
        "log": LOG_NAME,
        "version": LOG_VERSION,
        "seed": config.seed,
        "settings": config.to_dict(),
        "bots": list(names),
    }


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
        tuple(c.to_dict() for c in tournament.cards) if tournament.config.scored else (),
    )


def replay_tournament(manager: PluginManager, lines: Iterable[str]) -> TournamentResult:
    """Replay a tournament log: every seating, table seed and table is checked against the
    header's seed; the standings are recomputed and must equal the log's last line (a log
    without it was cut short)."""
    items = iter(_json_lines(lines))
    header = next(items, None)
    if not isinstance(header, dict) or header.get("log") != LOG_NAME:
        raise CroupierError("not a croupier tournament log (no header line)")
    if header.get("version") != LOG_VERSION:
        raise CroupierError(f"unsupported tournament log version {header.get('version')!r}")
    config = TournamentConfig.from_dict(upgrade_settings(manager, header.get("settings")))
    if header.get("seed") != config.seed or isinstance(header.get("seed"), bool):
        raise CroupierError("bad tournament log header: its seed is not the settings' seed")
    names = header.get("bots")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CroupierError("bad tournament log header: no list of bots")
    tournament = Tournament(config, names)
    blocks: list[tuple[dict[str, Any], list[str]]] = []
    disqualified: list[Any] = []
    logged_standings: Any = None
    for item in items:
        if logged_standings is not None:
            raise CroupierError("the tournament log goes on after its standings line")
        if isinstance(item, dict) and "table" in item:
            blocks.append((item["table"], []))
        elif isinstance(item, dict) and "scored" in item:
            continue  # a scored decision: the oracle's, not the table's (nothing to replay)
        elif isinstance(item, dict) and "disqualified" in item:
            disqualified.append(item["disqualified"])
        elif isinstance(item, dict) and "standings" in item:
            logged_standings = item["standings"]
            if not isinstance(logged_standings, list):
                raise CroupierError("the tournament log's standings line holds no standings")
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
    if logged_standings is None:
        raise CroupierError("the tournament log has no standings line: it was cut short")
    result = _finish(tournament, None)
    # what each bot did must match; its rank, ties and separation are derived from those
    # (a log from before ties were shown ranked them by entry order)
    # (the scorecards, ``skill``, are the oracle's: a replay does not score)
    derived = ("rank", "tied", "unseparated", "skill")
    try:
        facts = sorted(
            ({k: v for k, v in dict(s).items() if k not in derived} for s in logged_standings),
            key=lambda s: int(s["bot"]),
        )
    except (KeyError, TypeError, ValueError):
        raise CroupierError("the tournament log's standings line holds no standings") from None
    current = all(isinstance(s, dict) and "tied" in s for s in logged_standings)
    replayed = [attrs.evolve(s, skill=None).to_dict() for s in result.standings]
    if (current and [_unscored(s) for s in logged_standings] != replayed) or (
        facts != sorted((s.facts() for s in result.standings), key=lambda s: int(s["bot"]))
    ):
        raise CroupierError("the log's standings differ from the replay's")
    return result


def _unscored(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "skill"}


def _replay_table(
    manager: PluginManager, config: TournamentConfig, job: TableJob, lines: list[str]
) -> TableResult:
    game = manager.games.get(config.game)
    if game.legacy is None or (lines and f'"{GAME_LOG}"' in lines[0]):
        return _replay_game_table(manager, config, job, lines)
    try:
        old = game.legacy.table(manager, lines)
    except CroupierError as exc:
        where = f"tourney {job.tourney} round {job.round} table {job.table}"
        raise CroupierError(f"{where}: {exc}") from None
    if old is None:
        return _replay_game_table(manager, config, job, lines)
    if old.seed != job.seed or old.chips != job.chips:
        raise CroupierError(f"the log's table {job.to_dict()} has another seed or chips")
    if old.options != config.options:
        raise CroupierError(f"the log's table {job.to_dict()} has other rules")
    tally = GameTally.of(len(job.bots), game)
    for event in old.events:
        tally.add(event)
    chips = tuple(old.ledger.balances[seat_account(i + 1)] for i in range(len(job.bots)))
    return TableResult(
        job,
        chips,
        tuple(tally.hands),
        tuple(tally.faults),
        tally.decisions,
        old.ledger.conserved(),
    )


def _replay_game_table(
    manager: PluginManager, config: TournamentConfig, job: TableJob, lines: list[str]
) -> TableResult:
    try:
        core = replay_game(manager, lines)
        header, events = read_game_log(lines)
    except CroupierError as exc:
        where = f"tourney {job.tourney} round {job.round} table {job.table}"
        raise CroupierError(f"{where}: {exc}") from None
    if int(header["seed"]) != job.seed or tuple(header["chips"]) != job.chips:
        raise CroupierError(f"the log's table {job.to_dict()} has another seed or chips")
    if header.get("game") != config.game or header.get("options") != config.options:
        raise CroupierError(f"the log's table {job.to_dict()} has another game or options")
    tally = GameTally.of(len(job.bots), manager.games.get(config.game))
    for event in events:
        tally.add(event)
    chips = tuple(core.ledger.balances[seat_account(i + 1)] for i in range(len(job.bots)))
    return TableResult(
        job,
        chips,
        tuple(tally.hands),
        tuple(tally.faults),
        tally.decisions,
        core.ledger.conserved(),
    )


def _json_lines(lines: Iterable[str]) -> Iterable[Any]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise CroupierError(f"line {number} of the log is not JSON: {exc.msg}") from None
