"""Checkpoints: a table saved between two rounds as plain data and restored into a fresh
table of the same game, options, seed and chips plays on exactly as the table that never
stopped, event for event (compared as each game's log writes them), for every built-in
game; a saved state that cannot be that table's is refused with one line."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from croupier.engine import CroupierError, PluginManager
from croupier.engine.gamelog import GameEventLog
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.seeds import Stream

MANAGER = PluginManager(autoload=False)

TABLES = [  # game, rule set, option overrides, strategies: shoes of every kind, seats leaving
    ("baccarat", None, {"penetration": 0.2, "decks": 1}, ["banker", "player", "tie"]),
    ("three-card-poker", None, {}, ["optimal", "pair-plus", "always-play"]),
    ("blackjack", "vegas-s17", {"penetration": 0.3, "decks": 1}, ["lim17", "never-bust"]),
    ("blackjack", "koth", {}, ["lim17", "mimic-dealer", "never-bust"]),
    ("blackjack", "classic", {}, ["never-bust"]),
    ("blackjack", "vegas-s17", {"starting_chips": 40}, ["lim17", "mimic-dealer"]),  # they leave
]


def new_table(spec: tuple[Any, ...], seed: int = 9) -> tuple[GameTable, io.StringIO]:
    name, rule_set, overrides, strategies = spec
    game = MANAGER.games.get(name)
    options = game.rules(rule_set, overrides)
    players = [GameStrategyPlayer(game.strategy(s)) for s in strategies]
    table = GameTable(game, options, seed, players)
    log = io.StringIO()
    GameEventLog(table, log)
    return table, log


def events_after(log: io.StringIO, round_: int) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in log.getvalue().splitlines()[1:]]
    return [e for e in lines if e.get("round", 0) > round_]


def state_of(table: GameTable) -> dict[str, Any]:
    """The table's saved state, through JSON as a journal keeps it (plain data only)."""
    state = table.save_state()
    assert state is not None
    return dict(json.loads(json.dumps(state)))


@pytest.mark.parametrize("spec", TABLES, ids=lambda s: f"{s[0]}-{s[1]}-{len(s[3])}")
@pytest.mark.parametrize("at", [0, 1, 37, 150])
async def test_a_restored_table_plays_on_as_the_one_that_never_stopped(spec, at):
    whole, whole_log = new_table(spec)
    played = await whole.play(at)
    state = state_of(whole)
    rest = await whole.play(200 - at)
    again, again_log = new_table(spec)
    again.restore_state(state)
    assert await again.play(200 - at) == rest
    assert events_after(again_log, played) == events_after(whole_log, played)
    assert events_after(whole_log, played) or at > 0  # the short-chips table stops early
    assert again.ledger.balances == whole.ledger.balances
    assert again.ledger.totals == whole.ledger.totals and again.ledger.conserved()
    assert again.core.counts == whole.core.counts and again.core.round == whole.core.round
    assert (again.tally.hands, again.tally.faults) == (whole.tally.hands, whole.tally.faults)
    assert again.tally.decisions == whole.tally.decisions


async def test_the_long_tables_shoe_reshuffles_and_the_seats_leave_across_checkpoints():
    """The cases the restored tables above must carry over do happen in them."""
    blackjack, log = new_table(TABLES[2])
    await blackjack.play(200)
    assert sum(e["kind"] == "shuffle" for e in events_after(log, 0)) > 5
    koth, log = new_table(TABLES[3])
    await koth.play(200)
    assert any(e["kind"] == "deck-added" for e in events_after(log, 0))
    short, log = new_table(TABLES[5])
    await short.play(200)
    left = [e["round"] for e in events_after(log, 0) if e["kind"] == "leave"]
    assert left and 1 < left[0] < 37  # between two of the checkpoints taken above


def test_a_stream_carries_on_from_its_position():
    stream = Stream(7).child("shoe")
    for n in (0, 1, 63, 64, 65, 200):
        stream.randbytes(n)
        copy = Stream(7).child("shoe")
        copy.seek(stream.position)
        assert copy.randbytes(100) == stream.randbytes(100)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s["core"]["ledger"]["balances"].update({"seat-1": -5}),
        lambda s: s["core"]["shoe"].update({"cards": "not cards"}),
        lambda s: s["core"]["shoe"].update({"dealt": 10**6}),
        lambda s: s["core"].pop("ledger"),
        lambda s: s["tally"].update({"hands": [1]}),
        lambda s: s.update({"version": 99}),
        lambda s: s.update({"game": "baccarat"}),
        lambda s: s["core"].update({"present": [True]}),
    ],
)
async def test_a_state_that_cannot_be_the_tables_is_refused_in_one_line(change):
    table, _ = new_table(TABLES[2])
    await table.play(5)
    state = state_of(table)
    change(state)
    fresh, _ = new_table(TABLES[2])
    with pytest.raises(CroupierError) as refused:
        fresh.restore_state(state)
    assert "\n" not in str(refused.value)


def test_a_game_without_checkpoints_saves_nothing():
    import attrs

    game = attrs.evolve(MANAGER.games.get("baccarat"), checkpoints=None)
    players = [GameStrategyPlayer(s) for s in game.strategies]
    table = GameTable(game, game.rules(), 1, players)
    assert table.save_state() is None
    with pytest.raises(CroupierError):
        table.restore_state({"game": "baccarat", "version": 1})
