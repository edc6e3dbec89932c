"""The pictures a game's front end may ask the command line for (``CommandKit.plot``), by
name: matplotlib is the command line's optional extra (``pip install 'croupier[plot]'``),
imported only when a picture is drawn."""

from __future__ import annotations

from typing import Any

from croupier.engine import CroupierError


def plot(figure: str, path: str, data: Any, title: str) -> None:
    """Draw ``figure`` (``indices``: a blackjack index set, :mod:`.indexplot`) into ``path``."""
    if figure == "indices":
        from croupier.clients.cli.indexplot import plot_indices

        plot_indices(path, data, title)
    else:
        raise CroupierError(f"--plot: the command line draws no {figure!r} picture")


def check_plot(path: str) -> None:
    """Refuse a picture that cannot be written, before the work (:mod:`.countplot`)."""
    from croupier.clients.cli.countplot import check_plot_path

    check_plot_path(path)
