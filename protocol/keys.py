"""The server's random secrets: keys and seat tokens."""

from __future__ import annotations

import secrets


def new_secret(nbytes: int = 18) -> str:
    """A random URL-safe secret (a key, a seat's token) that never starts with ``-``, so a
    command line that passes it (``--key KEY``) never reads it as an option."""
    while True:
        secret = secrets.token_urlsafe(nbytes)
        if not secret.startswith("-"):
            return secret
