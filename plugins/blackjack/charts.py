"""Strategy charts as files: a :class:`~croupier.engine.kernels.PlayTable` read from and
written to CSV, and played as a strategy (in Python, and by the compiled simulator).

The CSV has a header ``hand,2,3,4,5,6,7,8,9,T,A`` (the dealer's upcard; ``10`` for ``T``
and ``1``/``11`` for ``A`` are read too, in any order) and one row per hand:

* ``hard 4`` .. ``hard 21`` (also ``H12``, or just ``12``);
* ``soft 12`` .. ``soft 21`` (also ``S18`` or ``"A,7"``: an ace and a 7);
* ``pair A``, ``pair 2`` .. ``pair T`` (also ``P8`` or ``"8,8"``; a name with a comma is
  quoted, as in any CSV).

Each cell is a chart letter (``H S Dh Ds P Ph Rh Rs Rp``, see :data:`PLAN`; ``D`` reads as
``Dh`` and ``R`` as ``Rh``, as many published charts write them). Rows that play no part
in a sensible chart may be left out: hard 4-8 and soft 12 hit, hard and soft 21 stand; a
missing pair row plays the pair by its total. Blank lines and lines starting with ``#``
are skipped. ``croupier solve blackjack --csv`` writes this format, so a solved chart can
be edited and simulated.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

import attrs

from croupier.engine import VALUES, CroupierError, shown
from croupier.plugins.blackjack.kernels import HARD_ROWS, LETTERS, PAIR_ROWS, SOFT_ROWS, PlayTable
from croupier.plugins.blackjack.strategy import HandView, Strategy

PLAN: dict[str, tuple[str, ...]] = {
    "H": ("hit",),
    "S": ("stand",),
    "Dh": ("double", "hit"),
    "Ds": ("double", "stand"),
    "P": ("split", "hit"),
    "Ph": ("split", "hit"),
    "Rh": ("surrender", "hit"),
    "Rs": ("surrender", "stand"),
    "Rp": ("surrender", "split", "hit"),
}
"""Each chart letter's actions in order of preference: the first legal one is played."""
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Rank indices 0 (ace) .. 9 (ten-valued), as charts name them."""
UPCARD_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
"""Upcard rank indices in the order charts print them: 2..9, T, A."""
_ALIASES = {"D": "Dh", "R": "Rh"}


def table_letter(table: PlayTable, ranks: Sequence[int], upcard: int, can_split: bool) -> str:
    """The letter for a hand (rank indices) against an upcard rank index: a pair reads its
    pair row when it can be split, a total of 21 or more stands, a one-card hand hits."""
    total = sum(r + 1 for r in ranks)
    soft = 0 in ranks and total + 10 <= 21
    value = total + 10 if soft else total
    if value >= 21:
        return "S"
    if len(ranks) == 2 and ranks[0] == ranks[1] and can_split:
        return table.pairs[ranks[0]][upcard]
    row = (table.soft if soft else table.hard).get(value)
    return "H" if row is None else row[upcard]


def first_legal(letter: str, legal: Sequence[str]) -> str:
    """The letter's first legal action (then stand, then hit, then whatever is legal)."""
    for action in (*PLAN[letter], "stand", "hit"):
        if action in legal:
            return action
    if not legal:
        raise CroupierError("no legal action to choose from")
    return legal[0]


