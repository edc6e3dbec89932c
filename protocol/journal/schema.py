"""The journal's SQLite schema, its version (``PRAGMA user_version``) and its migrations.

A journal's ``user_version`` is the number of migrations applied to it: 0 for a new file,
``SCHEMA_VERSION`` once current. Opening a journal applies the missing migrations, each in
its own transaction, so an older journal is upgraded in place; a journal written by a newer
croupier (a version above ``SCHEMA_VERSION``) is refused, never touched.

Seeds are stored as decimal text (they run to 2**64-1, past SQLite's integers); settings,
rules, results and events are JSON text; tokens and keys only as their SHA-256 (never in
clear). V2 (crash recovery) adds the keys' hashes and ``tournament_tables``: each finished
table of a tournament, its job and its result, so that a recovered tournament books them
without playing them again. V3 (seed commitments) adds each table's and tournament's
``salt`` (hex): while it plays only ``SHA-256(prefix, seed, salt)`` is shown
(:mod:`croupier.protocol.commitment`); rows from before it get a random salt. It also
adds ``runs``, a row per start of a server, whose number the seeds it draws depend on (a
restart never draws a table's seed again). V4
(``CHECKPOINTS``) adds each unfinished table's last checkpoint (its state between two
rounds, as the game saves it), so a restart replays only the rounds after it. V5
(``COMPACT``) adds ``dictionaries``: from it on a settled round's ``data`` is a packed BLOB
(msgpack, column-packed, zstandard with a dictionary trained on the game's rows:
:mod:`croupier.protocol.journal.packing`) holding its events and chips (``chips`` NULL);
older rows keep their JSON, every reader reads both, and ``croupier journal compact``
re-encodes them.
``BOT_KEYS`` (identities) adds ``bot_keys``: each registered bot's name, author and key's
SHA-256, and when it was revoked; and ``ratings``: every refit of the leaderboard's ratings
(one row per bot per fit), so their history stays. ``SCORES`` adds each scored table's
scored decisions (``scores``: table, round, seat, the action taken and its value, the best
and its value, the loss) and each seat's scored rounds (``score_rounds``: plain and
luck-adjusted results), written as the oracle's answers come in: ``table.info`` and the
history show them after a restart, and a recovered scored table goes on from them.
``BLOCKS``: a row of ``events`` may hold several consecutive settled rounds of its table in
one packed block (``round``: the last of them; ``first`` and ``last``: the block's first
and last event), and ``dictionaries`` says which were trained on blocks. A croupier before
it refuses such a journal (a newer schema) rather than misreading its rows. ``RAW_BLOCKS``:
the writer's blocks are plain msgpack of the rounds' events (a marker of their own, 0xC7),
which older croupiers cannot read; the blocks before it stay as they were.
``CREATOR_LEFT`` adds when each table's creator closed its connection (``creator_left``), so
a restarted server abandons the tables their creators had left, as an unbroken one does,
and plays on those whose creators were connected when it stopped.
``TOURNAMENT_ANSWERS`` adds each tournament table's ``answers``: its ``tcp`` seats' answers,
compactly (:mod:`croupier.protocol.seat_answers`), so that a finished tournament's table
replays from its seed (``history.tournament_events``); NULL for a table of strategies alone
(its seed is enough) and for the tables recorded before it. ``TOURNAMENT_CREATOR_LEFT``
does for tournaments what ``CREATOR_LEFT`` does for tables (``tournaments.creator_left``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from croupier.engine import CroupierError

V1 = """
CREATE TABLE tables (
    id INTEGER PRIMARY KEY,        -- the server's table id
    game TEXT NOT NULL,            -- blackjack, or a game plugin's name
    rule_set TEXT,
    rules TEXT NOT NULL,           -- JSON: blackjack's rules.to_dict(), or a game's options
    seed TEXT NOT NULL,            -- decimal
    chips TEXT NOT NULL,           -- JSON: each seat's starting chips
    settings TEXT NOT NULL,        -- JSON: seats, fill, rounds, decision_time, autostart
    creator TEXT,
    state TEXT NOT NULL,           -- waiting, playing, finished
    reason TEXT,                   -- why it finished
    played INTEGER NOT NULL DEFAULT 0,
    events INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,         -- Unix time
    started REAL,
    finished REAL,
    result TEXT                    -- JSON: {chips, house} when it finished
);
CREATE INDEX tables_created ON tables (created);
CREATE TABLE seats (
    table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,            -- strategy, bot, free
    player TEXT,                   -- the strategy's or the bot's name
    token_sha256 TEXT,             -- hex SHA-256 of the seat's token
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE events (           -- a table's events, one row per round
    table_id INTEGER NOT NULL,
    first INTEGER NOT NULL,        -- the number of its first event (1, 2, ... per table)
    last INTEGER NOT NULL,         -- the number of its last event
    round INTEGER,                 -- the round they settled; NULL: not a settled round
    chips TEXT,                    -- JSON: each seat's chips once that round settled
    data TEXT NOT NULL,            -- JSON array: the events, as table.event sends them
    PRIMARY KEY (table_id, first)  -- a rowid table: its rows are large
);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    rule_set TEXT,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    settings TEXT NOT NULL,        -- JSON: the TournamentConfig's settings, join_time
    bots TEXT NOT NULL,            -- JSON: per entry, a strategy name or 'tcp'
    creator TEXT,
    state TEXT NOT NULL,
    reason TEXT,
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    entries TEXT,                  -- JSON: the entries as tournament.info has them
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    result TEXT                    -- JSON: the TournamentResult's to_dict()
);
CREATE INDEX tournaments_created ON tournaments (created);
CREATE TABLE tournament_seats (
    tournament_id INTEGER NOT NULL,
    entry INTEGER NOT NULL,
    player TEXT,
    token_sha256 TEXT,
    PRIMARY KEY (tournament_id, entry)
) WITHOUT ROWID;
"""

V2 = """
ALTER TABLE tables ADD COLUMN key_sha256 TEXT;          -- hex SHA-256 of the table's key
ALTER TABLE tournaments ADD COLUMN key_sha256 TEXT;     -- of the tournament's key
ALTER TABLE tournaments ADD COLUMN join_key_sha256 TEXT;  -- of its join key (NULL: open)
CREATE TABLE tournament_tables (  -- a tournament's tables, each once it finished
    tournament_id INTEGER NOT NULL,
    position INTEGER NOT NULL,     -- 1, 2, ... in the order they finished
    tourney INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,     -- the table's number in its round
    job TEXT NOT NULL,             -- JSON: the TableJob (seed, bots, chips)
    result TEXT NOT NULL,          -- JSON: chips, hands, faults, decisions, conserved
    PRIMARY KEY (tournament_id, tourney, round, table_no)
) WITHOUT ROWID;
"""

V3 = """
-- seed commitments: each seed's salt, and the runs of the server (drawn seeds depend on them)
ALTER TABLE tables ADD COLUMN salt TEXT;       -- hex: the salt of the seed's commitment
ALTER TABLE tournaments ADD COLUMN salt TEXT;  -- of the tournament's seed's
UPDATE tables SET salt = lower(hex(randomblob(32))) WHERE salt IS NULL;
UPDATE tournaments SET salt = lower(hex(randomblob(32))) WHERE salt IS NULL;
CREATE TABLE runs (             -- each start of a server on the journal
    run INTEGER PRIMARY KEY AUTOINCREMENT,  -- 1, 2, ...: never reused
    started REAL NOT NULL          -- Unix time
);
"""

CHECKPOINTS = """
CREATE TABLE checkpoints (        -- each unfinished table's latest checkpoint
    table_id INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,        -- the settled round it was taken after
    last INTEGER NOT NULL,         -- the number of that round's last event
    digest TEXT NOT NULL,          -- hex SHA-256 of data
    data TEXT NOT NULL             -- JSON: GameTable.save_state(), the game's plain data
);
"""

COMPACT = """
CREATE TABLE dictionaries (       -- zstandard dictionaries of packed rows (packing.py)
    id INTEGER PRIMARY KEY,        -- 1, 2, ...: a packed row names it in its first bytes
    game TEXT NOT NULL,            -- the game whose rows it was trained on
    samples INTEGER NOT NULL,      -- how many rows it was trained on
    data BLOB NOT NULL
);
"""


BOT_KEYS = """
CREATE TABLE bot_keys (           -- registered bots: who plays under which name
    name TEXT PRIMARY KEY,         -- the name the bot plays under
    author TEXT,
    key_sha256 TEXT NOT NULL UNIQUE,  -- hex SHA-256 of its key (never the key)
    created REAL NOT NULL,         -- Unix time
    revoked REAL                   -- Unix time; NULL: in force
);
CREATE TABLE ratings (            -- each refit of the ratings: its history, one row per bot
    fit INTEGER NOT NULL,          -- 1, 2, ...: one per refit
    fitted REAL NOT NULL,          -- Unix time
    tournament_id INTEGER,         -- the finished tournament that caused it
    name TEXT NOT NULL,
    rating REAL NOT NULL,          -- Elo scale
    low REAL NOT NULL,             -- its 95% interval
    high REAL NOT NULL,
    games INTEGER NOT NULL,        -- rated results (tourneys) it played in
    comparisons INTEGER NOT NULL,
    PRIMARY KEY (fit, name)
) WITHOUT ROWID;
"""

SCORES = """
CREATE TABLE scores (             -- each scored decision of a scored table (engine/scoring.py)
    table_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    position INTEGER NOT NULL,     -- 1, 2, ...: its place among the seat's in the round
    phase TEXT NOT NULL,
    taken TEXT NOT NULL,           -- the action taken (its key among the values)
    best TEXT NOT NULL,            -- the best action
    value_taken REAL NOT NULL,     -- expected chips of the action taken, under best play after
    value_best REAL NOT NULL,      -- of the best action
    loss REAL NOT NULL,            -- value_best - value_taken
    staked INTEGER NOT NULL,       -- a bet: the chips it staked (else 0)
    edge REAL,                     -- a bet: the exact edge of the round it went into
    PRIMARY KEY (table_id, round, seat, position)
) WITHOUT ROWID;
CREATE TABLE score_rounds (       -- each scored seat's round: its plain and adjusted result
    table_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    plain REAL NOT NULL,           -- chips won
    adjusted REAL NOT NULL,        -- luck-adjusted (control variates)
    PRIMARY KEY (table_id, round, seat)
) WITHOUT ROWID;
"""

BLOCKS = """
-- settled rounds in blocks: a row of events may hold several consecutive rounds (packing.py)
ALTER TABLE dictionaries ADD COLUMN blocks INTEGER NOT NULL DEFAULT 0;  -- 1: trained on blocks
"""

RAW_BLOCKS = """
-- blocks of settled rounds as plain msgpack (packing.py: first byte 0xC7; a dictionary trained
-- on them has blocks = 2): nothing else changes, but a croupier before it cannot read such a
-- row, so it must refuse the journal (a newer schema) rather than fail on its history
UPDATE dictionaries SET blocks = blocks WHERE 0;
"""

CREATOR_LEFT = """
-- when a table's creator closed its connection: a restarted server goes on as if it had not
ALTER TABLE tables ADD COLUMN creator_left REAL;  -- Unix time; NULL: connected at the last stop
"""

TOURNAMENT_ANSWERS = """
-- a tournament table's tcp seats' answers, so that it replays from its seed (seat_answers.py)
ALTER TABLE tournament_tables ADD COLUMN answers BLOB;  -- msgpack {seat: [outcome]}; NULL: none
"""

TOURNAMENT_CREATOR_LEFT = """
-- when a tournament's creator closed its connection: as CREATOR_LEFT for tables
ALTER TABLE tournaments ADD COLUMN creator_left REAL;  -- Unix time; NULL: connected at the stop
"""

UNFINISHED_INDEXES = """
-- the unfinished tables and tournaments, which a starting server reads (journal/recovery.py),
-- found without a scan of every finished one the journal keeps (its where is the queries')
CREATE INDEX tables_unfinished ON tables (id) WHERE state != 'finished';
CREATE INDEX tournaments_unfinished ON tournaments (id) WHERE state != 'finished';
"""

MIGRATIONS: tuple[str, ...] = (
    V1,
    V2,
    V3,
    CHECKPOINTS,
    COMPACT,
    BOT_KEYS,
    SCORES,
    BLOCKS,
    RAW_BLOCKS,
    CREATOR_LEFT,
    TOURNAMENT_ANSWERS,
    TOURNAMENT_CREATOR_LEFT,
    UNFINISHED_INDEXES,
)
"""Migration ``i`` takes a journal from version ``i`` to ``i + 1``. Append, never edit."""
SCHEMA_VERSION = len(MIGRATIONS)


PAGE_SIZE = 2048
"""Bytes of a new journal's SQLite pages (SQLite's default is 4096; journals of before were
8192). A row of ``events`` is a block of 3 to 16 kB (10 to 64 rounds, one commit's), larger
than a page: SQLite keeps its first part (between about an eighth of a page and a page) in a
leaf page and the rest in full overflow pages, so what a page leaves empty is the end of a leaf
page too full for the next row's first part, and that grows with the page: the same rows of
4-seat rounds in blocks of 43 take 265 bytes a round in 2 kB pages, 286 in 4 kB, 288 in 8 kB
(payload 258), and every table and index of the schema takes at least a page (about 23).
Smaller pages cost each commit a WAL frame header (24 bytes) a page and deeper trees of
interior pages, within noise (benchmarks/journal_size.py ``--page-sizes 8192,2048``).
``croupier journal compact`` brings an older journal to this size."""


class JournalError(CroupierError):
    """The journal cannot be opened, read or written (one line for the operator)."""


def version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, where: str, migrations: Sequence[str] = MIGRATIONS) -> int:
    """Bring ``conn`` (autocommit) up to ``len(migrations)``; the version it had."""
    found = version(conn)
    if found > len(migrations):
        raise JournalError(
            f"the journal {where} was written by a newer croupier (schema {found}; this one "
            f"reads up to {len(migrations)}): upgrade croupier or use another --data"
        )
    for number in range(found, len(migrations)):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(migrations[number]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number + 1}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return found


def _statements(script: str) -> list[str]:
    """The statements of a migration script (executescript would commit on its own)."""
    out, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line.split("--", 1)[0].rstrip() + "\n"
        if sqlite3.complete_statement(current):
            if current.strip():
                out.append(current.strip())
            current = ""
    if current.strip():
        raise ValueError(f"an incomplete statement in a migration: {current.strip()[:60]}")
    return out


def open_for_writing(path: str, synchronous: str = "NORMAL") -> sqlite3.Connection:
    """The writer's connection to ``path`` (created if missing): WAL, migrated.

    Anything that stops it (a newer schema, a read-only file, not a database) is one
    :class:`JournalError` line."""
    where = str(path)
    try:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except (sqlite3.Error, OSError) as exc:
        raise JournalError(f"cannot open the journal {where}: {exc}") from None
    try:
        if version(conn) > len(MIGRATIONS):  # refused before anything is written
            migrate(conn, where)
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new file's (WAL keeps it after)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if path != ":memory:" and str(mode).lower() != "wal":
            raise JournalError(f"the journal {where} cannot use WAL (journal mode {mode})")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        migrate(conn, where)
        conn.execute("BEGIN IMMEDIATE")  # a write proves the file writable now, not mid-hand
        conn.execute(f"PRAGMA user_version = {version(conn)}")
        conn.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        conn.close()
        if _DAMAGED.search(str(exc)):
            raise JournalError(
                f"the journal {where} is not a croupier journal or is damaged ({exc}): restore "
                "it from a backup, or move it aside to start a new one"
            ) from None
        raise JournalError(f"cannot write the journal {where}: {exc}") from None
    except JournalError:
        conn.close()
        raise
    return conn


_DAMAGED = re.compile(r"not a database|malformed|corrupt", re.I)


def open_for_reading(path: str) -> sqlite3.Connection:
    """A read-only connection to an existing journal (``croupier history --data``)."""
    if not Path(path).is_file():
        raise JournalError(f"no journal at {path}")
    try:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        found = version(conn)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from None
    if found > SCHEMA_VERSION:
        conn.close()
        raise JournalError(
            f"the journal {path} was written by a newer croupier (schema {found}; this one "
            f"reads up to {SCHEMA_VERSION})"
        )
    if found < SCHEMA_VERSION:
        conn.close()
        raise JournalError(
            f"the journal {path} has schema {found}: start 'croupier serve --data' on it once "
            "to upgrade it"
        )
    return conn
