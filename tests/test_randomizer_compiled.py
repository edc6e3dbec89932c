"""Big batches deal through compiled loops (engine/loops.py), small ones in Python: the
same seed must deal the same pieces, and count the same roll failures, either way."""

from __future__ import annotations

import pytest

from croupier.engine import PluginManager, Stream
from croupier.engine.draws import UniformDraws
from croupier.engine.loops import COMPILED_FROM

PM = PluginManager(autoload=False)
NAMES = sorted(kind.name for kind in PM.randomizers)
SPECS = [
    "3 bag of A,B,C,D,E,F,G,H,I,J,K,L,M",  # 13! > 2**32: sampled bags
    "bag of A,B,C first D",
    "A,B,C,D with 2 history first Q",  # Q enters the history and blocks nothing
    "A,A,B,C with 2 history 2 rolls",
    "A,B,C,D,E,F,G,H,I,J with 3 history 7 rolls starting A,B,C first X,A",  # 10**7 draws
]
BIG = COMPILED_FROM + 4_321


def counters(r: object) -> tuple[object, ...]:
    inner = getattr(r, "inner", None)
    return tuple(
        getattr(r, name, getattr(inner, name, None)) for name in ("roll_failures", "six_rejections")
    )


@pytest.mark.parametrize("spec", [*NAMES, *SPECS])
def test_one_big_batch_deals_what_small_batches_deal(spec: str) -> None:
    whole = PM.randomizer(spec, Stream(11))
    parts = PM.randomizer(spec, Stream(11))
    small = COMPILED_FROM // 4 - 1
    first = whole.deal(3) + whole.deal(BIG)  # the first piece alone, then compiled
    pieces = parts.deal(3)
    while len(pieces) < len(first):
        pieces += parts.deal(min(small, len(first) - len(pieces)))
    assert pieces == first
    assert counters(whole) == counters(parts)
    # and both carry on from the same state
    assert whole.deal(50) == parts.deal(50)
    assert whole.deal(BIG) == parts.deal(BIG)


def test_peek_and_advance_hand_out_the_draws_in_order() -> None:
    expected = UniformDraws(Stream(3), 35).take(10_000)
    draws = UniformDraws(Stream(3), 35)
    got: list[int] = []
    while len(got) < 10_000:
        ahead = draws.peek(7)
        assert len(ahead) >= 7
        used = min(len(ahead), 1_234, 10_000 - len(got))
        got += ahead[:used].tolist()
        draws.advance(used)
    assert got == expected
    with pytest.raises(ValueError):
        draws.advance(len(draws.peek(1)) + 1)
