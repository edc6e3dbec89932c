"""The Blackjack language: grammar, errors, semantics, presets and batching."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import roll_probabilities

from croupier.engine import SpecError, Stream
from croupier.engine.cards import card, code
from croupier.plugins.blackjack_spec import PRESETS, compile_spec
from croupier.plugins.blackjack_spec.parser import Spec, parse_spec
from croupier.plugins.blackjack_spec.randomizers import HistoryRandomizer

TETS = "I,J,L,O,S,T,Z"


def deal(text: str, n: int, seed: int = 1) -> list[str]:
    return compile_spec(text)(Stream(seed)).deal(n)


# -- grammar --------------------------------------------------------------------------------
def test_every_form_parses_to_what_it_says():
    assert parse_spec("I, J ,L") == Spec("list", ("I", "J", "L"))
    assert parse_spec("bag of I,J") == Spec("bag", ("I", "J"), count=2)
    assert parse_spec("1 bag of I,J") == Spec("bag", ("I", "J"), count=1)
    assert parse_spec("sequence of S,Z") == Spec("sequence", ("S", "Z"))
    assert parse_spec("I,J,L with 2 history") == Spec("list", ("I", "J", "L"), history=2)
    assert parse_spec("I,J with 4 history 6 rolls starting I,I,J,J first J") == Spec(
        "list", ("I", "J"), history=4, rolls=6, starting=("I", "I", "J", "J"), first=("J",)
    )
    assert parse_spec("bag of H10,SA,I2 first L3").first == ("L3",)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("bag of", "expected a piece in the bag, found the end of the spec", 7),
        ("I,,J", "expected a piece in the list, found ','", 3),
        ("I J", "expected ',', 'with', 'first' or the end", 3),
        ("I,J with 4 histroy", "expected 'history', found 'histroy'", 12),
        ("0 bag of I,J", "a bag of 2 can deal 1 to 2 pieces", 1),
        ("3 bag of I,J", "a bag of 2 can deal 1 to 2 pieces before reshuffling, not 3", 1),
        ("I,J with 2 history", "a history of 2 blocks all 2 entries", 10),
        ("I,J with 1 history 0 rolls", "the number of rolls must be between 1 and 256", 20),
        ("I,J with 1 history 99999999999999999999 rolls", "between 1 and 256", 20),
        ("I,J with 9999 history 2 rolls", "the history length must be between 0 and 256", 10),
        ("I,J with 2 history 3 rolls starting I", "the starting history has 1 pieces", 37),
        ("I,J with 1 history starting Q", "'Q' in the starting history is not in the list", 29),
        ("bag of I,J with 1 history", "'with N history' applies to a plain list", 12),
        ("of", "found the keyword 'of'", 1),
        ("I,J,ü", "expected a piece in the list, found 'ü'", 5),
        ("I,J first", "expected a piece in the first list", 10),
        ("sequence I,J", "expected 'of', found 'I'", 10),
        ("I,J with history", "expected the history length (a number), found 'history'", 10),
    ],
)
def test_bad_specs_point_at_the_column(text, message, column):
    with pytest.raises(SpecError) as info:
        parse_spec(text)
    assert message in str(info.value)
    assert info.value.position == column - 1
    assert f"at column {column} of" in str(info.value)
    assert "\n" not in str(info.value)


def test_empty_text_and_huge_lists_are_refused():
    with pytest.raises(SpecError, match="empty"):
        parse_spec("   ")
    with pytest.raises(SpecError, match="more than 65536 entries"):
        parse_spec(",".join(["I"] * 65_537))


WORDS = ["bag", "of", "sequence", "with", "history", "rolls", "first", "starting", "I", "J"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.lists(
            st.one_of(
                st.sampled_from([*WORDS, ",", " ", "0", "3", "7", "300"]), st.text(max_size=3)
            ),
            max_size=14,
        ).map(" ".join),
    )
)
def test_random_text_is_parsed_or_refused_cleanly(text):
    try:
        spec = parse_spec(text)
    except SpecError as exc:
        assert "\n" not in str(exc)
        assert exc.position is None or 0 <= exc.position <= len(text)
        return
    randomizer = compile_spec(text)(Stream(0))
    whole = randomizer.deal(50)
    assert len(whole) == 50
    assert set(randomizer.symbols) >= set(whole) | set(spec.entries)
    again = compile_spec(text)(Stream(0))
    assert again.deal(17) + again.deal(33) == whole


# -- semantics ------------------------------------------------------------------------------
def test_a_bag_deals_each_entry_once_then_reshuffles():
    pieces = deal(f"bag of {TETS}", 7 * 300)
    bags = [tuple(pieces[i : i + 7]) for i in range(0, len(pieces), 7)]
    assert all(sorted(bag) == sorted(TETS.split(",")) for bag in bags)
    assert len(set(bags)) > 250  # reshuffled every time


@pytest.mark.parametrize("count", [14, 7, 1])
def test_long_bags_use_a_partial_shuffle_that_stays_uniform(count):
    """14! > 2**32, so these bags take the partial Fisher-Yates path."""
    whole = Counter("IIJJLLOOSSTTZZ")
    pieces = deal(f"{count} bag of I,I,J,J,L,L,O,O,S,S,T,T,Z,Z", count * 4000)
    for i in range(0, len(pieces), count):
        assert not Counter(pieces[i : i + count]) - whole
    firsts = Counter(pieces[::count])
    assert all(abs(firsts[p] / 4000 - 1 / 7) < 0.025 for p in "IJLOSTZ")


def test_n_bag_deals_part_of_a_fresh_bag():
    whole = sorted(["I", "T", "J", "J", "L", "L", "O", "O", "S", "S", "S", "Z", "Z", "Z"])
    pieces = deal("5 bag of I,T,J,J,L,L,O,O,S,S,S,Z,Z,Z", 5 * 400)
    for i in range(0, len(pieces), 5):
        assert not Counter(pieces[i : i + 5]) - Counter(whole)
    assert Counter(pieces)["S"] > Counter(pieces)["I"] * 2


def test_sequence_cycles_and_draws_nothing():
    assert deal("sequence of S,Z,T", 7) == ["S", "Z", "T", "S", "Z", "T", "S"]
    r = compile_spec("sequence of S,Z,T")(Stream(0))
    assert r.deal(2) + r.deal(5) == ["S", "Z", "T", "S", "Z", "T", "S"]


def test_history_without_rolls_never_deals_a_recent_entry():
    pieces = deal(f"{TETS} with 3 history", 20_000)
    for i in range(len(pieces) - 3):
        assert len(set(pieces[i : i + 4])) == 4


def test_repeated_entries_are_separate_pieces_for_the_history():
    pieces = deal("I,I,J with 1 history", 3000)
    pairs = Counter(pairwise(pieces))
    assert pairs[("I", "I")] > 0  # the other I entry is not blocked
    assert pairs[("J", "J")] == 0


def test_first_piece_comes_from_the_first_list():
    firsts = Counter(deal(f"{TETS} first I,J,L,T", 1, seed)[0] for seed in range(400))
    assert set(firsts) == {"I", "J", "L", "T"}


def test_first_does_not_use_a_bag_slot():
    for seed in range(50):
        pieces = deal("bag of I,J,L first O", 7, seed)
        assert pieces[0] == "O"
        assert sorted(pieces[1:4]) == ["I", "J", "L"]
        assert sorted(pieces[4:7]) == ["I", "J", "L"]


def test_first_piece_enters_the_history():
    for seed in range(50):
        assert deal("I,J with 1 history first I", 2, seed) == ["I", "J"]


def test_starting_history_blocks_the_first_deals():
    for seed in range(100):
        assert deal("I,J,L with 2 history starting I,J", 1, seed) == ["L"]


def test_without_starting_the_history_starts_empty():
    seen = Counter(deal("I,J,L with 2 history", 1, seed)[0] for seed in range(300))
    assert set(seen) == {"I", "J", "L"}


@pytest.mark.parametrize("size", [1, 2, 3, 7])
@pytest.mark.parametrize("rolls", [1, 2, 4, 6])
def test_roll_tables_equal_the_literal_roll_rule(size, rolls):
    """The precomputed counts are exactly the distribution of rolling literally."""
    entries = [f"P{i}" for i in range(size)]
    r = HistoryRandomizer(Stream(0), entries, history=4, rolls=rolls)
    for b in range(size + 1):
        for blocked in combinations(range(size), b):
            weights = r.weights(tuple(blocked))
            assert sum(weights) == size**rolls
            exact = roll_probabilities(size, frozenset(blocked), rolls)
            assert [Fraction(w, size**rolls) for w in weights] == exact


def test_roll_failures_are_counted_exactly_when_the_dealt_entry_was_in_the_history():
    r = compile_spec(f"{TETS} with 4 history 2 rolls")(Stream(4))
    assert isinstance(r, HistoryRandomizer)
    pieces = r.deal(5000)
    fails = sum(p in pieces[max(0, i - 4) : i] for i, p in enumerate(pieces))
    assert r.roll_failures == fails > 0


def test_a_first_history_spec_reports_roll_failures():
    r = compile_spec(f"{TETS} with 4 history 6 rolls first I")(Stream(4))
    r.deal(2000)
    assert r.roll_failures > 0  # type: ignore[attr-defined]


# -- presets and batching -------------------------------------------------------------------
def test_every_wiki_example_is_a_preset(manager):
    names = {name for name, _, _ in PRESETS}
    assert names == {
        "7-bag", "14-bag", "14-bag-halfway", "memoryless", "memoryless-small",
        "memoryless-hard", "szsz", "move-to-back", "szsz-alternating", "lardarse", "euchre",
        "tgm1-spec", "tgm2-spec",
    }  # fmt: skip
    for name, _, text in PRESETS:
        kind = manager.randomizers.get(name)
        assert kind.spec == text
        assert kind.factory(Stream(3)).deal(40) == compile_spec(text)(Stream(3)).deal(40)
    hard = Counter(manager.randomizer("memoryless-hard", Stream(0)).deal(100_000))
    assert abs(hard["I"] / 100_000 - 0.10) < 0.005
    assert manager.randomizer("szsz-alternating", Stream(0)).deal(4) in (
        ["S", "Z", "S", "Z"],
        ["Z", "S", "Z", "S"],
    )
    euchre = manager.randomizer("euchre", Stream(0))
    assert len(euchre.symbols) == 24
    # croupier's card codes (rank first, T for ten): each symbol is a card of 9 to ace
    assert {code(card(c)) for c in euchre.symbols} == set(euchre.symbols)
    assert {c[0] for c in euchre.symbols} == set("9TJQKA")
    assert euchre.symbols[:2] == ("9S", "TS")


def test_every_randomizer_deals_the_same_however_it_is_batched(manager):
    for name in manager.randomizers.names():
        whole = manager.randomizer(name, Stream(11)).deal(3000)
        r = manager.randomizer(name, Stream(11))
        parts = r.deal(0) + r.deal(1) + r.deal(6) + r.deal(993) + r.deal(2000)
        assert parts == whole, name
        assert set(whole) <= set(r.symbols), name


GOLDEN = {
    "7-bag": "T J Z I O S L J L S O Z T I",
    "memoryless": "Z Z J T Z Z Z O S L L O S O",
    "14-bag": "L Z T I I T L J O Z J S S O",
    "tgm1-spec": "T I O L S J T O L S J Z O L",
    "tgm2-spec": "T I O L Z T J S I L T O J I",
    "move-to-back": "Z J T O S L Z I O T J S I L",
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_sequences(manager, name):
    """Same seed, same pieces, on every platform and version."""
    assert " ".join(manager.randomizer(name, Stream(1)).deal(14)) == GOLDEN[name]
