"""The errors croupier raises on purpose.

Every error a user can provoke is a :class:`CroupierError` whose ``str()`` is one clear line;
the CLI prints it without a traceback and the server turns it into an error response.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class CroupierError(Exception):
    """Base class of every error meant for a user: its message is one line."""


class PlayerAbsent(CroupierError):
    """Raised by a player with nobody behind it (a seat given up, a bot whose connection
    is gone): the table plays the turn's :attr:`~croupier.engine.games.Turn.absent`
    action, a betting game's sit-out, rather than betting for someone who is not there."""


class ShoeRanOut(CroupierError):
    """A shoe ran out of cards within one round, with no discards to reshuffle."""


def one_line(exc: BaseException, limit: int = 200) -> str:
    """An exception as one short line, ``Type: first line of the message`` (whatever a
    player or a plugin raised; for events, logs and one-line errors)."""
    text = str(exc).strip().splitlines()
    if not text:
        return type(exc).__name__
    first = text[0] if len(text[0]) <= limit else text[0][: limit - 3] + "..."
    return f"{type(exc).__name__}: {first}"


def player_failure(exc: BaseException, limit: int = 200) -> str:
    """What a table says of a player that raised: its own account (a
    :class:`CroupierError`) as it is; anything else is a bug in the player, said with its
    message but never a Python class name (public events are read by bots written in any
    language; the class goes to the logs)."""
    if isinstance(exc, CroupierError):
        return str(exc)
    lines = str(exc).strip().splitlines()
    first = lines[0] if lines else ""
    first = first if len(first) <= limit else first[: limit - 3] + "..."
    return f"the player failed: {first}" if first else "the player failed"


def kind_of(value: object) -> str:
    """What ``value`` is, in the wire's words (msgpack's types), never a Python class name:
    an error about a remote bot's answer is read by people writing bots in any language."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, bytes | bytearray):
        return "binary data"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "a map"
    return "an object"


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters: what is
    quoted may come from a stranger (a bot's answer, an option on the wire), and a message
    must stay one short line that fits in a log, an event and a response."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class UnknownNameError(CroupierError, LookupError):
    """A name looked up in a registry is not there."""

    def __init__(self, family: str, name: str, known: Iterable[str]) -> None:
        self.family = family
        self.name = name
        self.known = sorted(known)
        close = difflib.get_close_matches(name, self.known, n=1) if len(name) <= 100 else []
        hint = f" Did you mean {close[0]!r}?" if close else ""
        listing = ", ".join(self.known) if self.known else "none"
        super().__init__(f"unknown {family} {shown(name)}.{hint} Known: {listing}")


class DuplicateNameError(CroupierError):
    """Two plugins contribute the same name to one family."""

    def __init__(self, family: str, name: str, first: str, second: str) -> None:
        self.family = family
        self.name = name
        self.plugins = (first, second)
        super().__init__(
            f"{family} {name!r} is contributed by two plugins: {first!r} and {second!r}"
        )


class PluginError(CroupierError):
    """A plugin could not be loaded or one of its hooks failed."""


class SpecError(CroupierError, ValueError):
    """A piece of text (a randomizer spec, a board, a hand) could not be understood.

    ``position`` is the 0-based offset in ``text`` where the problem was found, if known; the
    message then shows it, so the user sees where to look.
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        self.reason = message
        self.text = text
        self.position = position
        if text is not None and position is not None:
            message = f"{message} at column {position + 1} of {text!r}"
        super().__init__(message)
