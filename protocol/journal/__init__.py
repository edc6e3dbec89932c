"""The server's journal: every table and tournament, their seats, events and results, in
SQLite (``croupier serve --data PATH``). ``docs/journal.md`` has the full story."""

from croupier.protocol.journal.record import MEMORY, Journal, NullJournal, open_journal, token_hash
from croupier.protocol.journal.schema import SCHEMA_VERSION, JournalError

__all__ = [
    "MEMORY",
    "SCHEMA_VERSION",
    "Journal",
    "JournalError",
    "NullJournal",
    "open_journal",
    "token_hash",
]
