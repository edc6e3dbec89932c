"""``croupier plugins --check`` catches each one-line bug in a game: mutants of the example
game (examples/croupier-coin), each its source with one line changed, as OpenSpiel's and
PettingZoo's conformance tests are meant to: a check() that accepts anything, a stake not
booked as a bet, an observation field or an event kind or a counter the game never
declared."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from croupier.engine import PluginManager, hookimpl
from croupier.engine.plugincheck import check_plugins

SOURCE = Path(__file__).parents[1] / "examples/croupier-coin/croupier_coin/toss.py"

MUTANTS = [
    (
        "check() accepts anything",
        "        chips = self.ledger.balances[seat_account(turn.seat)]\n",
        "        return None\n",
        "(its check passed it), then raised CroupierError: seat-",
    ),
    (
        "a stake not booked as a bet",
        '-bet["amount"], "bet")',
        '-bet["amount"], "stake")',
        "seat-1 pays 1 chips for 'stake': a stake's reason starts with 'bet'",
    ),
    (
        "an undeclared observation field",
        'seen = {"round": self.round,',
        'seen = {"coin": "gold", "round": self.round,',
        "its observation field 'coin' is not declared",
    ),
    (
        "an undeclared event",
        '"kind": "toss",',
        '"kind": "flip",',
        "its event kind 'flip' is not declared",
    ),
    (
        "an undeclared counter",
        'self.counts = {"edges": 0}',
        'self.counts = {"edges": 0, "heads": 0}',
        "it counts heads, not among its counters",
    ),
]


def _mutant(old: str, new: str) -> PluginManager:
    source = SOURCE.read_text()
    assert source.count(old) == 1, old  # the mutation is one line of today's example
    module = types.ModuleType("coin_mutant")
    exec(compile(source.replace(old, new), "coin_mutant.py", "exec"), module.__dict__)
    game = module.COIN_TOSS

    class Plugin:
        @hookimpl
        def croupier_games(self):
            return [game]

    manager = PluginManager(autoload=False)
    manager.register(Plugin(), "mutant")
    return manager


def test_the_unmutated_example_passes():
    first = SOURCE.read_text().splitlines(True)[0]
    assert check_plugins(_mutant(first, first), "mutant") == []


@pytest.mark.parametrize(("bug", "old", "new", "expected"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_one_line_bug_is_caught(bug, old, new, expected):
    problems = check_plugins(_mutant(old, new), "mutant")
    assert any(expected in p for p in problems), problems
    assert all(p.startswith("mutant: game 'coin-toss': ") for p in problems)
