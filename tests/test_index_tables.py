"""Index tables: the CSV the simulator reads, and the published Hi-Lo sets shipped as data."""

from __future__ import annotations

import pytest

from croupier.engine import CroupierError
from croupier.plugins.blackjack.indexsets import PUBLISHED, published_indices
from croupier.plugins.blackjack.indices import IndexEntry, read_indices, write_indices


def test_published_sets_load():
    i18 = published_indices("hilo-i18")
    fab4 = published_indices("hilo-fab4")
    assert len(i18) == 18 and len(fab4) == 4
    assert IndexEntry("insurance", "any", "A", 3.0, "+") in i18
    assert IndexEntry("stand", "16", "T", 0.0, "+") in i18
    assert {e.decision for e in fab4} == {"surrender"}
    assert [p[0] for p in PUBLISHED] == ["hilo-i18", "hilo-fab4", "hilo-6d-s17"]
    generated = published_indices("hilo-6d-s17")
    assert len(generated) > 100 and {e.key for e in i18 + fab4} <= {e.key for e in generated}


def test_round_trip_and_takes():
    entries = [
        IndexEntry("stand", "12", "4", 0.0, "+"),
        IndexEntry("hit", "s18", "2", -1.5, "-"),
        IndexEntry("split", "TT", "6", 4.0, "+"),
    ]
    text = write_indices(entries, comments=["generated"])
    assert text.startswith("# generated\ndecision,hand,upcard,index,direction\n")
    assert "stand,12,4,0,+" in text and "hit,s18,2,-1.5,-" in text
    assert read_indices(text) == entries
    assert entries[0].takes(0) and not entries[0].takes(-1)
    assert entries[1].takes(-2) and not entries[1].takes(-1)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("fold,16,T,0,+", "decision"),
        ("stand,23,T,0,+", "hand"),
        ("stand,16,X,0,+", "upcard"),
        ("stand,16,T,zero,+", "could not convert"),
        ("stand,16,T,0,up", "direction"),
        ("insurance,any,T,3,+", "insurance"),
        ("stand,16,T,0", "fields"),
    ],
)
def test_bad_rows_are_refused_by_line(row, message):
    with pytest.raises(CroupierError, match=message):
        read_indices(f"decision,hand,upcard,index,direction\n{row}\n")


def test_duplicates_and_header():
    with pytest.raises(CroupierError, match="twice"):
        read_indices("decision,hand,upcard,index,direction\nstand,16,T,0,+\nstand,16,T,1,+\n")
    with pytest.raises(CroupierError, match="header"):
        read_indices("a,b\n")
