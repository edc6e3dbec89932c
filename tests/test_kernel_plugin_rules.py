"""A plugin's dealer rule or betting scheme plays on the compiled kernel when it plays
exactly as a casino rule does (checked over every total, not taken on trust), and in
Python, with the reason, when it does not."""

from __future__ import annotations

import pytest

from croupier.engine import PluginManager, hookimpl
from croupier.plugins.blackjack.simulate import (
    NotCompiled,
    compiled_job,
    simulate,
    simulate_compiled,
)
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule


class HouseRules:
    """A dealer who stands on 17 (written his own way), one who also hits soft 18, a
    betting scheme that is casino's, and one where the player wins ties."""

    @hookimpl
    def croupier_dealer_rules(self) -> tuple[DealerRule, ...]:
        return (
            DealerRule("stands-17", "S17 in other words", lambda t, soft, target: t <= 16),
            DealerRule(
                "hits-s18", "hits soft 18", lambda t, soft, target: t < 17 or (soft and t < 19)
            ),
        )

    @hookimpl
    def croupier_betting_schemes(self) -> tuple[BettingScheme, ...]:
        def same(p: int, pn: bool, d: int, dn: bool) -> str:
            if pn or dn:
                return "push" if pn and dn else "natural" if pn else "lose"
            return "win" if d > 21 or p > d else "push" if p == d else "lose"

        def ties_win(p: int, pn: bool, d: int, dn: bool) -> str:
            outcome = same(p, pn, d, dn)
            return "win" if outcome == "push" and not pn else outcome

        return (
            BettingScheme("plain", "casino in other words", same),
            BettingScheme("ties-win", "the player wins ties", ties_win),
        )


@pytest.fixture
def house() -> PluginManager:
    return PluginManager(autoload=False, plugins=[("house", HouseRules())])


def _rules(manager: PluginManager, **changes):
    return manager.rule_sets.get("vegas-s17").rules.evolve(**changes)


def test_rules_that_play_as_casino_rules_are_compiled_with_the_same_totals(house):
    basic = house.strategies.get("lim17")
    plain = simulate_compiled(house, _rules(house), basic, 20_000, 2, seed=9)
    theirs = simulate_compiled(
        house, _rules(house, dealer="stands-17", betting="plain"), basic, 20_000, 2, seed=9
    )
    assert theirs == plain


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"dealer": "hits-s18"}, "the dealer rule 'hits-s18' has no compiled form"),
        ({"betting": "ties-win"}, "the betting scheme 'ties-win' has no compiled form"),
    ],
)
def test_rules_that_differ_play_in_python_and_say_why(house, changes, reason):
    rules = _rules(house, **changes)
    lim17 = house.strategies.get("lim17")
    with pytest.raises(NotCompiled, match=reason):
        compiled_job(house, rules, lim17, 1)
    report = simulate(house, rules, lim17, 2_000, 1, seed=3)  # the Python round plays it
    assert report["conserved"]
