"""Keeping a seat across lost connections: the one reconnect loop of every client that sits.

A bot at a table (:func:`~croupier.clients.bot.sdk.play`), a bot in a tournament
(:func:`~croupier.clients.bot.tournament.join_tournament`) and a person at the terminal
game (``croupier play --connect``) all play one connection's worth at a time and, when it
is lost, wait and connect again, taking their seat back with its token: :func:`keep_seat`
is that loop, written once. A server's ``shutdown`` notice says whether it will be back
(:func:`resumes`): one without a journal will not, and the loop stops at once.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Protocol

import trio

from croupier.engine import CroupierError
from croupier.protocol import Client, ConnectionClosed, RpcError, connect
from croupier.protocol.errors import CallTimeout, Code

log = logging.getLogger("croupier.bot")

MAX_DELAY = 5.0
"""The longest wait between two attempts, in seconds (0.2 s first, then doubling)."""
RECOVERY_WAIT = 1800.0
"""Seconds in all a client waits for a server that answers ``recovering`` (it is up and
rebuilding the table from its journal, which a table without checkpoints may take minutes
to) before it gives up."""


class Rejoining(Protocol):
    """What the loop reads and counts on its client: the seat's token (None: not seated
    yet, nothing to take back), the attempts failed in a row, whether the server said it
    stops for good, and whether it said it resumes (``shutdown`` with ``resume``)."""

    token: str | None
    reseat: bool
    """True when there is a seat to take though no token is held yet: the table was found
    (or created) but the connection was lost before the seat was taken; sitting down is
    tried again as taking a seat back is."""
    failures: int
    server_stopped: bool
    resuming: bool


def resumes(params: Any) -> bool:
    """Whether a ``shutdown`` notice says the table resumes after the server's restart
    (``[{"resume": true}]``, from a server with a journal); a server that says nothing
    (an older one) does not."""
    return (
        isinstance(params, list)
        and len(params) == 1
        and isinstance(params[0], Mapping)
        and params[0].get("resume") is True
    )


def heard_shutdown(me: Rejoining, params: Any) -> None:
    """Note a ``shutdown`` notice: a server with a journal resumes the table after its
    restart (reconnect and take the seat back); one without stops for good."""
    me.resuming = resumes(params)
    me.server_stopped = not me.resuming


def unwrap_group(group: BaseExceptionGroup) -> BaseException:
    """The one error inside nested trio exception groups (a connection's ends), if one."""
    leaves: list[BaseException] = []

    def walk(exc: BaseException) -> None:
        if isinstance(exc, BaseExceptionGroup):
            for inner in exc.exceptions:
                walk(inner)
        else:
            leaves.append(exc)

    walk(group)
    return leaves[0] if len(leaves) == 1 else group


def retry_delay(failures: int) -> float:
    """Seconds to wait before attempt ``failures + 1``: 0.2 s, then doubling up to 5 s."""
    return min(MAX_DELAY, 0.2 * 2.0 ** (failures - 1))


def reconnect_window(tries: int) -> float:
    """Seconds ``tries`` attempts wait in all before giving up."""
    return sum(retry_delay(n) for n in range(1, tries + 1))


def log_retry(reason: str, delay: float, resuming: bool) -> None:
    if resuming:
        log.warning("the server is restarting (its tables resume); reconnecting in %g s", delay)
    else:
        log.warning("connection lost (%s); reconnecting in %g s", reason, delay)


async def keep_seat(
    me: Rejoining,
    attempt: Callable[[], Awaitable[bool]],
    reconnect: int,
    *,
    on_retry: Callable[[str, float, bool], None] = log_retry,
    wait_for_resume: bool = False,
) -> None:
    """Run ``attempt`` (one connection's worth of play: True when the table or tournament
    is over, raises :class:`ConnectionClosed` or :class:`CroupierError` when the connection
    is lost) until it is over. A lost connection is tried again ``reconnect`` times in a
    row (``me.failures``; the attempt resets it once seated again), ``on_retry(reason,
    delay, resuming)`` told before each wait; with ``wait_for_resume``, a server that said it
    resumes is waited for without that bound (a person, who can give up any time). Gives up
    with a one-line :class:`CroupierError`: the last reason, or "the server shut down"
    when it said it stops for good. A ``hello`` (or any call) not answered in time
    (:class:`CallTimeout`) is a lost connection too. A server that answers ``recovering``
    (just restarted, still rebuilding the table from its journal) is asked again, as after
    a lost connection, without counting against ``reconnect``, for up to
    :data:`RECOVERY_WAIT` seconds in all. The server's other refusals (:class:`RpcError`)
    pass through.
    """
    recovering = 0
    while True:
        try:
            try:
                if await attempt():
                    return
            except BaseExceptionGroup as group:
                raise unwrap_group(group) from None
        except RpcError as exc:
            if exc.code != Code.RECOVERING:
                if not isinstance(exc, CallTimeout | ConnectionClosed):
                    raise
                await _retry_lost(me, exc, reconnect, on_retry, wait_for_resume)
                continue
            recovering += 1
            delay = retry_delay(recovering)
            if reconnect_window(recovering) > RECOVERY_WAIT:
                raise CroupierError(f"the server is still recovering: {exc.message}") from None
            on_retry(exc.message, delay, True)
            await trio.sleep(delay)
        except CroupierError as exc:
            await _retry_lost(me, exc, reconnect, on_retry, wait_for_resume)


async def _retry_lost(
    me: Rejoining,
    exc: Exception,
    reconnect: int,
    on_retry: Callable[[str, float, bool], None],
    wait_for_resume: bool,
) -> None:
    """After a lost connection: wait before the next attempt, or give up with a one-line
    :class:`CroupierError` (see :func:`keep_seat`)."""
    if me.server_stopped:
        raise CroupierError("the server shut down") from None
    me.failures += 1
    patient = wait_for_resume and me.resuming
    nothing = me.token is None and not me.reseat
    if nothing or (me.failures > reconnect and not patient):
        raise CroupierError(str(exc)) from None
    delay = retry_delay(me.failures)
    on_retry(str(exc), delay, me.resuming)
    await trio.sleep(delay)


class SeatGate:
    """What comes while a seat is being taken (``table.join``) or taken back
    (``table.rejoin``): the table plays as soon as the seat is its bot's, so its events and
    its first ``decide`` can arrive before the answer. Notifications are held
    (:meth:`hold`) and a ``decide`` waits (:meth:`wait`) until :meth:`taking` has told the
    client its seat and delivered what was held, in order."""

    def __init__(self) -> None:
        self._held: list[tuple[str, Any]] | None = None
        self._open = trio.Event()
        self._open.set()

    def hold(self, method: str, params: Any) -> bool:
        """Keep a notification for later while the seat is being taken; False otherwise
        (deliver it now)."""
        if self._held is None:
            return False
        self._held.append((method, params))
        return True

    @property
    def is_open(self) -> bool:
        """No seat is being taken: a ``decide`` need not wait."""
        return self._open.is_set()

    async def wait(self) -> None:
        """Until no seat is being taken (a ``decide`` waits here)."""
        await self._open.wait()

    @contextlib.asynccontextmanager
    async def taking(self, deliver: Callable[[str, Any], Awaitable[None]]) -> AsyncIterator[None]:
        """Hold notifications while the block takes the seat; then ``deliver`` them in
        order (more may come meanwhile) and let waiting ``decide`` calls through."""
        self._held, self._open = [], trio.Event()
        try:
            yield
            while self._held:
                method, params = self._held.pop(0)
                await deliver(method, params)
        finally:
            self._held = None
            self._open.set()


async def take_back(
    client: Client, token: str, table: int | None, events: bool, auto: list[str]
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``table.rejoin``: ``(joined, None)``, or ``(None, final info)`` when the table has
    finished meanwhile (its tokens are gone, so the token is refused)."""
    try:
        return await client.call("table.rejoin", token, events, auto), None
    except RpcError as exc:
        if exc.code != Code.BAD_TOKEN:
            raise
    return None, await client.call("table.info", table)


LEAVE_TIME = 2.0
"""Seconds given to giving a seat up on the way out."""


async def leave_table(host: str, port: int, name: str, token: str) -> None:
    """Give a seat up at once on a connection of its own (the player is being stopped,
    Ctrl-C or Q), or the seat would play the default for a minute until the table saw
    nobody. A refusal (the table has just finished: its tokens are gone) or a server out of
    reach is no error; a refusal is caught inside the connection too, where trio would hand
    it on wrapped in a group."""
    errors = (RpcError, CroupierError, OSError, trio.BrokenResourceError)
    shielded, bounded = trio.CancelScope(shield=True), trio.move_on_after(LEAVE_TIME)
    with shielded, bounded, contextlib.suppress(*errors):
        async with connect(host, port, name=name, role="bot") as client:
            with contextlib.suppress(*errors):
                await client.call("table.leave", token)
