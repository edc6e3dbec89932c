"""Playing deviations by the count: index tables and their CSV (``--indices FILE``).

An :class:`IndexEntry` says: with ``hand`` against ``upcard``, take ``decision`` when the
true count is at or above ``index`` (direction ``+``) or at or below it (``-``), and
otherwise do not (stand's other side is hit; double, split, surrender and insurance are
then declined and the hand is played as without them). The CSV has the header
``decision,hand,upcard,index,direction``; lines starting with ``#`` are comments (a
table names its source there). Hands are written ``16`` (hard 16), ``s18`` (soft 18),
``TT`` or ``88`` (a pair), ``any`` (insurance); upcards ``2``..``9``, ``T``, ``A``.

An :class:`IndexSet` is a named table a plugin contributes (the ``croupier_index_sets``
hook): its entries, the count system they are read with, the rules they were made for
and where they come from. ``sim --indices NAME`` and the ``hilo`` bot find sets by name.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

import attrs

from croupier.engine import CroupierError

COLUMNS = ("decision", "hand", "upcard", "index", "direction")
DECISIONS = ("stand", "hit", "double", "split", "surrender", "insurance")
UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
DIRECTIONS = {"+": "+", ">=": "+", "-": "-", "<=": "-"}
PAIR_RANKS = "A23456789T"


@attrs.frozen
class IndexEntry:
    """One playing deviation (see the module docstring)."""

    decision: str
    hand: str
    upcard: str
    index: float
    direction: str = "+"

    def takes(self, true_count: float) -> bool:
        """Whether the decision is taken at ``true_count``."""
        if self.direction == "+":
            return true_count >= self.index
        return true_count <= self.index

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.decision, self.hand, self.upcard)


@attrs.frozen
class IndexSet:
    """A named index table for one count system (what ``croupier_index_sets`` contributes).

    ``count`` names the count system whose true count the indices read (``hilo``);
    ``rules`` says in words which rules it was made for (``6 decks, S17, DAS, late
    surrender``); ``source`` who published or generated it.
    """

    name: str
    summary: str
    count: str
    entries: tuple[IndexEntry, ...]
    rules: str = ""
    source: str = ""

    @classmethod
    def from_csv(
        cls, name: str, summary: str, count: str, text: str, *, rules: str = "", source: str = ""
    ) -> IndexSet:
        """A set read from index CSV text (see :func:`read_indices`)."""
        return cls(name, summary, count, tuple(read_indices(text)), rules=rules, source=source)


def check_index_set(index_set: IndexSet, counts: Iterable[str]) -> list[str]:
    """Problems of a contributed set, one line each: its count must be installed, its
    entries checked :class:`IndexEntry` values (as :func:`entry` makes them), each decision
    once."""
    problems: list[str] = []
    known = list(counts)
    if index_set.count not in known:
        problems.append(f"count {index_set.count!r} is not installed; known: {', '.join(known)}")
    if not index_set.entries:
        problems.append("has no entries")
    seen: set[tuple[str, str, str]] = set()
    for e in index_set.entries:
        if not isinstance(e, IndexEntry):  # a plugin's data, whatever its annotations say
            problems.append(f"an entry is a {type(e).__name__}, not an IndexEntry")  # type: ignore[unreachable]
            continue
        try:
            entry(e.decision, e.hand, e.upcard, e.index, e.direction)
        except CroupierError as exc:
            problems.append(f"entry {e.key}: {exc}")
        if e.key in seen:
            problems.append(f"entry {e.key} is given twice")
        seen.add(e.key)
    return problems


def check_hand(hand: str) -> str | None:
    """Why ``hand`` is not a hand of the table, or None."""
    if hand == "any":
        return None
    if hand.isdigit() and 4 <= int(hand) <= 21:
        return None
    if hand.startswith("s") and hand[1:].isdigit() and 13 <= int(hand[1:]) <= 21:
        return None
    if len(hand) == 2 and hand[0] == hand[1] and hand[0] in PAIR_RANKS:
        return None
    return f"hand {hand!r} is not 4..21 (hard), s13..s21 (soft), a pair such as TT, or any"


def entry(decision: str, hand: str, upcard: str, index: float, direction: str) -> IndexEntry:
    """A checked entry; a bad field is refused in one line."""
    if decision not in DECISIONS:
        raise CroupierError(f"decision is one of {', '.join(DECISIONS)}, not {decision!r}")
    problem = check_hand(hand)
    if problem:
        raise CroupierError(problem)
    if upcard not in UPCARDS:
        raise CroupierError(f"upcard is one of {' '.join(UPCARDS)}, not {upcard!r}")
    if direction not in DIRECTIONS:
        raise CroupierError(f"direction is + (at or above) or - (at or below), not {direction!r}")
    if (decision == "insurance") != (hand == "any") or (decision == "insurance" and upcard != "A"):
        raise CroupierError("insurance is the hand 'any' against an ace, and only insurance")
    return IndexEntry(decision, hand, upcard, float(index), DIRECTIONS[direction])


def read_indices(text: str) -> list[IndexEntry]:
    """Entries from CSV text (see the module docstring); errors name the line."""
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    rows = list(csv.reader(lines))
    if not rows or tuple(c.strip() for c in rows[0]) != COLUMNS:
        raise CroupierError(f"an index table's header is {','.join(COLUMNS)}")
    out: list[IndexEntry] = []
    seen: set[tuple[str, str, str]] = set()
    for number, row in enumerate(rows[1:], start=2):
        cells = [c.strip() for c in row]
        if len(cells) != len(COLUMNS):
            raise CroupierError(f"index row {number}: {len(cells)} fields, not {len(COLUMNS)}")
        try:
            found = entry(cells[0], cells[1], cells[2], float(cells[3]), cells[4])
        except (CroupierError, ValueError) as exc:
            raise CroupierError(f"index row {number}: {exc}") from None
        if found.key in seen:
            raise CroupierError(f"index row {number}: {found.key} is given twice")
        seen.add(found.key)
        out.append(found)
    return out


def write_indices(entries: Iterable[IndexEntry], comments: Iterable[str] = ()) -> str:
    """CSV text of ``entries`` (integral indices written as integers), comments first."""
    buffer = io.StringIO()
    for comment in comments:
        buffer.write(f"# {comment}\n")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for e in entries:
        index = int(e.index) if float(e.index).is_integer() else e.index
        writer.writerow((e.decision, e.hand, e.upcard, index, e.direction))
    return buffer.getvalue()
