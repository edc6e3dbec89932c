"""Shoes: Fisher-Yates on the seeded stream, cut cards, the contest deck, fresh packs."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from croupier.engine import CroupierError, Stream
from croupier.engine.cards import CODES, DECK
from croupier.engine.loops import COMPILED_FROM, compiled
from croupier.engine.shoe_loops import shuffle_runs
from croupier.engine.shoes import Shoe, ShoeRandomizer, shuffle_cards
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.shoe import make_shoe


def test_shuffle_is_a_permutation_and_reproducible():
    a = list(DECK) * 2
    b = list(DECK) * 2
    shuffle_cards(a, Stream(7))
    shuffle_cards(b, Stream(7))
    assert a == b
    assert sorted(a) == sorted(list(DECK) * 2)
    assert a != list(DECK) * 2


def test_shuffle_golden():
    deck = list(DECK)
    shuffle_cards(deck, Stream(1))
    assert [CODES[c] for c in deck[:8]] == GOLDEN_FIRST_EIGHT


GOLDEN_FIRST_EIGHT = ["3H", "AH", "6D", "2H", "9S", "KC", "7H", "TD"]


def test_shuffle_of_three_is_uniform():
    # 6 permutations, 6000 shuffles: each count within 5 sigma of 1000 (sigma ~ 29).
    stream = Stream(3)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        shuffle_cards(items, stream)
        counts[tuple(items)] += 1
    assert len(counts) == 6
    assert all(abs(n - 1000) < 150 for n in counts.values())


def test_casino_shoe_reshuffles_after_the_cut_card():
    shoe = Shoe(Stream(1), decks=1, penetration=0.5)
    assert shoe.start_round() is True  # a new shoe is shuffled first
    for _ in range(25):
        shoe.draw()
    assert shoe.start_round() is False
    shoe.draw()
    assert shoe.start_round() is True
    assert shoe.shuffles == 2
    assert shoe.remaining == 52


def test_a_dry_shoe_reshuffles_only_the_discards():
    shoe = Shoe(Stream(2), decks=1, penetration=1.0)
    shoe.start_round()
    first = [shoe.draw() for _ in range(40)]
    assert shoe.start_round() is False
    in_play = [shoe.draw() for _ in range(12)]
    more = [shoe.draw() for _ in range(30)]  # runs dry: the 40 discards come back
    assert sorted(more + [c for c in first if c not in more]) == sorted(first)
    assert not set(more) & set(in_play)


def test_koth_deck_is_refilled_mid_hand():
    shoe = make_shoe(BlackjackRules(shoe="koth", decks=1), Stream(4))
    shoe.start_round()
    dealt = [shoe.draw() for _ in range(52)]
    assert sorted(dealt) == list(DECK)
    assert shoe.start_round() is False  # no reshuffle between rounds
    assert shoe.decks_added == 0
    shoe.draw()
    assert shoe.decks_added == 1


def test_fresh_pack_every_round():
    shoe = make_shoe(BlackjackRules(shoe="fresh-pack", decks=1), Stream(5))
    assert shoe.start_round() and shoe.start_round()
    assert shoe.remaining == 52


def test_infinite_deck_cannot_be_dealt():
    with pytest.raises(CroupierError, match="finite"):
        make_shoe(BlackjackRules(decks=None), Stream(1))


@pytest.mark.parametrize("name", ["casino-shoe", "koth-shoe", "fresh-pack-shoe"])
def test_shoe_randomizers_batch_freely(manager, name):
    whole = manager.randomizer(name, Stream(9)).deal(400)
    parts = manager.randomizer(name, Stream(9))
    assert parts.deal(150) + parts.deal(250) == whole
    assert set(whole) <= set(CODES)
    assert isinstance(manager.randomizer(name, Stream(9)), ShoeRandomizer)


def one_by_one(shoe: Shoe, n: int) -> list[str]:
    """The definition: before each card, the shoe starts again when it is empty or (a
    casino shoe) its cut card is out; then one card is drawn."""
    out = []
    for _ in range(n):
        if shoe.remaining == 0 or (shoe.kind == "casino" and shoe.due()):
            shoe.start_round()
        out.append(CODES[shoe.draw()])
    return out


@pytest.mark.parametrize("name", ["casino-shoe", "koth-shoe", "fresh-pack-shoe"])
@pytest.mark.parametrize("sizes", [[5000], [1, 2, 3, 233, 1, 79, 400, 0, 52], [311, 1, 312, 624]])
def test_a_shoe_randomizer_deals_as_one_card_at_a_time(manager, name, sizes):
    """Dealt a run at a time (every card between two shuffles in one slice), a shoe
    randomizer deals exactly the cards of drawing them one by one, whatever the batches."""
    runs = manager.randomizer(name, Stream(17))
    reference = manager.randomizer(name, Stream(17)).shoe
    for size in sizes:
        assert runs.deal(size) == one_by_one(reference, size)
    assert runs.shoe.shuffles == reference.shuffles > 0


def test_shuffle_follows_its_definition():
    # The last position takes the card at j = (w * 52) >> 32, w the stream's first 32-bit
    # little-endian word (w is far from the rejection zone for this seed).
    w = int.from_bytes(Stream(1).randbytes(4), "little")
    assert (w * 52) & 0xFFFFFFFF >= (1 << 32) % 52
    deck = list(DECK)
    shuffle_cards(deck, Stream(1))
    assert deck[51] == (w * 52) >> 32


@pytest.mark.parametrize("name", ["casino-shoe", "koth-shoe", "fresh-pack-shoe"])
def test_a_big_batch_deals_whole_shoes_as_one_card_at_a_time(manager, name):
    """A batch of COMPILED_FROM cards or more shuffles and deals whole shoes in one
    compiled loop (engine/shoe_loops.py): the cards of drawing them one by one, and the
    shoe left exactly as one-by-one dealing leaves it (its arrangement, counters and
    stream position), so what follows is the same too."""
    bulk = manager.randomizer(name, Stream(23))
    reference = manager.randomizer(name, Stream(23)).shoe
    for size in (7, COMPILED_FROM + 321, 5, COMPILED_FROM * 2):
        assert bulk.deal(size) == one_by_one(reference, size)
        assert bulk.shoe.save() == reference.save()
    assert bulk.shoe.decks_added == reference.decks_added


class Words:
    """A stand-in stream that serves fixed 32-bit words (as little-endian bytes)."""

    def __init__(self, words: list[int]) -> None:
        self.data = b"".join(w.to_bytes(4, "little") for w in words)
        self.position = 0

    def randbytes(self, n: int) -> bytes:
        out = self.data[self.position : self.position + n]
        self.position += n
        return out


@pytest.mark.parametrize("zeros", [0, 3, 11, 75, 140])
@pytest.mark.parametrize("fast", [False, True])
def test_bulk_shuffles_reject_and_read_on_as_shuffle_cards_does(zeros, fast):
    """A zero word is in the biased zone of every bound but a power of two, so a run of
    them makes the shuffle reject, past the n + 8 words it reads first and past further
    reads of 64: the bulk loop (as Python and compiled) uses the words shuffle_cards uses."""
    words = [0] * zeros + [(2654435761 * i) & 0xFFFFFFFF for i in range(1, 1200)]
    deck = list(range(7))
    expected_cards, ends = [], []
    source = Words(words)
    for _ in range(3):
        cards = list(deck)
        shuffle_cards(cards, source)  # type: ignore[arg-type]
        expected_cards += cards[:5]
        ends.append(source.position // 4)
    loop = compiled(shuffle_runs) if fast else shuffle_runs
    arrays = (np.array(words, np.int64), np.array(deck, np.int64)) if fast else (words, deck)
    out: list[int] | np.ndarray = np.zeros(15, np.int64) if fast else [0] * 15
    last: list[int] | np.ndarray = np.zeros(7, np.int64) if fast else [0] * 7
    assert tuple(loop(*arrays, 5, 3, out, last)) == (3, ends[-1])
    assert list(out) == expected_cards
    short = arrays[0][: ends[1] + 3]  # the third shuffle's words are not all there
    assert tuple(loop(short, arrays[1], 5, 3, out, last)) == (2, ends[1])