@attrs.frozen
class TablePlay:
    """A chart as a play rule (picklable: tournaments and workers carry it), with its data
    form for the compiled simulator."""

    table: PlayTable

    def __call__(self, hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
        ranks = [VALUES[c] - 1 for c in hand.cards]
        return first_legal(table_letter(self.table, ranks, upcard - 1, "split" in legal), legal)

    def play_table(self) -> PlayTable:
        return self.table


def chart_strategy(path: str) -> Strategy:
    """The strategy a chart file plays, named after the file."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CroupierError(
            f"cannot read the chart {path}: {getattr(exc, 'strerror', exc)}"
        ) from None
    table = read_chart_csv(text, path)
    play = TablePlay(table)
    return Strategy(file.name, f"the chart in {path}", play=play, table=table)


def read_chart_csv(text: str, source: str = "the chart") -> PlayTable:
    """A :class:`PlayTable` from the CSV text above; a bad line is a one-line error naming
    ``source`` and the line."""
    lines = [
        (n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines:
        raise CroupierError(f"{source}: no chart (a header hand,2,...,A and rows)")
    rows = list(csv.reader(line for _, line in lines))
    number, _ = lines[0]
    order = [_upcard(cell, source, number) for cell in rows[0][1:]]
    if sorted(order) != list(range(10)):
        raise CroupierError(
            f"{source}:{number}: the header names the ten upcards 2..9, T, A once each"
        )
    found: dict[tuple[str, int], list[str]] = {}
    for (number, _), row in zip(lines[1:], rows[1:], strict=True):
        key = _hand(row[0], source, number)
        if key in found:
            raise CroupierError(f"{source}:{number}: {row[0].strip()!r} appears twice")
        cells = [c.strip() for c in row[1:]]
        if len(cells) != 10:
            raise CroupierError(f"{source}:{number}: {len(cells)} letters, not 10")
        letters = [""] * 10
        for upcard, cell in zip(order, cells, strict=True):
            letter = _ALIASES.get(cell, cell)
            if letter not in LETTERS:
                raise CroupierError(
                    f"{source}:{number}: {shown(cell)} is not a chart letter ({' '.join(LETTERS)})"
                )
            letters[upcard] = letter
        found[key] = letters
    return _complete(found, source)


def _upcard(cell: str, source: str, number: int) -> int:
    name = cell.strip().upper()
    name = {"10": "T", "1": "A", "11": "A", "J": "T", "Q": "T", "K": "T"}.get(name, name)
    if name not in RANK_NAMES:
        raise CroupierError(f"{source}:{number}: {shown(cell)} is not an upcard (2..9, T, A)")
    return RANK_NAMES.index(name)


def _hand(cell: str, source: str, number: int) -> tuple[str, int]:
    """``("hard", 12)``, ``("soft", 18)`` or ``("pair", rank index)`` from a row's name."""
    text = cell.strip().upper().replace(" ", "")
    try:
        if "," in text:
            first, second = (_rank(x) for x in text.split(","))
            if first == second:
                return "pair", first
            if 0 in (first, second):
                return "soft", 11 + first + second + 1
        elif text.startswith(("HARD", "SOFT", "PAIR")):
            kind, rest = text[:4].lower(), text[4:]
            return (kind, _rank(rest)) if kind == "pair" else (kind, int(rest))
        elif text[:1] in ("H", "S", "P") and text[1:]:
            kind = {"H": "hard", "S": "soft", "P": "pair"}[text[0]]
            return (kind, _rank(text[1:])) if kind == "pair" else (kind, int(text[1:]))
        else:
            return "hard", int(text)
    except ValueError:
        pass
    raise CroupierError(
        f"{source}:{number}: {shown(cell)} is not a hand (hard 12, soft 18, pair 8, A,7 or 8,8)"
    )


def _rank(text: str) -> int:
    name = {"10": "T", "1": "A", "11": "A", "J": "T", "Q": "T", "K": "T"}.get(text, text)
    if name not in RANK_NAMES:
        raise ValueError(text)
    return RANK_NAMES.index(name)


def _complete(found: dict[tuple[str, int], list[str]], source: str) -> PlayTable:
    """Fill the rows a chart may leave out; refuse a chart missing any other."""
    extra = [
        k
        for k in found
        if k[1] not in {"hard": HARD_ROWS, "soft": SOFT_ROWS, "pair": PAIR_ROWS}[k[0]]
    ]
    if extra:
        kind, value = extra[0]
        raise CroupierError(f"{source}: there is no {kind} {value} row (hard 4-21, soft 12-21)")
    hard = {
        t: found.get(("hard", t)) or (["H"] * 10 if t <= 8 else ["S"] * 10 if t == 21 else None)
        for t in HARD_ROWS
    }
    soft = {
        t: found.get(("soft", t)) or (["H"] * 10 if t == 12 else ["S"] * 10 if t == 21 else None)
        for t in SOFT_ROWS
    }
    missing = [f"hard {t}" for t, r in hard.items() if r is None]
    missing += [f"soft {t}" for t, r in soft.items() if r is None]
    if missing:
        raise CroupierError(f"{source}: the chart has no row for {', '.join(missing)}")
    pairs = {}
    for r in PAIR_ROWS:
        row = found.get(("pair", r))
        by_total = soft[12] if r == 0 else hard[2 * (r + 1)]
        pairs[r] = row or by_total
    return PlayTable(hard, soft, pairs)  # type: ignore[arg-type]


def chart_csv(table: PlayTable) -> str:
    """The CSV text of a chart (the format :func:`read_chart_csv` reads)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["hand", *(RANK_NAMES[u] for u in UPCARD_ORDER)])
    for name, rows, keys in (
        ("hard", table.hard, HARD_ROWS),
        ("soft", table.soft, SOFT_ROWS),
        ("pair", table.pairs, PAIR_ROWS),
    ):
        for key in keys:
            label = RANK_NAMES[key] if name == "pair" else str(key)
            writer.writerow([f"{name} {label}", *(rows[key][u] for u in UPCARD_ORDER)])
    return out.getvalue()
