"""CPU work off the event loop: in a worker process when it can be, fairly shared.

A solver or a strategy chart can take seconds of pure Python. Run in a thread it still
slows the event loop (the thread holds the GIL most of the time, so every task of the
server waits for it), and a thread that runs over its time cannot be stopped. So work whose
function and arguments can be pickled runs in a worker *process* (``trio-parallel``, which
kills the worker when the call is cancelled, freeing its slot at once); other work (a
plugin's lambda, say) falls back to a thread. Either way the job first takes a turn in a
:class:`~croupier.protocol.transport.fairpool.FairPool`, so connections share the workers fairly.

A worker process runs below the event loop's CPU priority (:data:`WORKER_NICENESS`, set by
the first job it runs): on a machine with as many busy workers as cores the loop, and with
it every table's round trips, still gets the CPU first.

A plugin's own bug (anything but a :class:`CroupierError`) comes back as
:class:`PluginFailure`, which the server reports as ``internal-error`` naming the plugin,
not as a user's ``bad-input``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
from collections.abc import Callable, Hashable
from typing import Any

import trio
import trio_parallel

from croupier.engine import CroupierError, PluginManager
from croupier.engine.errors import one_line
from croupier.engine.games import Game
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.fairpool import FairPool

log = logging.getLogger("croupier.workers")

WORKER_NICENESS = 10
"""How much lower a worker process's CPU priority is than the server's (``os.nice``)."""
_niced = False
"""Whether this process (a worker) has lowered its priority already."""


class PluginFailure(Exception):
    """A plugin raised something other than a :class:`CroupierError` (a bug of its own)."""


class _Refused(Exception):
    """A :class:`CroupierError` crossing the process boundary as its one line of text (its
    subclasses need not pickle)."""


def _guarded(what: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Call ``fn(*args)``: a user error stays one line, a plugin's bug names ``what``."""
    try:
        return fn(*args)
    except CroupierError as exc:
        raise _Refused(str(exc)) from None
    except RecursionError:
        raise _Refused(f"the problem is too deep for {what}") from None
    except Exception as exc:
        raise PluginFailure(f"{what} failed: {one_line(exc)}") from None


def lower_priority() -> None:
    """Lower this worker process's CPU priority by :data:`WORKER_NICENESS`, once (its first
    job calls it: trio-parallel's ``init`` hook would need a worker context of our own,
    whose lifetime the default one already manages)."""
    global _niced
    if not _niced:
        _niced = True
        with contextlib.suppress(AttributeError, OSError):  # not POSIX, or not allowed
            os.nice(WORKER_NICENESS)


def _in_worker(what: str, fn: Callable[..., Any], *args: Any) -> Any:
    """:func:`_guarded` in a worker process, whose priority it lowers."""
    lower_priority()
    return _guarded(what, fn, *args)


def _picklable(*objects: object) -> bool:
    try:
        pickle.dumps(objects)
    except Exception:
        return False
    return True


async def run_job(
    pool: FairPool,
    owner: Hashable,
    what: str,
    fn: Callable[..., Any],
    *args: Any,
    timeout: float,
    group: Hashable = None,
) -> Any:
    """``fn(*args)`` off the loop, after a fair turn in ``pool``; at most ``timeout``
    seconds of running (waiting for the turn is bounded by the pool and does not count).
    ``group``: the owner's group in the pool (its peer address).

    Raises ``busy`` (it never ran), ``limit-exceeded`` (it ran too long and was stopped, or
    abandoned if it ran in a thread), :class:`CroupierError` for a user error and
    :class:`PluginFailure` for a plugin's bug.
    """
    async with pool.turn(owner, group):
        with trio.move_on_after(timeout) as scope:
            try:
                if _picklable(fn, args):
                    return await trio_parallel.run_sync(
                        _in_worker, what, fn, *args, kill_on_cancel=True
                    )
                return await trio.to_thread.run_sync(
                    _guarded, what, fn, *args, abandon_on_cancel=True
                )
            except _Refused as exc:
                raise CroupierError(str(exc)) from None
        assert scope.cancelled_caught
    raise RpcError(Code.LIMIT_EXCEEDED, f"{what} ran for {timeout:g} s and was stopped")


def internal_error(exc: PluginFailure) -> RpcError:
    """The response for a plugin's bug (logged here once, with its text)."""
    log.error("%s", exc)
    return RpcError(Code.INTERNAL_ERROR, str(exc))


def game_plugin_bug(manager: PluginManager, game: Game, exc: BaseException) -> str:
    """The one line for a game plugin's own bug (anything it raises but a
    :class:`CroupierError`), naming the plugin: an ``internal-error``, not the client's
    ``bad-input``. The traceback goes to the server's log."""
    plugin = manager.games.entry(game.name).plugin
    said = f"internal error in plugin {plugin!r} (game {game.name!r}): {one_line(exc)}"
    log.error("%s", said, exc_info=exc)
    return said
