"""``croupier journal check|compact|backup``: the operator's tools for a server's journal.

- ``check PATH``: SQLite's ``integrity_check``, then every table replayed from its seed and
  its recorded actions against its recorded chips: one line per table, exit 1 if anything
  is bad. Read-only; it runs beside a server.
- ``compact PATH``: re-encode the rows an older croupier wrote a round each (JSON, or packed
  as schema 5 and 6 did) into packed blocks of up to 64 consecutive rounds (schema 7,
  :mod:`croupier.protocol.journal.packing`), then ``VACUUM`` into pages of
  :data:`~croupier.protocol.journal.schema.PAGE_SIZE` (an older journal's 4 or 8 kB ones left
  more of each page empty): the file shrinks.
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
from croupier.protocol.journal.packing import MAX_BLOCK, Packer, Unpacker
from croupier.protocol.journal.schema import (
    PAGE_SIZE,
    JournalError,
    open_for_reading,
    open_for_writing,
)

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
        "compact",
        help="older rows of one round each packed into blocks, then VACUUM (the server stopped)",
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
) -> tuple[int, str | None]:
    """Its settled rounds, and why table ``row`` is bad, or None: it replays from its seed
    to its recorded chips."""
    table, game, rules, seed, chips, state, result = row
    settled = 0
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
            for number, found, got in unpacker.rounds(data, row_chips, round_):
                events.extend(found)
                if number is not None:
                    last_chips = got
                    settled += 1
    except (ValueError, TypeError, CroupierError) as exc:
        return settled, f"its rows cannot be read ({exc})"
    lines = [json.dumps(header), *map(json.dumps, events)]
    try:
        core = replay_game(manager, lines)
    except CroupierError as exc:
        return settled, f"it does not replay: {exc}"
    ledger = [core.ledger.balances[seat_account(i)] for i in range(1, len(header["chips"]) + 1)]
    expected = last_chips
    if state == "finished" and result is not None:
        expected = json.loads(result).get("chips")
    if expected is not None and ledger != expected:
        return settled, f"its replay ends with chips {ledger}, the journal has {expected}"
    return settled, None


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
            rounds, why = check_table(conn, unpacker, row, manager)
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
            # WAL keeps a file's page size: out of it for the VACUUM that changes it
            conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            conn.execute("VACUUM")
            conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot compact the journal {args.path}: {exc}") from None
        finally:
            conn.close()
    finally:
        lock.release()
    after = _size(args.path)
    print(f"{args.path}: {done} rows re-encoded; {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


OLD_ROWS = "(typeof(data) = 'text' OR (typeof(data) = 'blob' AND substr(data, 1, 1) = x'C5'))"
"""Rows of one round each, as a croupier before schema 7 wrote them (JSON, or packed)."""


def compact(conn: sqlite3.Connection) -> int:
    """Re-encode every row of one round (:data:`OLD_ROWS`) of ``conn``'s events into packed
    blocks of consecutive rounds (up to :data:`MAX_BLOCK`), a page of rows per transaction;
    how many rows."""
    games = dict(conn.execute("SELECT id, game FROM tables").fetchall())
    packer, unpacker = Packer(conn), Unpacker(conn)
    done, after = 0, (-1, -1)
    while True:
        rows = conn.execute(
            "SELECT table_id, first, last, round, chips, data FROM events"
            f" WHERE (table_id, first) > (?, ?) AND {OLD_ROWS} ORDER BY table_id, first LIMIT ?",
            (*after, BATCH),
        ).fetchall()
        if not rows:
            return done
        blocks: list[list[tuple[Any, ...]]] = []
        for row in rows:
            block = blocks[-1] if blocks else None
            if (
                block is None
                or block[-1][0] != row[0]  # another table
                or block[-1][2] + 1 != row[1]  # a row between them is a block already
                or block[-1][3] is None
                or row[3] is None  # events after the last settled round: a row of their own
                or len(block) >= MAX_BLOCK
            ):
                blocks.append([row])
            else:
                block.append(row)
        writes = []
        for block in blocks:
            table, first = block[0][0], block[0][1]
            try:
                rounds = [r for _, _, _, n, c, d in block for r in unpacker.rounds(d, c, n)]
                blob = packer.pack_block(games.get(table, ""), rounds)
            except (ValueError, TypeError, OverflowError):
                continue  # rows it cannot pack stay as they are (check names a bad one)
            writes.append(
                (table, first, block[-1][1], (table, first, block[-1][2], block[-1][3], blob))
            )
            done += len(block)
        conn.execute("BEGIN IMMEDIATE")
        try:
            packer.save(conn)
            for table, first, last_first, block_row in writes:
                conn.execute(
                    "DELETE FROM events WHERE table_id = ? AND first >= ? AND first <= ?",
                    (table, first, last_first),
                )
                conn.execute(
                    "INSERT INTO events (table_id, first, last, round, chips, data)"
                    " VALUES (?, ?, ?, ?, NULL, ?)",
                    block_row,
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        packer.saved()
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
