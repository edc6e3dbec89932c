"""``croupier journal check|compact|backup``: the operator's tools for a server's journal.

- ``check PATH``: SQLite's ``integrity_check``, then every table replayed from its seed and
  its recorded actions against its recorded chips: one line per table, exit 1 if anything
  is bad. Read-only; it runs beside a server.
- ``compact PATH``: re-encode the rows an older croupier wrote as JSON into packed rows
  (schema 5, :mod:`croupier.protocol.journal.packing`), then ``VACUUM``: the file shrinks.
  It takes the journal's lock, so it refuses while a server has the journal.
- ``backup PATH DEST``: a consistent copy made with SQLite's online backup API while the
  server runs (WAL: the server goes on writing meanwhile), checked after.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path
from typing import Any

from croupier.clients.cli.common import get_manager
from croupier.clients.cli.datadir import default_journal
from croupier.engine import CroupierError
from croupier.engine.gamelog import LOG_NAME, LOG_VERSION, replay_game
from croupier.engine.ledger import seat_account
from croupier.protocol.journal.lock import JournalLock
from croupier.protocol.journal.packing import Packer, Unpacker
from croupier.protocol.journal.schema import JournalError, open_for_reading, open_for_writing

BATCH = 1_000
"""Rows re-encoded per transaction by ``compact``."""


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "journal",
        help="check, compact or back up a server's journal",
        description="Operators' tools for a croupier server's journal (docs/journal.md).",
    )
    tools = parser.add_subparsers(title="tool", metavar="TOOL", required=True)
    default = default_journal()
    p = tools.add_parser(
        "check", help="integrity check, and every table replayed: one line per table"
    )
    p.add_argument("path", nargs="?", default=default, metavar="PATH", help=f"default {default}")
    p.set_defaults(func=run_check)
    p = tools.add_parser(
        "compact", help="re-encode old JSON rows packed, then VACUUM (the server stopped)"
    )
    p.add_argument("path", nargs="?", default=default, metavar="PATH", help=f"default {default}")
    p.set_defaults(func=run_compact)
    p = tools.add_parser("backup", help="a consistent copy, made while the server runs")
    p.add_argument("path", metavar="PATH", help="the journal")
    p.add_argument("dest", metavar="DEST", help="the copy (must not exist)")
    p.set_defaults(func=run_backup)


# -- check -----------------------------------------------------------------------------------
def check_table(
    conn: sqlite3.Connection, unpacker: Unpacker, row: tuple[Any, ...], manager: Any
) -> str | None:
    """Why table ``row`` is bad, or None: it replays from its seed to its recorded chips."""
    table, game, rules, seed, chips, state, result = row
    try:
        header = {
            "log": LOG_NAME,
            "version": LOG_VERSION,
            "game": game,
            "options": json.loads(rules),
            "seed": int(seed),
            "chips": json.loads(chips),
        }
        events: list[Any] = []
        last_chips: list[int] | None = None
        for round_, data, row_chips in conn.execute(
            "SELECT round, data, chips FROM events WHERE table_id = ? ORDER BY first", (table,)
        ):
            found, got = unpacker.row(data, row_chips)
            events.extend(found)
            if round_ is not None:
                last_chips = got
    except (ValueError, TypeError, CroupierError) as exc:
        return f"its rows cannot be read ({exc})"
    lines = [json.dumps(header), *map(json.dumps, events)]
    try:
        core = replay_game(manager, lines)
    except CroupierError as exc:
        return f"it does not replay: {exc}"
    ledger = [core.ledger.balances[seat_account(i)] for i in range(1, len(header["chips"]) + 1)]
    expected = last_chips
    if state == "finished" and result is not None:
        expected = json.loads(result).get("chips")
    if expected is not None and ledger != expected:
        return f"its replay ends with chips {ledger}, the journal has {expected}"
    return None


def run_check(args: argparse.Namespace) -> int:
    conn = open_for_reading(args.path)
    bad = 0
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
        if problems == ["ok"]:
            print(f"{args.path}: integrity ok")
        else:
            bad += 1
            print(f"{args.path}: integrity BAD: {problems[0]} ({len(problems)} problems)")
        manager = get_manager()
        unpacker = Unpacker(conn)
        rows = conn.execute(
            "SELECT id, game, rules, seed, chips, state, result FROM tables ORDER BY id"
        ).fetchall()
        for row in rows:
            rounds = conn.execute(
                "SELECT count(round) FROM events WHERE table_id = ?", (row[0],)
            ).fetchone()[0]
            why = check_table(conn, unpacker, row, manager)
            said = f"table {row[0]} ({row[1]}, {row[5]}, {rounds} rounds)"
            if why is None:
                print(f"{said}: ok")
            else:
                bad += 1
                print(f"{said}: BAD: {why}")
    except sqlite3.DatabaseError as exc:
        raise CroupierError(f"the journal {args.path} cannot be read: {exc}") from None
    finally:
        conn.close()
    print(f"{len(rows)} tables checked, {bad} bad" if bad else f"{len(rows)} tables checked, ok")
    return 1 if bad else 0


# -- compact ---------------------------------------------------------------------------------
def run_compact(args: argparse.Namespace) -> int:
    if not Path(args.path).is_file():
        raise JournalError(f"no journal at {args.path}")
    lock = JournalLock(args.path)  # refuses while a server holds the journal
    try:
        before = _size(args.path)
        conn = open_for_writing(args.path)
        try:
            done = compact(conn)
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot compact the journal {args.path}: {exc}") from None
        finally:
            conn.close()
    finally:
        lock.release()
    after = _size(args.path)
    print(f"{args.path}: {done} rows re-encoded; {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


def compact(conn: sqlite3.Connection) -> int:
    """Re-encode every JSON row of ``conn``'s events packed, a batch per transaction; how
    many."""
    games = dict(conn.execute("SELECT id, game FROM tables").fetchall())
    packer, unpacker = Packer(conn), Unpacker(conn)
    done, after = 0, (-1, -1)
    while True:
        rows = conn.execute(
            "SELECT table_id, first, chips, data FROM events WHERE (table_id, first) > (?, ?)"
            " AND typeof(data) = 'text' ORDER BY table_id, first LIMIT ?",
            (*after, BATCH),
        ).fetchall()
        if not rows:
            return done
        updates = []
        for table, first, chips, data in rows:
            try:
                events, chips_now = unpacker.row(data, chips)
                blob = packer.pack(games.get(table, ""), events, chips_now)
            except (ValueError, TypeError, OverflowError):
                continue  # a row it cannot pack stays as it is (check names a bad one)
            updates.append((blob, table, first))
        conn.execute("BEGIN IMMEDIATE")
        try:
            packer.save(conn)
            conn.executemany(
                "UPDATE events SET data = ?, chips = NULL WHERE table_id = ? AND first = ?",
                updates,
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        packer.saved()
        done += len(updates)
        after = rows[-1][0], rows[-1][1]


def _size(path: str) -> int:
    return sum(Path(p).stat().st_size for p in (path, f"{path}-wal") if Path(p).exists())


# -- backup ----------------------------------------------------------------------------------
def run_backup(args: argparse.Namespace) -> int:
    if Path(args.dest).exists():
        raise CroupierError(f"{args.dest} exists: name a new file for the backup")
    source = open_for_reading(args.path)
    try:
        target = sqlite3.connect(args.dest)
        try:
            source.backup(target)  # one step: a consistent snapshot, the server writing on
            problems = target.execute("PRAGMA quick_check").fetchone()[0]
            tables = target.execute("SELECT count(*) FROM tables").fetchone()[0]
        finally:
            target.close()
    except sqlite3.Error as exc:
        Path(args.dest).unlink(missing_ok=True)
        raise CroupierError(f"cannot back up {args.path} to {args.dest}: {exc}") from None
    finally:
        source.close()
    if problems != "ok":
        raise CroupierError(f"the backup {args.dest} fails its check: {problems}")
    size = Path(args.dest).stat().st_size
    print(f"{args.path} -> {args.dest}: {tables} tables, {size / 1e6:.1f} MB, checked ok")
    return 0
