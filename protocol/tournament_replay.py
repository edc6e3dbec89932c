"""A finished tournament's table, replayed round by round from its seed and recorded answers.

The journal keeps each tournament table's job (seed, entries, chips), its result and the
answers of its ``tcp`` seats (:mod:`croupier.protocol.seat_answers`); its strategies answer
the same observation the same way. So the table is dealt again exactly as it was: the same
events, refusals and defaults included, and the same result, which the replay checks. Only a
finished tournament's tables replay (a duplicate tourney deals the same cards to other
tables later, and a live tournament's cards are nobody's to see).

:func:`read_table` runs in the journal's thread; :func:`replay` plays the table in the
server's loop (a round, then the other tasks), with the tournament's strategies made ready
as its own were (:mod:`croupier.protocol.prepare`). The history methods
(``history.tournament_table``, ``history.tournament_events``) serve them.
"""

from __future__ import annotations

import json
import sqlite3
from collections import OrderedDict
from typing import Any

import attrs

from croupier.engine import CroupierError
from croupier.engine.games import Plain
from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
from croupier.engine.ledger import seat_account
from croupier.engine.tournament import TableJob
from croupier.engine.tournament_config import TournamentConfig
from croupier.engine.tournament_run import ATTEMPTS
from croupier.protocol.journal.queries import Missing
from croupier.protocol.prepare import prepare_strategies
from croupier.protocol.seat_answers import Outcome, ReplayClock, ReplayPlayer, unpack
from croupier.protocol.transport.server import Connection, RpcServer

TCP = "tcp"
KEPT = 4
"""Replays a server keeps (their events), so that paging through one replays it once."""


