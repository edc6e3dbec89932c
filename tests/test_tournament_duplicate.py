"""Duplicate deals: every bot the same cards, seats rotated through the same deals."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import attrs
import pytest
import trio

from croupier.engine import CroupierError, PluginManager
from croupier.engine.tournament import Tournament, TournamentConfig
from croupier.engine.tournament_run import (
    GameStrategyEntry,
    play_tournament,
    replay_tournament,
    run_tournament,
)
from croupier.plugins.blackjack.entries import StrategyEntry
from croupier.protocol import Code, RpcError, Server, connect


def blackjack(manager, seed, **settings):
    game = manager.games.get("blackjack")
    options = manager.rule_sets.get("koth").rules.to_dict()
    return TournamentConfig.of(game, options, seed, format="duplicate", **settings)


def play_logged(manager, config, entries):
    lines: list[dict] = []
    result = run_tournament(manager, config, entries, write=lines.append)
    return result, lines


def tables_of(lines):
    """Each table's job and its events."""
    tables = []
    for line in lines:
        if "table" in line:
            tables.append((line["table"], []))
        elif tables and "kind" in line:
            tables[-1][1].append(line)
    return tables


def first_cards(events):
    """Each seat's first two cards of the table's first hand."""
    cards = defaultdict(list)
    for event in events:
        first = event["kind"] == "deal" and event.get("round") == 1 and "seat" in event
        if first and len(cards[event["seat"]]) < 2:
            cards[event["seat"]].append(event["card"])
    return dict(cards)


def test_paired_seats_get_identical_cards(manager):
    names = ["basic", "lim17", "never-bust", "mimic-dealer"]
    entries = [StrategyEntry(n, manager.strategies.get(n)) for n in names]
    config = blackjack(manager, 11, tourneys=2, rounds=3, hands=2)
    result, lines = play_logged(manager, config, entries)
    assert result.conserved
    rounds = defaultdict(list)
    for job, events in tables_of(lines):
        tourney = (job["tourney"] - 1) // 4  # four rotations: four bots at one table
        rounds[(tourney, job["round"])].append((job, first_cards(events)))
    whole = 0
    for played in rounds.values():
        assert len({job["seed"] for job, _ in played}) == 1  # one deal for all
        full = [(job, cards) for job, cards in played if len(job["bots"]) == 4]
        seatings = [tuple(job["bots"]) for job, _ in full]
        if len(full) == 4:  # every bot still in every rotation: each seat once each
            whole += 1
            assert all(len({s[i] for s in seatings}) == 4 for i in range(4))
        # paired seats (the same seat of the same deal) were dealt the same cards
        for seat in range(1, 5):
            assert len({tuple(cards[seat]) for _, cards in full}) == 1
    assert whole >= 3  # not a test of empty tables
    # the scores are the mean over the rotations; the log replays
    assert replay_tournament(manager, [json.dumps(line) for line in lines]) == result


@pytest.mark.parametrize("game", ["baccarat", "three-card-poker"])
def test_every_game_plays_duplicate(manager, game):
    played = manager.games.get(game)
    options = played.rules(None, {})
    entries = [GameStrategyEntry(s.name, game, s.at(options)) for s in played.strategies[:3]]
    config = TournamentConfig.of(
        played, options, 5, tourneys=2, rounds=2, hands=3, format="duplicate"
    )
    result, lines = play_logged(manager, config, entries)
    assert result.conserved
    seeds = defaultdict(set)
    seatings = defaultdict(set)
    for job, _ in tables_of(lines):
        key = ((job["tourney"] - 1) // len(entries), job["round"])
        seeds[key].add(job["seed"])
        seatings[key].add(tuple(job["bots"]))
    assert all(len(s) == 1 for s in seeds.values())
    assert all(len(s) == len(entries) for s in seatings.values())  # every rotation
    assert all(len(s.scores) == 2 for s in result.standings)  # one score a tourney


def test_the_koth_format_is_unchanged_and_formats_are_checked(manager):
    koth = attrs.evolve(blackjack(manager, 1), format="koth")
    assert "format" not in koth.to_dict()  # logs from before formats read the same
    assert Tournament(koth, ["a", "b"]).rotations == 1
    assert Tournament(blackjack(manager, 1), ["a", "b", "c", "d", "e"]).rotations == 4
    with pytest.raises(CroupierError, match="unknown tournament format 'swiss'"):
        attrs.evolve(koth, format="swiss")


@pytest.fixture
async def served(nursery):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=41)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()


async def test_a_server_tournament_plays_duplicate_as_the_local_one(served):
    manager = served.manager
    names = ["lim17", "never-bust", "mimic-dealer"]
    config = blackjack(manager, 77, tourneys=2, rounds=3, hands=3)
    entries = [StrategyEntry(n, manager.strategies.get(n)) for n in names]
    local = await play_tournament(manager, config, entries)
    finished = trio.Event()
    infos: list[dict] = []

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status":
            infos.append(params[1])
            if params[1]["state"] == "finished":
                finished.set()

    settings = {"tourneys": 2, "rounds": 3, "hands": 3, "seed": 77}
    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        with pytest.raises(RpcError) as refused:
            await c.call_named("tournament.start", {"bots": names, "format": "swiss"})
        assert refused.value.code == Code.BAD_INPUT and "koth or duplicate" in str(refused.value)
        info = await c.call_named(
            "tournament.start", {"bots": names, **settings, "format": "duplicate"}
        )
        assert info["settings"]["format"] == "duplicate"
        with trio.fail_after(30):
            await finished.wait()
    result = infos[-1]["result"]
    assert result["standings"] == local.to_dict()["standings"]
    assert result["tables"] == local.tables and result["tables"] > 2 * 3  # rotations
