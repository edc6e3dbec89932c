"""Count systems: the built-ins' tags, the true count, a third-party count's check."""

from __future__ import annotations

import pytest

from croupier.engine import CroupierError, PluginManager, hookimpl
from croupier.engine.counts import (
    CountSystem,
    check_count_system,
    decks_remaining,
    round_count,
    true_count,
)
from croupier.engine.plugincheck import check_plugins
from croupier.plugins.counts import COUNTS

BY_NAME = {c.name: c for c in COUNTS}


def test_builtins_are_listed_and_pass_their_check():
    manager = PluginManager(autoload=False)
    assert set(manager.count_systems.names()) >= {
        "hilo", "ko", "hiopt1", "hiopt2", "omega2", "zen", "halves", "red7"
    }  # fmt: skip
    assert check_plugins(manager, "counts") == []
    for system in COUNTS:
        assert check_count_system(system) == []


def test_deck_sums_from_the_tags():
    sums = {c.name: c.deck_sum() for c in COUNTS}
    assert sums == {
        "hilo": 0, "ko": 4, "hiopt1": 0, "hiopt2": 0, "omega2": 0, "zen": 0, "halves": 0,
        "red7": 2,
    }  # fmt: skip
    assert BY_NAME["ko"].irc(6) == -20 and BY_NAME["ko"].irc(1) == 0
    assert BY_NAME["red7"].irc(6) == -12


def test_red_seven_counts_by_suit():
    tags = BY_NAME["red7"].card_tags()
    sevens = {"S": tags[24], "H": tags[25], "D": tags[26], "C": tags[27]}
    assert sevens == {"S": 0, "H": 1, "D": 1, "C": 0}
    assert tags[0:4] == (-1,) * 4 and tags[36:52] == (-1,) * 16
    classes = BY_NAME["red7"].tag_classes()
    assert (6, 2, 1) in classes and (6, 2, 0) in classes
    assert sum(n for _, n, _ in classes) == 52


def test_halves_are_doubled():
    halves = BY_NAME["halves"]
    assert halves.scale == 2 and halves.tags[4] == 3  # the five: +1.5
    # a running count of +3 (a five seen) with one deck left reads 1.5, floored to 1
    assert true_count(3, 52, halves, 6, rounding="none") == 1.5
    assert true_count(3, 52, halves, 6) == 1


def test_true_count_rounding_and_resolution():
    hilo = BY_NAME["hilo"]
    assert true_count(6, 156, hilo, 6) == 2
    assert true_count(-1, 104, hilo, 6) == -1  # -0.5 floored
    assert true_count(-1, 104, hilo, 6, rounding="truncate") == 0
    assert true_count(5, 104, hilo, 6, rounding="round") == 3  # 2.5 half away from zero
    assert true_count(-5, 104, hilo, 6, rounding="round") == -3
    assert decks_remaining(100, "half") == 2.0 and decks_remaining(130, "half") == 2.5
    assert decks_remaining(10, "half") == 0.5 and decks_remaining(10, "whole") == 1.0
    assert decks_remaining(80, "whole") == 2.0 and decks_remaining(78, "exact") == 1.5
    assert true_count(4, 100, hilo, 6, resolution="half") == 2  # 4 / 2.0
    assert round_count(1.99, "none") == 1.99
    with pytest.raises(CroupierError):
        true_count(1, 0, hilo, 6)


def test_unbalanced_true_count_is_relative_to_the_drift():
    ko = BY_NAME["ko"]
    # off the top: the IRC reads 0; after one average deck (+4), still 0
    assert true_count(ko.irc(6), 312, ko, 6, rounding="none") == 0
    assert true_count(ko.irc(6) + 4, 260, ko, 6, rounding="none") == 0
    # two more low cards than average over that deck: +2 over 5 decks
    assert true_count(ko.irc(6) + 6, 260, ko, 6, rounding="none") == pytest.approx(0.4)


def test_round_trip_as_plain_data():
    for system in COUNTS:
        assert CountSystem.from_dict(system.to_dict()) == system
    with pytest.raises(CroupierError, match="balanced"):
        CountSystem.from_dict({**BY_NAME["hilo"].to_dict(), "balanced": False})


class ThirdPartyCounts:
    @hookimpl
    def croupier_count_systems(self):
        return [
            CountSystem("good", "a copy of Hi-Lo", tags=BY_NAME["hilo"].tags),
            CountSystem("liar", "says balanced", tags=BY_NAME["ko"].tags),
            CountSystem("short", "nine tags", tags=(1,) * 9),
            CountSystem("drift", "says unbalanced", tags=BY_NAME["hilo"].tags, balanced=False),
        ]


def test_a_third_party_count_is_checked():
    manager = PluginManager(
        autoload=False, plugins=[("ThirdPartyCounts", ThirdPartyCounts())], entry_points=[]
    )
    assert manager.count_systems.names() == ["good", "liar", "short", "drift"]
    problems = check_plugins(manager, "ThirdPartyCounts")
    assert len(problems) == 3
    assert "'liar': says it is balanced, but its tags sum to 4" in problems[0]
    assert "'short': needs ten integer tags" in problems[1]
    assert "'drift': says it is unbalanced" in problems[2]