@attrs.frozen
class StoredTable:
    """A tournament table as the journal keeps it, ready to replay."""

    tournament: int
    config: TournamentConfig
    rule_set: str | None
    bots: list[str]
    """The tournament's entrants: a strategy name or ``tcp`` each."""
    names: list[str]
    """The entries' names in the standings."""
    job: TableJob
    result: dict[str, Any]
    answers: dict[int, list[Outcome]]
    """Each ``tcp`` seat's outcomes, by seat at the table."""

    @property
    def key(self) -> tuple[int, int, int, int]:
        return (self.tournament, self.job.tourney, self.job.round, self.job.table)

    def record(self) -> dict[str, Any]:
        """The table as ``history.table`` has a server table (the replay page's record)."""
        seats = []
        for seat, entry in enumerate(self.job.bots, start=1):
            kind = "bot" if self.bots[entry] == TCP else "strategy"
            name = self.names[entry] if entry < len(self.names) else self.bots[entry]
            seats.append({"seat": seat, "kind": kind, "player": name, "entry": entry + 1})
        job = self.job
        return {
            "tournament": self.tournament,
            "table": [job.tourney, job.round, job.table],
            "game": self.config.game,
            "rule_set": self.rule_set,
            "rules": dict(self.config.options),
            "seed": job.seed,
            "state": "finished",
            "reason": "played",
            "played": max(self.result.get("hands") or [0]),
            "seats": seats,
            "chips": list(job.chips),
            "result": {"chips": list(self.result["chips"])},
            "answers": sum(len(o) for o in self.answers.values()),
        }


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def read_table(
    conn: sqlite3.Connection, tournament: int, tourney: int, round_: int, table: int
) -> StoredTable:
    """The journal's table ``(tourney, round_, table)`` of ``tournament``: :class:`Missing`
    for a tournament or table it does not hold, :class:`CroupierError` for one that cannot
    replay (the tournament still running, answers never recorded)."""
    where = f"tourney {tourney} round {round_} table {table}"
    ints = range(-(2**63), 2**63)  # SQLite's: nothing is kept beyond them
    row = None
    if tournament in ints:
        row = conn.execute(
            "SELECT state, rule_set, seed, settings, bots, entries FROM tournaments WHERE id = ?",
            (tournament,),
        ).fetchone()
    if row is None:
        raise Missing(f"the journal has no tournament {tournament}")
    state, rule_set, seed, settings, bots, entries = row
    if state != "finished":
        raise CroupierError(
            f"tournament {tournament} is {state}: its tables replay once it finishes"
        )
    found = None
    if all(n in ints for n in (tourney, round_, table)):
        found = conn.execute(
            "SELECT job, result, answers FROM tournament_tables WHERE tournament_id = ?"
            " AND tourney = ? AND round = ? AND table_no = ?",
            (tournament, tourney, round_, table),
        ).fetchone()
    if found is None:
        raise Missing(f"tournament {tournament} has no {where}: it was never played")
    job_data, result, answers = found
    try:
        data = dict(_json(settings))
        data.pop("join_time", None)
        data["seed"] = int(seed)
        config = TournamentConfig.from_dict(data)
        job = dict(_json(job_data))
        job["bots"], job["chips"] = tuple(job["bots"]), tuple(job["chips"])
        stored = StoredTable(
            tournament,
            config,
            rule_set,
            list(_json(bots)),
            [str(e["name"]) for e in _json(entries) or []],
            TableJob(**job),
            dict(_json(result)),
            {},
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CroupierError(f"tournament {tournament}'s {where} cannot be read: {exc}") from None
    remote = [s for s, e in enumerate(stored.job.bots, 1) if stored.bots[e] == TCP]
    if remote and answers is None:
        raise CroupierError(
            f"tournament {tournament}'s {where} cannot replay: its tcp seats' answers were "
            "not recorded (a journal from before croupier kept them)"
        )
    outcomes = unpack(answers) if answers is not None else {}
    if any(s not in remote for s in outcomes):
        raise CroupierError(f"tournament {tournament}'s {where} has answers of no tcp seat")
    return attrs.evolve(stored, answers={s: outcomes.get(s, []) for s in remote})


@attrs.frozen
class Replayed:
    """A replayed table: its events, and what each ``tcp`` seat was shown (by seat)."""

    events: list[dict[str, Any]]
    observations: dict[int, list[Plain]]


async def replay(who: Connection | RpcServer, stored: StoredTable) -> Replayed:
    """Deal ``stored`` again with its strategies (made ready for ``who``: a connection, or
    the server itself) and recorded answers; a :class:`CroupierError` when it does not come
    out as the journal says it did."""
    server = who if isinstance(who, RpcServer) else who.server
    game = server.manager.games.get(stored.config.game)
    names = sorted({stored.bots[e] for e in stored.job.bots if stored.bots[e] != TCP})
    strategies = await prepare_strategies(who, game, names, stored.config.options)
    remote: dict[int, ReplayPlayer] = {}
    players: list[GamePlayer] = []
    for seat, entry in enumerate(stored.job.bots, start=1):
        bot = stored.bots[entry]
        if bot == TCP:
            remote[seat] = ReplayPlayer(seat, stored.answers[seat])
            players.append(remote[seat])
        else:
            players.append(GameStrategyPlayer(strategies[bot]))
    events: list[dict[str, Any]] = []
    config = stored.config
    table = GameTable(
        game,
        config.options,
        stored.job.seed,
        players,
        chips=stored.job.chips,
        decision_time=config.decision_time,
        attempts=ATTEMPTS,
        listeners=[events.append],
    )
    table.clock = ReplayClock(config.decision_time)
    await table.play(config.hands)
    for player in remote.values():
        player.finished()
    chips = [table.ledger.balances[seat_account(i + 1)] for i in range(len(players))]
    if chips != list(stored.result["chips"]) or list(table.tally.hands) != list(
        stored.result["hands"]
    ):
        raise CroupierError(
            f"tournament {stored.tournament}'s table replays to chips {chips}, not the "
            f"{stored.result['chips']} it ended with"
        )
    return Replayed(events, {seat: p.observations for seat, p in remote.items()})


async def replayed_events(conn: Connection, stored: StoredTable) -> list[dict[str, Any]]:
    """The events of ``stored``'s replay, kept for the next pages (:data:`KEPT` tables)."""
    kept: OrderedDict[tuple[int, ...], list[dict[str, Any]]] = conn.server.state.setdefault(
        "tournament-replays", OrderedDict()
    )
    events = kept.get(stored.key)
    if events is None:
        events = (await replay(conn, stored)).events
        kept[stored.key] = events
        while len(kept) > KEPT:
            kept.popitem(last=False)
    kept.move_to_end(stored.key)
    return events
