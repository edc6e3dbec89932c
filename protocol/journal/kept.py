"""How the journal keeps what must not be kept as given: a seat's or a key's token as its
hash, a table's saved state as text whose digest recovery checks."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def checkpoint_text(state: dict[str, Any]) -> str:
    """A table's saved state as the journal keeps it: compact JSON, keys sorted."""
    return json.dumps(state, separators=(",", ":"), sort_keys=True)


def token_hash(token: str | None) -> str | None:
    """A seat token as the journal keeps it: its hex SHA-256, never the token."""
    return None if token is None else hashlib.sha256(token.encode()).hexdigest()
