"""croupier plugins --check: a plugin author's bugs found at once, one line each."""

from __future__ import annotations

import itertools
import json

import attrs
import pytest

from croupier.engine import PluginManager, hookimpl
from croupier.engine.games import ActionSpec, Field, Game, GameStrategy, Turn
from croupier.engine.ledger import Ledger, seat_account
from croupier.engine.plugincheck import check_plugins

TICKS = itertools.count()


class Core:
    """High card against the house, with switchable bugs."""

    def __init__(self, options, seed, chips, emit, *, bug=None):
        self.table = next(TICKS)
        self.options, self.bug = options, bug
        self.ledger = Ledger({seat_account(i + 1): c for i, c in enumerate(chips)})
        self.round, self.counts, self.emit, self.seats = 0, {}, emit or (lambda e: None), len(chips)
        self.seed = seed

    def check(self, turn, action):
        return None if action.get("kind") == "bet" and action.get("amount") == 1 else "bet 1"

    def play_round(self):
        self.round += 1
        for seat in range(1, self.seats + 1):
            default = {"kind": "fold"} if self.bug == "default" else {"kind": "bet", "amount": 1}
            yield Turn(seat, ("bet",), {"seat": seat}, default)
            self.ledger.transfer(self.round, seat_account(seat), -1, "bet")
            won = (self.seed * 7 + self.round + seat) % 3 == 0
            if self.bug == "random":
                won = self.table % 2 == 0  # depends on the tables made before, not the seed
            if won:
                self.ledger.transfer(self.round, seat_account(seat), 2, "win")
            if self.bug == "leak":
                self.ledger.balances["house"] += 1
            event = {"kind": "result", "round": self.round, "text": f"Seat {seat}."}
            if self.bug == "event":
                event = {"kind": "result", "what": object()}
            self.emit(event)
        return True


def game(bug=None, **changes):
    base = Game(
        name="high",
        summary="high card",
        options=(Field("starting_chips", "int", "chips"),),
        defaults={"starting_chips": 100},
        rule_sets={"standard": {}},
        check_options=dict,
        new_core=lambda o, s, c, e: Core(o, s, c, e, bug=bug),
        actions=(ActionSpec("bet", "bet one chip", (Field("amount", "int", "1"),)),),
        observation=(Field("seat", "int", "your seat"),),
        events={"result": "a seat's result"},
        strategies=(GameStrategy("one", "bets one", lambda o: {"kind": "bet", "amount": 1}),),
    )
    return attrs.evolve(base, **changes)


def manager_with(item, hook="croupier_games"):
    manager = PluginManager(autoload=False)

    class Plugin:
        pass

    def contribute():
        return [item]

    setattr(Plugin, hook, staticmethod(hookimpl(contribute)))
    manager.register(Plugin(), "mine")
    return manager


def test_a_good_game_passes():
    assert check_plugins(manager_with(game()), "mine") == []


@pytest.mark.parametrize(
    ("bug", "expected"),
    [
        ("default", "the default answered {'kind': 'fold'} and was refused: fold is not allowed"),
        ("random", "the same seed and answers gave other events or chips"),
        ("leak", "chips are not conserved"),
        ("event", "an event is not a plain map with kind, round and text"),
    ],
)
def test_a_games_bugs_are_one_line_each(bug, expected):
    problems = check_plugins(manager_with(game(bug)), "mine")
    assert problems and all(p.startswith("mine: game 'high': ") for p in problems)
    assert any(expected in p for p in problems), problems


def test_wrong_types_and_bad_rule_sets_are_found():
    assert check_plugins(manager_with(Field("x", "int", "not a game")), "mine") == [
        "mine: game 'x': is a Field, not a Game"
    ]
    broken = game(rule_sets={"standard": {}, "odd": {"nope": 1}})
    assert check_plugins(manager_with(broken), "mine") == [
        "mine: game 'high': rule set 'odd' is refused by its own check: "
        "high's rule set 'odd' sets unknown option(s) nope"
    ]


@pytest.mark.slow
def test_the_cli_reports_and_exits(cli):
    status, out, _ = cli("plugins", "--check")
    assert status == 0 and out.startswith("ok: ")
    status, out, _ = cli("plugins", "--check", "baccarat", "--json")
    assert status == 0 and json.loads(out) == {"plugin": "baccarat", "problems": []}
    status, _, err = cli("plugins", "--check", "nope")
    assert status == 1 and err.startswith("croupier: error: no plugin named 'nope'")


def saving(core):
    return {"ledger": core.ledger.save(), "round": core.round}


def restoring(core, state):
    core.ledger.restore(state["ledger"])
    core.round = state["round"]


@pytest.mark.parametrize(
    ("save", "restore", "expected"),
    [
        (saving, restoring, None),
        (saving, lambda core, state: core.ledger.restore(state["ledger"]), "does not play on"),
        (lambda core: {"core": object()}, restoring, "its checkpoint is not plain data"),
        (saving, lambda core, state: state["nope"], "raised KeyError"),
    ],
)
def test_a_games_checkpoints_are_restored_and_played_on(save, restore, expected):
    from croupier.engine import Checkpoints

    problems = check_plugins(manager_with(game(checkpoints=Checkpoints(save, restore))), "mine")
    if expected is None:
        assert problems == []
    else:
        assert problems and all(expected in p for p in problems), problems
        assert all("after round 15" in p or "not plain" in p for p in problems)
