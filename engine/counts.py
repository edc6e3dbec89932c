"""Card-counting systems as data: each card's tag, and how a running count becomes a true count.

A :class:`CountSystem` is what the ``croupier_count_systems`` hook contributes. Tags are
integers in units of ``1 / scale`` (Wong Halves, whose tags are halves, is stored doubled
with ``scale=2``), so a running count is an exact integer sum that a compiled simulator can
keep in an int; only the true count divides. Ranks are the solver's ten: ace, 2..9, and one
tag shared by every ten-valued card. A tag that depends on the suit (Red 7's sevens: red
+1, black 0) is a per-rank exception for red cards, ``red_tags``: the tag of each of the
52 cards (:meth:`CountSystem.card_tags`) is then exact, never an average (a running count
of 1/2 per seven would be no count a player keeps).

The true count (:func:`true_count`) is the running count per deck remaining. An
unbalanced count (KO, Red 7) starts at its initial running count ``irc(decks)`` and drifts
by ``deck_sum`` per deck dealt; its true count is taken relative to that drift, ``(running
- irc - deck_sum * decks dealt) / decks remaining``, which is the true count of the
balanced count whose tags are shifted by their mean (so every system's true count is on
one scale; a player of an unbalanced count who plays the running count directly converts
at the depth he plays). Decks remaining are estimated exactly, to the nearest half deck,
or to the nearest whole deck (never below one unit), and the quotient, exact in integers
(a float quotient misread counts that are exactly an integer: KO's +4 as +3), is floored,
truncated toward zero, rounded half away from zero, or kept as it is (``none``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import attrs

from croupier.engine.errors import CroupierError

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""The ten tag positions: ace, 2..9, and every ten-valued card (10, J, Q, K)."""
CARDS_PER_DECK = (4,) * 9 + (16,)
RED_SUITS = (1, 2)  # hearts, diamonds in the engine's card order S H D C
ROUNDINGS = ("floor", "truncate", "round", "none")
"""How a true count is read: rounded down, toward zero, to the nearest, or not at all."""
RESOLUTIONS = ("exact", "half", "whole")
DECK = 52
"""Cards in one deck (a true count divides by the decks left: cards left / ``DECK``)."""


