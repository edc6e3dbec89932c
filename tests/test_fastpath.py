"""The fast path's shortcuts change nothing: shuffles, the shoe's C-level take, hand values
kept card by card, and both flows when a shoe runs dry in the middle of a round."""

from __future__ import annotations

import trio
from bjtable import blackjack_table, round_core, strategy_seat
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine import PluginManager, Stream
from croupier.engine.cards import DECK
from croupier.engine.shoes import Shoe, shuffle_cards
from croupier.plugins.blackjack.building import build_core
from croupier.plugins.blackjack.hands import Hand
from croupier.plugins.blackjack.simulate import run_rounds
from croupier.plugins.blackjack.values import hand_value

MANAGER = PluginManager(autoload=False)


class WordStream:
    """A stand-in stream: the given 32-bit words first (little-endian), then a real
    stream's bytes, so a test can force words into the rejection zone."""

    def __init__(self, words: list[int], seed: int) -> None:
        self.head = b"".join(w.to_bytes(4, "little") for w in words)
        self.tail = Stream(seed)

    def randbytes(self, n: int) -> bytes:
        out, self.head = self.head[:n], self.head[n:]
        return out + self.tail.randbytes(n - len(out))


def reference_shuffle(cards: list[int], stream: WordStream) -> int:
    """Fisher-Yates from the last position down, one word at a time, exactly as
    docs/tables.md defines it (the first n + 8 words are read in one go); returns how many
    words were rejected."""
    n = len(cards)
    data = stream.randbytes(4 * (n + 8))
    words = [int.from_bytes(data[k : k + 4], "little") for k in range(0, len(data), 4)]
    rejected = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        while True:
            if not words:
                more = stream.randbytes(4 * 64)
                words = [int.from_bytes(more[k : k + 4], "little") for k in range(0, 256, 4)]
            m = words.pop(0) * bound
            if (m & 0xFFFFFFFF) >= (1 << 32) % bound:
                break
            rejected += 1
        j = m >> 32
        cards[i], cards[j] = cards[j], cards[i]
    return rejected


def accepted_near_the_zone(bound: int) -> int:
    """A word ``w`` with ``w * bound mod 2**32`` in ``[2**32 % bound, bound)``: close
    enough to the biased zone to be checked, but accepted."""
    threshold = (1 << 32) % bound
    for k in range(1, bound):
        w = ((k << 32) + threshold + bound - 1) // bound
        if threshold <= (w * bound) & 0xFFFFFFFF < bound:
            return w
    raise AssertionError(bound)


def test_shuffle_follows_the_reference_even_when_words_are_rejected():
    rejected = 0
    for seed, n in [(1, 0), (2, 1), (3, 2), (4, 3), (5, 52), (6, 312), (7, 3328)]:
        # word 0 pairs with the last position: 0 falls in every bound's biased zone (the
        # bounds are not powers of two) and is rejected; word 1 is then checked and kept
        head = [0, accepted_near_the_zone(n), 0xFFFFFFFF, 7] if n > 8 else []
        mine, ref = list(range(n)), list(range(n))
        a, b = WordStream(head, seed), WordStream(head, seed)
        shuffle_cards(mine, a)  # type: ignore[arg-type]
        rejected += reference_shuffle(ref, b)
        assert mine == ref
        assert a.randbytes(16) == b.randbytes(16)  # the same number of words consumed
    assert rejected >= 2


def _drain(shoe: Shoe, rounds: int, per_round: int, use_take: bool) -> list[int]:
    out = []
    for _ in range(rounds):
        shoe.start_round()
        for _ in range(per_round):
            if use_take:
                try:
                    out.append(shoe.take())
                except IndexError:
                    out.append(shoe.draw())
            else:
                out.append(shoe.draw())
    return out


def test_take_deals_exactly_what_draw_deals():
    for kwargs in [
        {"decks": 2, "penetration": 0.75},
        {"decks": 1, "penetration": 1.0},  # runs dry mid-round: the discards come back
        {"decks": 1, "refill": True, "kind": "koth"},  # a fresh deck is added when empty
        {"decks": 1, "every_round": True, "kind": "fresh-pack"},
    ]:
        by_draw, by_take = Shoe(Stream(8), **kwargs), Shoe(Stream(8), **kwargs)
        cards = _drain(by_draw, 40, 11, use_take=False)
        assert _drain(by_take, 40, 11, use_take=True) == cards
        assert (by_take.shuffles, by_take.decks_added, by_take.remaining) == (
            by_draw.shuffles,
            by_draw.decks_added,
            by_draw.remaining,
        )
    empty = Shoe(Stream(1))
    try:
        empty.take()
    except IndexError:
        pass
    else:
        raise AssertionError("an unshuffled shoe has nothing to take")


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=7), split=st.booleans())
def test_hand_keeps_its_value_card_by_card(cards, split):
    hand = Hand(10, split=split)
    for i, c in enumerate(cards):
        hand.add(c)
        value = hand_value(cards[: i + 1], split=split)
        assert (hand.total, hand.soft, hand.natural) == (value.total, value.soft, value.natural)
    if len(cards) == 2:
        second = hand.split_off()
        assert second == cards[1] and hand.cards == cards[:1] and hand.split
        value = hand_value(cards[:1], split=True)
        assert (hand.total, hand.soft, hand.natural) == (value.total, value.soft, False)
        hand.add(second)
        assert not hand.natural


def test_both_flows_agree_when_the_shoe_runs_dry_mid_round():
    rules = MANAGER.rule_sets.get("vegas-s17").rules.evolve(decks=1, penetration=1.0)
    strategy = MANAGER.strategies.get("never-bust")
    chips = [10**6] * 7
    shuffles: list[int] = []
    table = blackjack_table(
        MANAGER,
        rules,
        6,
        [strategy_seat(strategy)] * 7,
        chips=chips,
        listeners=[lambda e: shuffles.append(e["round"]) if e["kind"] == "shuffle" else None],
    )
    trio.run(table.play, 60)
    assert round_core(table).shoe.shuffles > len(shuffles)  # some shuffles happened mid-round
    core = build_core(MANAGER, rules, 6, chips)
    run_rounds(core, [strategy] * 7, 60)
    assert core.ledger.entries == table.ledger.entries
    assert core.shoe.shuffles == round_core(table).shoe.shuffles
    assert core.ledger.conserved()


def test_a_copied_or_unpickled_table_deals_from_its_own_shoe():
    import copy
    import pickle

    rules = MANAGER.rule_sets.get("vegas-s17").rules.evolve(decks=1)
    strategy = MANAGER.strategies.get("lim17")
    core = build_core(MANAGER, rules, 9, [10**6])
    run_rounds(core, [strategy], 7)  # mid-shoe
    copies = [copy.deepcopy(core), pickle.loads(pickle.dumps(core))]
    for other in copies:
        assert other.shoe.take.__self__ is not core.shoe.take.__self__
    run_rounds(core, [strategy], 30)
    for other in copies:
        run_rounds(other, [strategy], 30)
        assert other.ledger.entries == core.ledger.entries
        assert other.shoe.shuffles == core.shoe.shuffles
