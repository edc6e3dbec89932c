"""A table's or tournament's seed behind a commitment (commit-reveal, "provably fair").

Whoever knows a table's seed can build its shoe and read every card before it is dealt. So
while a table or tournament plays, the server publishes only a **commitment** to its seed::

    commit = SHA-256(b"croupier-seed-commit-v1\\0" + seed as decimal text + b"\\0" + salt)

in lowercase hex, where ``salt`` is the lowercase hex text of 32 bytes from :mod:`secrets`,
drawn when the table is made. Once it finishes, the seed and the salt are revealed: anyone
can then check the commitment (:func:`verify`) and replay every card from the seed. The
salt keeps a seed from being found by trying seeds against the commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import attrs

PREFIX = b"croupier-seed-commit-v1\0"
SALT_BYTES = 32


def commitment(seed: int, salt: str) -> str:
    """The hex commitment to ``seed`` under ``salt`` (hex text), as defined above."""
    material = PREFIX + str(seed).encode("ascii") + b"\0" + salt.encode("ascii")
    return hashlib.sha256(material).hexdigest()


def verify(seed: int, salt: str, commit: str) -> bool:
    """Whether ``commit`` is the commitment to ``seed`` under ``salt``."""
    return hmac.compare_digest(commitment(seed, salt), commit)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


@attrs.frozen
class SeedCommitment:
    """A seed, its secret salt and their public commitment."""

    seed: int
    salt: str = attrs.field(factory=new_salt, repr=False)

    @property
    def commit(self) -> str:
        return commitment(self.seed, self.salt)

    def public(self, revealed: bool) -> dict[str, Any]:
        """``{seed, salt, commit}`` as a client sees it: seed and salt nil until
        ``revealed`` (the table or tournament has finished)."""
        return {
            "seed": self.seed if revealed else None,
            "salt": self.salt if revealed else None,
            "commit": self.commit,
        }
