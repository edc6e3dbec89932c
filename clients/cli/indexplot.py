"""``croupier solve blackjack --indices COUNT --plot FILE.png|FILE.svg``: an index set as a
chart, colored like the basic-strategy chart.

Rows are hands (hard totals, soft totals, pairs, insurance), columns the dealer's upcard
2..9, T, A; each cell holds its decisions' indices, ``S +1`` meaning stand at a true count
of +1 or more and ``R -3`` surrender at -3 or more (``<=`` written out for the other
direction). A cell's color is its first decision's, as the terminal colors chart letters.
"""

from __future__ import annotations

from typing import Any

from croupier.engine import CroupierError

UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
LETTER = {
    "hit": "H",
    "stand": "S",
    "double": "D",
    "split": "P",
    "surrender": "R",
    "insurance": "I",
}
COLOR = {  # the terminal chart's hues (plugins/blackjack/cli_show.py STYLES), softened
    "H": "#f4a6a6",
    "S": "#f6e58d",
    "D": "#a8e6a1",
    "P": "#a6e3f4",
    "R": "#e3a6f4",
    "I": "#d0d0d0",
}


def _order(hand: str) -> tuple[int, int]:
    if hand == "any":
        return (3, 0)
    if hand.startswith("s"):
        return (1, -int(hand[1:]))
    if hand.isdigit() and int(hand) <= 21:  # "16"; "88" is a pair (no hard total tops 21)
        return (0, -int(hand))
    return (2, -10 if hand[0] == "A" else -"A23456789T".index(hand[0]))


def plot_indices(path: str, entries: list[dict[str, Any]], title: str) -> None:
    """Draw ``entries`` (the solver's ``indices``: decision, hand, upcard, index,
    direction) into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import Rectangle

    if not entries:
        raise CroupierError("--plot: the index set is empty, nothing to draw")
    cells: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in entries:
        cells.setdefault((e["hand"], e["upcard"]), []).append(e)
    hands = sorted({e["hand"] for e in entries}, key=_order)
    figure, axes = plt.subplots(figsize=(10, 0.42 * len(hands) + 1.4))
    for row, hand in enumerate(hands):
        for col, up in enumerate(UPCARDS):
            found = cells.get((hand, up), [])
            if not found:
                continue
            text = "\n".join(
                f"{LETTER[e['decision']]} {'' if e['direction'] == '+' else '<='}"
                f"{int(e['index']):+d}"
                for e in found
            )
            axes.add_patch(
                Rectangle(
                    (col, row), 1, 1, facecolor=COLOR[LETTER[found[0]["decision"]]], edgecolor="w"
                )
            )
            axes.text(col + 0.5, row + 0.5, text, ha="center", va="center", fontsize=7)
    axes.set_xlim(0, len(UPCARDS))
    axes.set_ylim(len(hands), 0)
    axes.set_xticks([c + 0.5 for c in range(len(UPCARDS))], UPCARDS)
    axes.set_yticks([r + 0.5 for r in range(len(hands))], hands, fontsize=8)
    axes.xaxis.tick_top()
    axes.set_xlabel("dealer's upcard")
    axes.set_title(title, fontsize=9, pad=24)
    figure.text(
        0.5,
        0.005,
        "H hit, S stand, D double, P split, R surrender, I insurance: at the true count "
        "shown or above (<=: at or below)",
        ha="center",
        fontsize=8,
    )
    figure.tight_layout(rect=(0, 0.03, 1, 1))
    try:
        figure.savefig(path)
    except OSError as exc:
        raise CroupierError(f"--plot {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(figure)
