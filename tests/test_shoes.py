"""Shoes: Fisher-Yates on the seeded stream, cut cards, the contest deck, fresh packs."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine import CroupierError, Stream
from croupier.engine.cards import CODES, DECK
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
