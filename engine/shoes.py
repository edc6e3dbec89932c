"""Card shoes: the three ways a card table gets its cards, all drawn from a seeded stream.

- ``casino``: ``decks`` decks shuffled together with a cut card placed after
  ``penetration`` of them; once the cut card is out the shoe is reshuffled before the next
  round.
- ``koth``: the King-of-the-Hill contest's single deck, shared from round to round until it
  is empty; then a fresh shuffled deck is added, in the middle of a hand if need be.
- ``fresh-pack``: the classic console game's fresh shuffled pack of 52 every round.

A shoe that runs dry in the middle of a round (only possible with a deep cut and many
seats) reshuffles its discards, never the cards on the table; the cards of the current round
stay out. Shuffles are Fisher-Yates from the last position down, each index drawn uniformly
by Lemire's multiply-and-reject method on 32-bit little-endian words of the stream (exactly
uniform, about one multiplication per card).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from croupier.engine.cards import CODES, DECK
from croupier.engine.errors import CroupierError, ShoeRanOut
from croupier.engine.loops import COMPILED_FROM, compiled, symbols_of
from croupier.engine.seeds import Stream
from croupier.engine.shoe_loops import shuffle_runs

_MASK = 0xFFFFFFFF


def _words(stream: Stream, count: int) -> array[int]:
    words = array("I", stream.randbytes(4 * count))
    assert words.itemsize == 4
    if sys.byteorder == "big":
        words.byteswap()
    return words


def shuffle_cards(cards: list[int], stream: Stream) -> None:
    """Shuffle ``cards`` in place: Fisher-Yates, position ``i`` swapped with a uniform
    ``j`` in ``[0, i]`` (``j = (w * (i + 1)) >> 32``, rejecting the few biased ``w``)."""
    n = len(cards)
    words = _words(stream, n + 8)
    if n < 2:
        return
    # the products w * (i + 1) for i = n-1 .. 1 at once (they fit 64 bits)
    bounds = np.arange(n, 1, -1, dtype=np.uint64)
    products = np.frombuffer(words, dtype=np.uint32)[: n - 1].astype(np.uint64) * bounds
    if not ((products & _MASK) < bounds).any():
        # the usual case: no word near the rejection zone, so every j is m >> 32
        for i, j in zip(range(n - 1, 0, -1), (products >> 32).tolist(), strict=True):
            cards[i], cards[j] = cards[j], cards[i]
        return
    k = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        if k == len(words):
            words, k = _words(stream, 64), 0
        m = words[k] * bound
        k += 1
        if (m & _MASK) < bound:  # rare: maybe in the biased zone, reject below 2**32 % bound
            threshold = (1 << 32) % bound
            while (m & _MASK) < threshold:
                if k == len(words):
                    words, k = _words(stream, 64), 0
                m = words[k] * bound
                k += 1
        j = m >> 32
        cards[i], cards[j] = cards[j], cards[i]


class Shoe:
    """Cards for a table. ``start_round()`` before each round, then ``draw()`` per card.

    ``shuffles`` and ``decks_added`` count events the table reports ("Shuffling...",
    "a fresh deck is added").

    The cards not dealt yet are kept in reverse, so the next card is the last item of one
    list (the same list object for the shoe's whole life) and ``take`` is that list's own
    ``pop``: the next card without a Python call, for the simulator's fast path. ``take``
    raises ``IndexError`` when the shoe is dry; ``draw()`` then refills or reshuffles it.
    """

    __slots__ = (
        "_cards",
        "_cut",
        "_round_start",
        "_stack",
        "_stream",
        "decks",
        "decks_added",
        "every_round",
        "kind",
        "refill",
        "shuffler",
        "shuffles",
        "take",
    )

    def __init__(
        self,
        stream: Stream,
        *,
        kind: str = "casino",
        decks: int = 6,
        penetration: float = 0.75,
        every_round: bool = False,
        refill: bool = False,
        shuffler: Callable[[list[int]], None] | None = None,
    ) -> None:
        """``shuffler`` shuffles a list of cards in place (default: :func:`shuffle_cards`
        from ``stream``); a simulator that must deal exactly the cards of another
        implementation gives that one's shuffle."""
        if not 1 <= decks <= 64:
            raise CroupierError(f"a shoe holds 1 to 64 decks, not {decks}")
        self.kind = kind
        self.decks = decks
        self.every_round = every_round
        self.refill = refill
        self.shuffler = shuffler
        self._stream = stream
        self._cards: list[int] = list(DECK) * decks  # the arrangement being dealt, in order
        self._stack: list[int] = []  # its cards not dealt yet, reversed: an unshuffled shoe
        self.take = self._stack.pop  # counts as used up
        self._cut = max(1, int(len(self._cards) * penetration))
        self._round_start = len(self._cards)
        self.shuffles = 0
        self.decks_added = 0

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__ if name != "take"}

    def __setstate__(self, state: dict[str, object]) -> None:
        """A copy or an unpickled shoe takes from its own list, not the original's."""
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.take = self._stack.pop

    def save(self) -> dict[str, object]:
        """The shoe as plain data (a table's checkpoint): its arrangement, how far it is
        dealt, the cut, its counters and its stream's position (:meth:`restore`)."""
        return {
            "kind": self.kind,
            "decks": self.decks,
            "cards": list(self._cards),
            "dealt": self._pos,
            "cut": self._cut,
            "round_start": self._round_start,
            "shuffles": self.shuffles,
            "decks_added": self.decks_added,
            "stream": self._stream.position,
        }

    def restore(self, state: Mapping[str, Any]) -> None:
        """Put this shoe (made with the same stream, kind and decks) where :meth:`save` found
        its original; :class:`CroupierError` for data that cannot be that shoe's."""
        if state.get("kind") != self.kind or state.get("decks") != self.decks:
            raise CroupierError(
                f"the saved shoe is {state.get('kind')!r} of {state.get('decks')!r} decks, "
                f"not {self.kind!r} of {self.decks}"
            )
        cards = state.get("cards")
        if not isinstance(cards, list) or not all(_card(c) for c in cards):
            raise CroupierError("the saved shoe's cards are not a list of card codes")
        dealt, cut, start = (_count(state, k, len(cards)) for k in ("dealt", "cut", "round_start"))
        shuffles, added = (_count(state, k, None) for k in ("shuffles", "decks_added"))
        self._stream.seek(_count(state, "stream", None))
        self._deal_from(list(cards), dealt)  # the same list object: ``take`` stays bound
        self._cut, self._round_start = cut, start
        self.shuffles, self.decks_added = shuffles, added

    @property
    def remaining(self) -> int:
        """Cards left before the shoe has to be reshuffled or refilled."""
        return len(self._stack)

    @property
    def _pos(self) -> int:
        """How many cards of the current arrangement have been dealt."""
        return len(self._cards) - len(self._stack)

    def due(self) -> bool:
        """True when the next round must start from a reshuffled shoe."""
        if self.refill:  # the contest's deck is only ever topped up, by draw()
            return self.shuffles == 0
        return self.every_round or self._pos >= self._cut

    def start_round(self) -> bool:
        """Reshuffle if the cut card is out (or every round); True when it shuffled."""
        pos = len(self._cards) - len(self._stack)
        if pos < self._cut and not (self.every_round or self.refill):  # the usual case
            self._round_start = pos
            return False
        if self.due():
            self._shuffle_all()
            return True
        self._round_start = self._pos
        return False

    def _deal_from(self, cards: list[int], dealt: int) -> None:
        """Deal ``cards`` from now on, the first ``dealt`` of them already out."""
        self._cards = cards
        self._stack[:] = cards[: dealt - 1 if dealt else None : -1]

    def _shuffle_all(self) -> None:
        cards = list(DECK) * self.decks
        self._shuffle(cards)
        self._deal_from(cards, 0)
        self._round_start = 0
        self.shuffles += 1

    def _shuffle(self, cards: list[int]) -> None:
        if self.shuffler is None:
            shuffle_cards(cards, self._stream)
        else:
            self.shuffler(cards)

    def draw(self) -> int:
        """The next card."""
        try:
            return self._stack.pop()
        except IndexError:
            self._run_dry()
            return self._stack.pop()

    def _run_dry(self) -> None:
        if self.refill:  # the contest: append a fresh shuffled deck
            fresh = list(DECK)
            self._shuffle(fresh)
            self._deal_from(fresh, 0)
            self._round_start = 0
            self.decks_added += 1
            return
        in_play = self._cards[self._round_start : self._pos]
        discards = self._cards[: self._round_start]
        if not discards:
            raise ShoeRanOut("the shoe ran out of cards in one round; use more decks")
        self._shuffle(discards)
        self._deal_from(in_play + discards, len(in_play))
        self._round_start = 0
        self.shuffles += 1


