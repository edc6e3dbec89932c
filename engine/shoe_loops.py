"""A card shoe's shuffles in bulk: many shoes shuffled and dealt in one compiled loop.

:func:`shuffle_runs` shuffles exactly as :func:`croupier.engine.shoes.shuffle_cards` does
and reads the stream's 32-bit words in the same order (``len(cards) + 8`` words a shuffle,
64 more each time a run of rejections uses them up), so a randomizer that deals a million
cards from a shoe this way deals the cards one-by-one dealing would, and leaves the stream
where it would be. It is plain Python, compiled by :func:`croupier.engine.loops.compiled`.
"""

from __future__ import annotations

from typing import Any

Ints = Any
"""An integer array (compiled), or a list of ints."""

_MASK = 0xFFFFFFFF
_SPAN = 1 << 32


def shuffle_runs(words: Ints, deck: Ints, per: int, shuffles: int, out: Ints, last: Ints) -> Ints:
    """Up to ``shuffles`` shuffles of ``deck``, one after another on ``words``, the first
    ``per`` cards of each written to ``out`` (shuffle after shuffle). ``last`` receives the
    whole arrangement of the last shuffle done. Returns ``(shuffles done, words used)``: a
    shuffle the words run out in is not done (the caller reads more and comes back)."""
    n = len(deck)
    cards = deck.copy()
    have = len(words)
    p = 0  # where the next shuffle's words start
    for s in range(shuffles):
        for i in range(n):
            cards[i] = deck[i]
        k = p
        limit = p + n + 8  # the words one shuffle reads up front
        if limit > have:
            return s, p
        for i in range(n - 1, 0, -1):
            bound = i + 1
            if k == limit:
                limit += 64  # the stream's next 64 words, as shuffle_cards reads them
                if limit > have:
                    return s, p
            m = words[k] * bound
            k += 1
            if (m & _MASK) < bound:  # maybe in the biased zone: reject below 2**32 % bound
                threshold = _SPAN % bound
                while (m & _MASK) < threshold:
                    if k == limit:
                        limit += 64
                        if limit > have:
                            return s, p
                    m = words[k] * bound
                    k += 1
            j = m >> 32
            cards[i], cards[j] = cards[j], cards[i]
        base = s * per
        for i in range(per):
            out[base + i] = cards[i]
        p = limit
        if s == shuffles - 1:
            for i in range(n):
                last[i] = cards[i]
    return shuffles, p
