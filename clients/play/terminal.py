"""The terminal: curses for drawing, raw bytes for keys, and its restoration on every exit.

Drawing uses :mod:`curses` from the standard library (see docs/play.md for why). Keys are
read by the game as raw bytes from the terminal with ``os.read`` once trio says the file
descriptor is readable (:func:`trio.lowlevel.wait_readable`), never with curses' blocking
``getch``: the trio event loop never blocks, and an end of file (the terminal went away) is
seen as such instead of as "no key yet". :func:`decode_keys` turns the bytes into keys.
"""

from __future__ import annotations

import codecs
import contextlib
import curses
import locale
import os
from collections.abc import Iterator
from contextlib import contextmanager

from croupier.clients.play.layout import Span
from croupier.engine.errors import CroupierError

ENTER = "ENTER"
BACKSPACE = "BACKSPACE"
ESCAPE = "ESC"

# style -> (foreground, background, extra attributes)
_STYLES: dict[str, tuple[int, int, int]] = {
    "felt": (curses.COLOR_WHITE, curses.COLOR_GREEN, 0),
    "title": (curses.COLOR_BLACK, curses.COLOR_WHITE, 0),
    "label": (curses.COLOR_WHITE, curses.COLOR_GREEN, curses.A_BOLD),
    "names": (curses.COLOR_WHITE, curses.COLOR_GREEN, 0),
    "card": (curses.COLOR_BLACK, curses.COLOR_WHITE, 0),
    "card-red": (curses.COLOR_RED, curses.COLOR_WHITE, 0),
    "card-back": (curses.COLOR_WHITE, curses.COLOR_BLUE, curses.A_BOLD),
    "status": (curses.COLOR_YELLOW, curses.COLOR_GREEN, curses.A_BOLD),
    "log": (curses.COLOR_WHITE, curses.COLOR_GREEN, 0),
    "prompt": (curses.COLOR_WHITE, curses.COLOR_GREEN, curses.A_BOLD),
    "key": (curses.COLOR_BLACK, curses.COLOR_YELLOW, curses.A_BOLD),
    "note": (curses.COLOR_CYAN, curses.COLOR_GREEN, curses.A_BOLD),
    "win": (curses.COLOR_YELLOW, curses.COLOR_GREEN, curses.A_BOLD),
    "lose": (curses.COLOR_WHITE, curses.COLOR_RED, curses.A_BOLD),
}
_MONO = {"title": curses.A_REVERSE, "card": curses.A_REVERSE, "card-red": curses.A_REVERSE}


def preferred_charset() -> str:
    """``"unicode"`` (box drawing, suit symbols) when the locale speaks UTF-8, else ASCII."""
    encoding = locale.getpreferredencoding(False).lower().replace("-", "")
    return "unicode" if encoding == "utf8" else "ascii"


class KeyDecoder:
    """Raw terminal bytes to keys: characters, :data:`ENTER`, :data:`BACKSPACE`,
    :data:`ESCAPE`; escape sequences (arrows, function keys) and control bytes are dropped."""

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes) -> list[str]:
        keys: list[str] = []
        text = self._utf8.decode(data)
        i = 0
        while i < len(text):
            ch = text[i]
            i += 1
            if ch == "\x1b":
                if i < len(text) and text[i] in "[O":  # a sequence: skip to its final byte
                    i += 1
                    while i < len(text) and not ("@" <= text[i] <= "~"):
                        i += 1
                    i += 1
                else:
                    keys.append(ESCAPE)
            elif ch in "\r\n":
                keys.append(ENTER)
            elif ch in "\x7f\x08":
                keys.append(BACKSPACE)
            elif ch.isprintable():
                keys.append(ch)
        return keys


def decode_keys(data: bytes) -> list[str]:
    """The keys in one chunk of bytes (see :class:`KeyDecoder`)."""
    return KeyDecoder().feed(data)


class Screen:
    """A curses screen that paints :class:`~croupier.clients.play.layout.Span` lists."""

    def __init__(self, window: curses.window, fd: int, charset: str) -> None:
        self.window = window
        self.fd = fd
        self.charset = charset
        self.colors = curses.has_colors()
        self.closed = False
        """Set when the curses session ends: painting then would put the terminal back in
        curses' mode (no echo, no newline translation) behind the person's shell."""
        self._attrs: dict[str, int] = {}
        if self.colors:
            curses.start_color()
            for number, (style, (fg, bg, extra)) in enumerate(_STYLES.items(), start=1):
                curses.init_pair(number, fg, bg)
                self._attrs[style] = curses.color_pair(number) | extra
            window.bkgd(" ", self._attrs["felt"])

    def attr(self, style: str) -> int:
        if self.colors:
            return self._attrs.get(style, self._attrs["felt"])
        return _MONO.get(style, curses.A_BOLD if style in ("status", "key") else 0)

    def size(self) -> tuple[int, int]:
        """``(width, height)`` as curses knows it."""
        height, width = self.window.getmaxyx()
        return width, height

    def resize(self) -> None:
        """Take the terminal's new size (after SIGWINCH)."""
        if self.closed:
            return
        try:
            columns, lines = os.get_terminal_size(self.fd)
        except OSError:
            return
        curses.resizeterm(lines, columns)
        self.window.clear()

    def paint(self, spans: list[Span]) -> None:
        if self.closed:  # a late redraw (a cancelled decision's cleanup): the game is gone
            return
        width, height = self.size()
        self.window.erase()
        for span in spans:
            if not (0 <= span.row < height and 0 <= span.col < width):
                continue
            text = span.text[: width - span.col]
            # writing the bottom-right cell moves the cursor off-screen: an error to ignore
            with contextlib.suppress(curses.error):
                self.window.addstr(span.row, span.col, text, self.attr(span.style))
        self.window.refresh()


def require_terminal(fd: int) -> None:
    """A one-line error unless ``fd`` (the keys) and stdout are a terminal."""
    if fd < 0 or not (os.isatty(fd) and os.isatty(1)):
        raise CroupierError(
            "croupier play needs a terminal: run it without redirecting its input or output"
        )


@contextmanager
def open_screen(fd: int, charset: str | None = None) -> Iterator[Screen]:
    """A full-screen curses session on the terminal; the terminal is restored on every exit
    (a normal end, an error, Ctrl-C)."""
    locale.setlocale(locale.LC_ALL, "")
    require_terminal(fd)
    try:
        window = curses.initscr()
    except curses.error as exc:
        raise CroupierError(f"cannot use this terminal ({exc}); check TERM") from None
    screen: Screen | None = None
    try:
        curses.noecho()
        curses.cbreak()
        with contextlib.suppress(curses.error):  # terminals without an invisible cursor
            curses.curs_set(0)
        screen = Screen(window, fd, charset or preferred_charset())
        yield screen
    finally:
        if screen is not None:
            screen.closed = True
        curses.nocbreak()
        curses.echo()
        curses.endwin()