def _card(code: object) -> bool:
    return isinstance(code, int) and not isinstance(code, bool) and 0 <= code < len(DECK)


def _count(state: Mapping[str, Any], key: str, most: int | None) -> int:
    """``state[key]``: a whole number from 0 (to ``most``), else a one-line error."""
    value = state.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CroupierError(f"the saved shoe's {key} is not a count: {value!r}")
    if most is not None and value > most:
        raise CroupierError(f"the saved shoe's {key} ({value}) is past its {most} cards")
    return value


class ShoeRandomizer:
    """A shoe seen as a randomizer of card codes: it reshuffles (or refills) the moment it
    is due, card by card, so dealing ``a`` then ``b`` cards equals dealing ``a + b``."""

    symbols: tuple[str, ...] = CODES

    def __init__(self, shoe: Shoe) -> None:
        self.shoe = shoe

    def deal(self, n: int) -> list[str]:
        """The next ``n`` cards' codes: as if drawn one by one, the shoe started again
        before a card whenever it is empty or (a casino shoe) its cut card is out; dealt
        a run at a time, every card between two shuffles in one slice of the shoe, and a
        big batch's whole shoes shuffled and dealt in one compiled loop (:meth:`_bulk`)."""
        out: list[str] = []
        shoe = self.shoe
        casino = shoe.kind == "casino"
        stack = shoe._stack
        while len(out) < n:
            if not stack or (casino and shoe.due()):
                per = self._per_shoe()
                if per and n - len(out) >= max(COMPILED_FROM, 2 * per):
                    out += self._bulk((n - len(out)) // per, per)
                    continue
                shoe.start_round()
            if not stack:  # a shoe that refills: draw() adds the fresh deck
                out.append(CODES[shoe.draw()])
                continue
            run = min(n - len(out), len(stack))
            if casino:
                run = min(run, shoe._cut - shoe._pos)
            cards = stack[-run:]
            del stack[-run:]
            cards.reverse()
            out += map(CODES.__getitem__, cards)
        return out

    def _per_shoe(self) -> int:
        """Cards dealt from each new arrangement (a casino shoe's cut, else all of it), or
        0 where :meth:`_bulk` cannot stand in for the next one: a shoe with its own
        shuffler, or a contest deck's very first shuffle (of all its decks)."""
        shoe = self.shoe
        if shoe.shuffler is not None or (shoe.refill and shoe.shuffles == 0):
            return 0
        if shoe.kind == "casino":
            return shoe._cut
        return len(DECK) if shoe.refill else len(DECK) * shoe.decks

    def _bulk(self, shoes: int, per: int) -> list[str]:
        """``shoes`` new arrangements, ``per`` cards dealt from each, as :meth:`deal` would
        shuffle and deal them one at a time; the shoe is left holding the last one."""
        shoe = self.shoe
        stream = shoe._stream
        deck = np.array(DECK if shoe.refill else DECK * shoe.decks, np.int64)
        size = len(deck)
        out = np.empty(shoes * per, np.int64)
        last = np.empty(size, np.int64)
        loop = compiled(shuffle_runs)
        done, spare = 0, 64
        while done < shoes:
            start = stream.position
            want = (shoes - done) * (size + 8) + spare
            words = np.frombuffer(stream.randbytes(4 * want), "<u4").astype(np.int64)
            did, used = loop(words, deck, per, shoes - done, out[done * per :], last)
            stream.seek(start + 4 * used)
            done += did
            spare = 64 if did else 2 * spare  # a shuffle of many rejections needs more
        shoe._deal_from(last.tolist(), per)
        shoe._round_start = 0
        if shoe.refill:
            shoe.decks_added += shoes
        else:
            shoe.shuffles += shoes
        return symbols_of(CODES, out)
