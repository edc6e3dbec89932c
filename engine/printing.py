"""What a game's command-line front end prints, in plain terms the client renders: lines of
text and tables (:class:`ReportTable`), handed to a :class:`Printer` the command line lends
(``CommandKit.printer``). The plugin never imports the client's terminal library; the client
draws the tables (whole, however narrow the window) and the styles (on a terminal only).

A string, a line or a cell, may carry console markup: ``[bold]...[/bold]``, ``[dim]``,
``[bold green]``, the styles the client knows; :class:`Styled` is literal text in one style.
"""

from __future__ import annotations

from typing import Literal, Protocol

import attrs

Justify = Literal["left", "right", "center"]


@attrs.frozen
class Styled:
    """A table cell's literal text (no markup read in it) in one ``style``, such as
    ``"bold red"`` (an empty style: plain)."""

    text: str
    style: str = ""


Cell = str | Styled
"""A table cell: text with markup, or :class:`Styled` text."""


@attrs.frozen
class Column:
    """A table column: its header and how its cells line up."""

    header: str
    justify: Justify = "left"


@attrs.define
class ReportTable:
    """A titled table, built as rich's is: ``add_column`` each column, then ``add_row``."""

    title: str
    columns: list[Column] = attrs.Factory(list)
    rows: list[tuple[Cell, ...]] = attrs.Factory(list)

    def add_column(self, header: str, justify: Justify = "left") -> None:
        self.columns.append(Column(header, justify))

    def add_row(self, *cells: Cell) -> None:
        self.rows.append(cells)


class Printer(Protocol):
    """Where a front end's report goes (stdout): lines of text and tables."""

    def text(self, markup: str) -> None:
        """Print one line (or more) of text with markup."""

    def table(self, table: ReportTable) -> None:
        """Print a table, whole."""