@functools.cache
def card_tags(tags: tuple[int, ...], red_tags: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """:meth:`CountSystem.card_tags`, made once a count: an unbalanced count's true count
    sums them at every reading (``deck_sum``)."""
    red = dict(red_tags)
    out = []
    for card in range(52):
        rank = min(card // 4, 9)
        suit = card % 4
        out.append(red[rank] if suit in RED_SUITS and rank in red else tags[rank])
    return tuple(out)


@attrs.frozen
class CountSystem:
    """A named card count (see the module docstring for every field's meaning)."""

    name: str
    summary: str
    tags: tuple[int, ...]  # ten tags, A 2 3 4 5 6 7 8 9 T, in units of 1/scale
    balanced: bool = True
    scale: int = 1
    red_tags: tuple[tuple[int, int], ...] = ()  # (rank index, tag of a red card of it)
    irc_per_deck: int = 0  # initial running count per deck (unbalanced), tag units
    irc_offset: int = 0  # plus this constant (KO: 4 - 4 per deck)
    rounding: str = "floor"
    resolution: str = "exact"
    source: str = ""

    def card_tags(self) -> tuple[int, ...]:
        """The tag of each engine card 0..51 (``rank * 4 + suit``), suit exceptions applied."""
        return card_tags(self.tags, self.red_tags)

    def deck_sum(self) -> int:
        """The sum of the tags over one 52-card deck (0 for a balanced count)."""
        return sum(self.card_tags())

    def irc(self, decks: int) -> int:
        """The initial running count of a ``decks``-deck shoe (0 for a balanced count)."""
        return self.irc_per_deck * decks + self.irc_offset

    def tag_classes(self) -> tuple[tuple[int, int, int], ...]:
        """``(rank index, cards per deck, tag)`` for every rank and suit colour that has its
        own tag: the classes whose cards are interchangeable for the count (the seven of
        Red 7 is two classes, red and black)."""
        red = dict(self.red_tags)
        out = []
        for rank, n in enumerate(CARDS_PER_DECK):
            if rank in red:
                out.append((rank, n // 2, red[rank]))
                out.append((rank, n - n // 2, self.tags[rank]))
            else:
                out.append((rank, n, self.tags[rank]))
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for a solver problem or the wire)."""
        data = attrs.asdict(self)
        data["tags"] = list(self.tags)
        data["red_tags"] = [list(pair) for pair in self.red_tags]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CountSystem:
        """The inverse of :meth:`to_dict`; a bad field is refused in one line."""
        try:
            system = cls(
                name=str(data["name"]),
                summary=str(data.get("summary", "")),
                tags=tuple(int(t) for t in data["tags"]),
                balanced=bool(data.get("balanced", True)),
                scale=int(data.get("scale", 1)),
                red_tags=tuple((int(r), int(t)) for r, t in data.get("red_tags", ())),
                irc_per_deck=int(data.get("irc_per_deck", 0)),
                irc_offset=int(data.get("irc_offset", 0)),
                rounding=str(data.get("rounding", "floor")),
                resolution=str(data.get("resolution", "exact")),
                source=str(data.get("source", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CroupierError(f"not a count system: {exc}") from None
        problems = check_count_system(system)
        if problems:
            raise CroupierError(f"count {system.name!r}: {problems[0]}")
        return system


def check_count_system(system: object) -> list[str]:
    """What is wrong with a count system, one line each (nothing: it is usable)."""
    if not isinstance(system, CountSystem):
        return [f"is a {type(system).__name__}, not a CountSystem"]
    problems: list[str] = []
    if len(system.tags) != 10 or not all(isinstance(t, int) for t in system.tags):
        return ["needs ten integer tags, for A 2 3 4 5 6 7 8 9 T (tens share one)"]
    if not isinstance(system.scale, int) or system.scale < 1:
        problems.append(f"scale must be a positive integer, not {system.scale!r}")
    for rank, tag in system.red_tags:
        if not 0 <= rank <= 9 or not isinstance(tag, int):
            problems.append(f"red tag ({rank!r}, {tag!r}) needs a rank index 0..9 and an int")
    if len({rank for rank, _ in system.red_tags}) != len(system.red_tags):
        problems.append("a rank has two red tags")
    if problems:
        return problems
    total = system.deck_sum()
    if system.balanced and total != 0:
        problems.append(f"says it is balanced, but its tags sum to {total} over a deck")
    if not system.balanced and total == 0:
        problems.append("says it is unbalanced, but its tags sum to 0 over a deck")
    if system.balanced and (system.irc_per_deck or system.irc_offset):
        problems.append("a balanced count starts at 0 (no initial running count)")
    if system.rounding not in ROUNDINGS:
        problems.append(f"rounding is one of {', '.join(ROUNDINGS)}, not {system.rounding!r}")
    if system.resolution not in RESOLUTIONS:
        problems.append(f"resolution is one of {', '.join(RESOLUTIONS)}, not {system.resolution!r}")
    return problems


def decks_remaining(cards_remaining: int, resolution: str = "exact") -> float:
    """The player's estimate of the decks left: exact, or to the nearest half or whole deck
    (halves rounded up), never less than one half or one whole deck."""
    units, per_deck = deck_units(cards_remaining, resolution)
    return units / per_deck


def deck_units(cards_remaining: int, resolution: str = "exact") -> tuple[int, int]:
    """The decks left as an exact fraction ``units / per_deck``: cards (52 a deck), half
    decks (2) or whole decks (1), the nearest half or whole rounded up, never below one
    unit. Integers, so that a true count is an exact quotient (a float estimate of
    ``108 / 52`` decks made Hi-Lo's 27 read 12.99..., floored to 12)."""
    if resolution == "exact":
        return cards_remaining, DECK
    per_deck = {"half": 2, "whole": 1}[resolution]
    # floor(cards / (52 / per_deck) + 1/2), in integers
    return max(1, (2 * cards_remaining * per_deck + DECK) // (2 * DECK)), per_deck


def round_count(value: float, rounding: str) -> float:
    """``value`` floored, truncated toward zero, rounded half away from zero, or kept."""
    if rounding == "floor":
        return float(math.floor(value))
    if rounding == "truncate":
        return float(math.trunc(value))
    if rounding == "round":
        return float(math.copysign(math.floor(abs(value) + 0.5), value))
    if rounding == "none":
        return value
    raise CroupierError(f"rounding is one of {', '.join(ROUNDINGS)}, not {rounding!r}")


def round_quotient(num: int, den: int, rounding: str) -> float:
    """``num / den`` (``den > 0``) floored, truncated toward zero, rounded half away from
    zero, or kept (the nearest float), computed exactly in integers."""
    if rounding == "none":
        return num / den  # one correctly rounded division of exact integers
    size = abs(num)
    if rounding == "floor":
        return float(num // den)
    if rounding == "truncate":
        whole = size // den
    elif rounding == "round":
        whole = (2 * size + den) // (2 * den)
    else:
        raise CroupierError(f"rounding is one of {', '.join(ROUNDINGS)}, not {rounding!r}")
    return float(whole if num >= 0 else -whole)


def true_count_quotient(
    running: int, cards_remaining: int, system: CountSystem, decks: int, resolution: str
) -> tuple[int, int]:
    """The true count as an exact fraction ``num / den`` (``den > 0``): with ``u / k``
    decks left (:func:`deck_units`), ``(k (running - irc) - deck_sum (k decks - u)) /
    (scale u)``."""
    units, per_deck = deck_units(cards_remaining, resolution)
    num = per_deck * (running - system.irc(decks))
    if not system.balanced:
        num -= system.deck_sum() * (per_deck * decks - units)  # the drift of the cards dealt
    return num, system.scale * units


def true_count(
    running: int,
    cards_remaining: int,
    system: CountSystem,
    decks: int,
    *,
    rounding: str | None = None,
    resolution: str | None = None,
) -> float:
    """The true count a player of ``system`` reads with ``running`` (tag units, from the
    system's initial running count) and ``cards_remaining`` cards left of a ``decks``-deck
    shoe; ``rounding`` and ``resolution`` default to the system's own. The quotient is
    exact (integers), so a count that is exactly an integer reads that integer."""
    if cards_remaining <= 0:
        raise CroupierError("the true count needs at least one card left")
    num, den = true_count_quotient(
        running, cards_remaining, system, decks, resolution or system.resolution
    )
    return round_quotient(num, den, rounding or system.rounding)
