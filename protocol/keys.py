"""The server's random secrets: keys and seat tokens, made and compared.

Every key and token is made here (:func:`new_secret`: URL-safe base64), so a text outside
that alphabet is no secret of ours. What a client shows is compared by :func:`same_secret`
and :func:`same_digest`, which answer False for any text at all (non-ASCII included) and
compare bytes in constant time: ``hmac.compare_digest`` refuses non-ASCII ``str``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
"""What a secret of ours may look like (``secrets.token_urlsafe``'s alphabet, bounded)."""


def new_secret(nbytes: int = 18) -> str:
    """A random URL-safe secret (a key, a seat's token) that never starts with ``-``, so a
    command line that passes it (``--key KEY``) never reads it as an option."""
    while True:
        secret = secrets.token_urlsafe(nbytes)
        if not secret.startswith("-"):
            return secret


def well_formed(given: str) -> bool:
    """True when ``given`` could be a secret :func:`new_secret` made."""
    return _SECRET.fullmatch(given) is not None


def same_secret(given: str, known: str) -> bool:
    """``given`` is ``known`` (in constant time; False for text that is no secret)."""
    return well_formed(given) and hmac.compare_digest(given.encode(), known.encode())


def secret_digest(secret: str) -> str:
    """A secret as the journal keeps it: its hex SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_digest(given: str, known_sha256: str) -> bool:
    """``given`` hashes to ``known_sha256`` (in constant time; False for text that is no
    secret)."""
    return well_formed(given) and hmac.compare_digest(
        secret_digest(given).encode(), known_sha256.encode()
    )
