"""Drive the real ``croupier play`` in a pseudo-terminal and read the screen as a person
sees it: pexpect runs the program, pyte (a VT100 emulator) keeps the screen. Waits are
on what the screen shows, with generous timeouts, never on sleeps."""

from __future__ import annotations

import os
import re
import select
import sys
import time
from pathlib import Path

import pexpect
import pyte

CROUPIER = str(Path(sys.executable).with_name("croupier"))
TIMEOUT = 20.0


class Term:
    """``croupier ARGS`` in a ``cols`` x ``rows`` pseudo-terminal."""

    def __init__(self, *args: str, rows: int = 24, cols: int = 80, shell: str | None = None):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env["CROUPIER_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        # curses takes COLUMNS and LINES over the terminal's own size; pytest-xdist's
        # workers have them set (80x24), so a program in a smaller terminal never knew
        for name in ("COLUMNS", "LINES"):
            env.pop(name, None)
        if shell is not None:
            self.child = pexpect.spawn("/bin/sh", ["-c", shell], env=env, dimensions=(rows, cols))
        else:
            self.child = pexpect.spawn(CROUPIER, list(args), env=env, dimensions=(rows, cols))

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def _pump(self) -> bool:
        """Feed what the program wrote; False at its end."""
        try:
            data = self.child.read_nonblocking(65536, timeout=0.2)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            self._drain()
            return False
        self._feed(data)
        return True

    def _feed(self, data: bytes) -> None:
        self.raw += data
        self.stream.feed(data)

    def _drain(self) -> None:
        """Read what is still on its way once the program ended. Linux hands a pty's output
        to the reading side a moment later, so pexpect can see the program gone before its
        last lines arrive (under load, its last lines were lost); reading the master until
        it reports the other side closed (EIO) gets them all."""
        fd = self.child.child_fd
        while select.select([fd], [], [], 2.0)[0]:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            self._feed(data)

    def wait_for(self, *texts: str) -> str:
        """Wait until the screen shows every one of ``texts``; returns the screen."""
        deadline = time.monotonic() + TIMEOUT
        while not all(t in self.text for t in texts):
            if not self._pump() or time.monotonic() > deadline:
                missing = [t for t in texts if t not in self.text]
                raise AssertionError(f"screen never showed {missing}:\n{self.text}")
        return self.text

    def wait_for_pattern(self, pattern: str) -> str:
        """Wait until the screen matches the regular expression ``pattern``."""
        deadline = time.monotonic() + TIMEOUT
        while re.search(pattern, self.text) is None:
            if not self._pump() or time.monotonic() > deadline:
                raise AssertionError(f"screen never matched {pattern!r}:\n{self.text}")
        return self.text

    def resize(self, rows: int, cols: int) -> None:
        """Resize the terminal (the program gets SIGWINCH) and the emulated screen."""
        self.screen.resize(rows, cols)
        self.child.setwinsize(rows, cols)

    def press(self, keys: str, *then: str) -> str:
        self.child.send(keys)
        return self.wait_for(*then) if then else self.text

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        deadline = time.monotonic() + TIMEOUT
        while self._pump():
            if time.monotonic() > deadline:
                self.child.terminate(force=True)
                raise AssertionError(f"the program did not end:\n{self.text}")
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def output(self) -> str:
        return self.raw.decode("utf-8", "replace")
