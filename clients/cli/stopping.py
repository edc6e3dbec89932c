"""Ctrl-C and SIGTERM while a command fans work out: stop soon, keep what is done.

The first signal raises ``KeyboardInterrupt`` in the main thread, as Ctrl-C always does
(SIGTERM would otherwise kill the command outright and leave its worker processes
behind): the command stops its work and reports the part finished, with its seed, and
closing the executor kills the workers still busy. A second signal does not wait for
that: it kills this process's children and exits at once.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def stop_on_signals(
    requested: threading.Event | None = None, *, raise_first: bool = True
) -> Iterator[None]:
    """Within: the first SIGINT or SIGTERM sets ``requested`` and, with ``raise_first``,
    raises ``KeyboardInterrupt`` (without: for work that polls ``requested`` and stops
    itself, such as a trio loop); a second ends the process (status 128 + its number) with
    its children. A no-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        if stopping:
            for child in multiprocessing.active_children():
                child.kill()
            # straight to the descriptor: sys.stderr may be a progress display's proxy
            # (buffered, or mid-write in the code this signal interrupted)
            os.write(2, b"\ncroupier: stopped\n")
            os._exit(128 + signum)
        stopping = True
        if requested is not None:
            requested.set()
        if raise_first:
            raise KeyboardInterrupt

    previous = {number: signal.signal(number, handler) for number in SIGNALS}
    try:
        yield
    finally:
        for number, before in previous.items():
            signal.signal(number, before)
