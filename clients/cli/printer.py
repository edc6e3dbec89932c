"""The printer a game's front end reports on (``CommandKit.printer``): the engine's plain
text and tables (:mod:`croupier.engine.printing`) drawn by rich on :func:`stdout_console`,
whole however narrow the window, styled on a terminal only."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from croupier.clients.cli.common import stdout_console
from croupier.engine import ReportTable, Styled


class ConsolePrinter:
    """A :class:`~croupier.engine.Printer` on stdout: one console, as one report's."""

    def __init__(self) -> None:
        self.console = stdout_console()

    def text(self, markup: str) -> None:
        self.console.print(markup)

    def table(self, table: ReportTable) -> None:
        drawn = Table(title=table.title)
        for column in table.columns:
            drawn.add_column(column.header, justify=column.justify)
        for row in table.rows:
            drawn.add_row(
                *(Text(c.text, style=c.style) if isinstance(c, Styled) else c for c in row)
            )
        self.console.print(drawn)
