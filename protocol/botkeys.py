"""Bot identities: registered names, their keys (kept hashed) and revocation.

An operator registers a bot (``croupier keys add NAME``, offline on the journal or through
the operator key over the protocol) and hands its key to the bot's author; the bot presents
the key in ``hello`` and plays under its registered name, whatever name it says. Only the
key's SHA-256 is kept (:func:`~croupier.protocol.keys.secret_digest`), in memory and in the
journal's ``bot_keys`` table. A wrong or revoked key is refused with one error
(:data:`REFUSED`: which of the two is not told), and the refusals an address may earn are
a token bucket (:data:`FAILURE_BURST` at once, then one per :data:`FAILURE_EVERY` seconds),
so keys cannot be guessed at line rate.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from croupier.engine import CroupierError
from croupier.protocol.budgets import TokenBucket
from croupier.protocol.keys import new_secret, same_digest, secret_digest

MAX_NAME = 100
FAILURE_BURST = 5
FAILURE_EVERY = 10.0
"""Wrong keys an address may present at once, then one per this many seconds."""
REFUSED = "unknown or revoked key"
AUTH_MODES = ("open", "keys")
"""``open``: anyone plays under the name it says (a key is refused); ``keys``: a bot must
present a registered key."""


@attrs.frozen
class BotKey:
    """A registered bot (its key only as a digest)."""

    name: str
    author: str | None
    key_sha256: str
    created: float
    revoked: float | None = None

    def public(self) -> dict[str, Any]:
        """What ``keys.list`` shows: never the digest."""
        return {
            "name": self.name,
            "author": self.author,
            "created": self.created,
            "revoked": self.revoked,
        }


def check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise CroupierError(f"a bot's name is 1 to {MAX_NAME} printable characters")
    return name


class BotKeys:
    """The registered bots, by name; ``clock`` stamps additions and revocations."""

    def __init__(
        self, found: Iterable[BotKey] = (), clock: Callable[[], float] = time.time
    ) -> None:
        self.by_name: dict[str, BotKey] = {key.name: key for key in found}
        self.clock = clock

    def add(self, name: str, author: str | None = None) -> tuple[BotKey, str]:
        """Register ``name``: the entry and its key (shown this once, never kept). A name
        registered before (even revoked) is refused: its history is its own."""
        name = check_name(name)
        if author is not None and (len(author) > MAX_NAME or not author.isprintable()):
            raise CroupierError(f"an author is at most {MAX_NAME} printable characters")
        if name in self.by_name:
            raise CroupierError(f"a bot named {name!r} is already registered")
        key = new_secret()
        entry = BotKey(name, author or None, secret_digest(key), self.clock())
        self.by_name[name] = entry
        return entry, key

    def revoke(self, name: str) -> BotKey:
        found = self.by_name.get(name)
        if found is None:
            raise CroupierError(f"no registered bot {name!r}")
        if found.revoked is not None:
            raise CroupierError(f"bot {name!r} was already revoked")
        self.by_name[name] = revoked = attrs.evolve(found, revoked=self.clock())
        return revoked

    def who(self, key: str) -> str | None:
        """The registered name ``key`` is in force for (None: wrong or revoked)."""
        for entry in self.by_name.values():
            if entry.revoked is None and same_digest(key, entry.key_sha256):
                return entry.name
        return None

    def entries(self) -> list[BotKey]:
        return sorted(self.by_name.values(), key=lambda e: e.name)


class KeyFailures:
    """Per address, the wrong keys it may still present (a token bucket)."""

    def __init__(self) -> None:
        self.buckets: dict[str, TokenBucket] = {}

    def wait(self, address: str, now: float) -> float:
        """Seconds before ``address`` may present a key again (0: now)."""
        bucket = self.buckets.get(address)
        if bucket is None:
            return 0.0
        bucket.refill(now)
        return 0.0 if bucket.level >= 1 else (1 - bucket.level) * FAILURE_EVERY

    def failed(self, address: str, now: float) -> None:
        bucket = self.buckets.setdefault(
            address, TokenBucket(1 / FAILURE_EVERY, FAILURE_BURST, stamp=now)
        )
        bucket.take(1, now)
        if len(self.buckets) > 10_000:  # forget the addresses whose bucket is full again
            for where in [a for a, b in self.buckets.items() if b.full(now)]:
                del self.buckets[where]


# -- the journal's table -------------------------------------------------------------------
def load(conn: sqlite3.Connection) -> list[BotKey]:
    rows = conn.execute(
        "SELECT name, author, key_sha256, created, revoked FROM bot_keys ORDER BY name"
    ).fetchall()
    return [BotKey(*row) for row in rows]


INSERT = "INSERT INTO bot_keys (name, author, key_sha256, created, revoked) VALUES (?, ?, ?, ?, ?)"
REVOKE = "UPDATE bot_keys SET revoked = ? WHERE name = ?"


def insert_params(entry: BotKey) -> tuple[Any, ...]:
    return (entry.name, entry.author, entry.key_sha256, entry.created, entry.revoked)
