"""A finished server tournament's tables replay from their seeds and their ``tcp`` seats'
recorded answers (``history.tournament_table``, ``history.tournament_events``): every table
comes out event for event as it was dealt, refusals, errors and timeouts of its bots
included, and each bot was shown exactly the observations the replay shows its seat. Bad
requests get one line; a crash mid-tournament leaves tables that still replay."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio

import croupier.engine.tournament_run as tournament_run
from croupier.engine.errors import PlayerAbsent
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.protocol import Code, RpcError, connect
from croupier.protocol.seat_answers import (
    AnswerRecorder,
    Mismatch,
    ReplayClock,
    ReplayPlayer,
    encode,
    pack,
    unpack,
)
from croupier.protocol.tournament_replay import read_table, replay
from tests.test_recovery_tournaments import (
    booked,
    crash_after,
    recovered_run,
    run_whole,
    serve,
    stop,
    stubborn,  # test_recovery's (or its split's): the name this module imports it by
    tournaments_of,
)

SETTINGS = {"tourneys": 2, "rounds": 3, "hands": 4, "seed": 23, "decision_time": 0.5}
BOTS = ["tcp", "lim17", "tcp", "never-bust", "tcp"]


def plain(value: Any) -> Any:
    """``value`` as the wire carries it (tuples as lists)."""
    return msgpack.unpackb(msgpack.packb(value), raw=False)


class Wayward:
    """A bot answering at random (its own seeded stream, so a replay cannot guess it): now
    and then an illegal answer, an error, or no answer in time. Keeps what it was shown."""

    def __init__(self, seed: int, late: float = 3 * SETTINGS["decision_time"]) -> None:
        self.rng = random.Random(seed)
        self.late = late
        self.seen: list[Any] = []
        self.entry = 0

    async def decide(self, game: int, observation: Any) -> Any:
        self.seen.append(observation)
        roll = self.rng.random()
        if roll < 0.05:
            return {"kind": "dance"}  # refused: the table gives the default
        if roll < 0.08:
            return "not a map"
        if roll < 0.11:
            raise RpcError(Code.BAD_INPUT, "the bot has a bad day")
        if roll < 0.13 and self.late:
            await trio.sleep(self.late)  # late: the default
        kind = self.rng.choice(observation["legal"])
        if kind == "bet":
            return {"kind": "bet", "amount": observation["min_bet"] * self.rng.choice([1, 2])}
        return {"kind": kind}


@pytest.fixture
def dealt(monkeypatch):
    """Every tournament table's events as they were dealt, by the table's seed."""
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)

    class Watched(GameTable):
        def __init__(self, game: Any, options: Any, seed: int, *args: Any, **kw: Any) -> None:
            super().__init__(game, options, seed, *args, **kw)
            self.listeners.append(found[seed].append)

    monkeypatch.setattr(tournament_run, "GameTable", Watched)
    return found


async def play(
    nursery: trio.Nursery,
    path: Path,
    entries: list[str] = BOTS,
    late: float = 3 * SETTINGS["decision_time"],
    **settings: Any,
) -> tuple[Any, int, list[Wayward]]:
    server = await serve(nursery, path)
    done = trio.Event()
    bots = [Wayward(i, late) for i in range(entries.count("tcp"))]

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status" and params[1]["state"] == "finished":
            done.set()

    async with connect("127.0.0.1", server.port, name="c", on_notification=status) as c:
        params = {"bots": entries, **SETTINGS, **settings, "operator_key": server.operator_key}
        info = await c.call_named("tournament.start", params)
        async with trio.open_nursery() as seats:
            for i, bot in enumerate(bots):

                async def sit(i: int = i, bot: Wayward = bot) -> None:
                    async with connect(
                        "127.0.0.1", server.port, name=f"bot{i}", role="bot",
                        handlers={"decide": bot.decide},
                    ) as conn:  # fmt: skip
                        joined = await conn.call(
                            "tournament.join", info["tournament"], [], info["join_key"]
                        )
                        bot.entry = joined["entry"]
                        await done.wait()

                seats.start_soon(sit)
    return server, info["tournament"], bots


async def replayed(port: int, tid: int, key: tuple[int, int, int]) -> tuple[Any, list[Any]]:
    async with connect("127.0.0.1", port, name="w", role="watcher") as w:
        record = await w.call("history.tournament_table", tid, *key)
        events: list[Any] = []
        while len(events) < record["events"]:
            events += await w.call("history.tournament_events", tid, *key, len(events), 7)
        return record, events


@pytest.mark.slow  # its late answers wait out the decision time (the fast check is in process)
async def test_every_table_replays_as_it_was_dealt(nursery, tmp_path, dealt):
    path = tmp_path / "j.db"
    server, tid, bots = await play(nursery, path)
    tables = booked(path, tid)
    with sqlite3.connect(path) as conn:
        jobs = {
            (t, r, n): json.loads(job)
            for t, r, n, job in conn.execute(
                "SELECT tourney, round, table_no, job FROM tournament_tables"
                " WHERE tournament_id = ?",
                (tid,),
            )
        }
    shown: dict[int, list[Any]] = defaultdict(list)  # per tcp entry, what the replays showed
    kinds: set[str] = set()
    for key in tables:
        record, events = await replayed(server.port, tid, key)
        job = jobs[key]
        assert record["table"] == list(key) and record["seed"] == job["seed"]
        assert events == plain(dealt[job["seed"]])  # event for event, as it was dealt
        kinds |= {e["kind"] for e in events}
        stored = await server.journal.read(
            partial(read_table, tournament=tid, tourney=key[0], round_=key[1], table=key[2])
        )
        again = await replay(server, stored)  # what each tcp seat was shown
        assert again.events == events
        for seat, observations in again.observations.items():
            entry = job["bots"][seat - 1] + 1
            shown[entry] += plain(observations)
    assert {"refused", "default"} <= kinds  # the bots' refusals, errors and timeouts too
    entries = [i + 1 for i, b in enumerate(BOTS) if b == "tcp"]
    # each bot was sent exactly what the replays show its seats (tables interleave: as sets)
    assert sorted(bot.entry for bot in bots) == entries

    def said(observations: list[Any]) -> list[str]:
        return sorted(json.dumps(o, sort_keys=True) for o in observations)

    assert {bot.entry: said(bot.seen) for bot in bots} == {e: said(shown[e]) for e in entries}
    await stop(server)


async def test_a_duplicate_tournament_s_rotated_tables_replay(nursery, tmp_path):
    """Each deal is played once per rotation of the seats: the answers go with the seat the
    tcp entry had at that table (the replay checks each table's chips and hands)."""
    path = tmp_path / "j.db"
    entries = ["tcp", "lim17", "never-bust"]
    server, tid, _ = await play(
        nursery, path, entries, late=0.0, format="duplicate", tourneys=1, rounds=2
    )
    tables = booked(path, tid)
    assert len(tables) == 3 * 2  # three rotations of one tourney, two rounds
    records = [(await replayed(server.port, tid, key))[0] for key in tables]
    seats = {r["seats"][[s["kind"] for s in r["seats"]].index("bot")]["seat"] for r in records}
    assert seats == {1, 2, 3} and all(r["answers"] > 0 for r in records)
    await stop(server)


async def test_bad_requests_get_one_line(nursery, tmp_path):
    path = tmp_path / "j.db"
    ran = await run_whole(nursery, path, ["tcp", "lim17", "tcp"])
    tid = ran["tournament"]
    key = booked(path, tid)[0]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tournament_tables SET answers = NULL WHERE tournament_id = ?", (tid,))
    server = await serve(nursery, path)
    async with connect("127.0.0.1", server.port, name="w", role="watcher") as w:
        for args, code, words in [
            ((tid + 99, *key), Code.UNKNOWN_NAME, f"no tournament {tid + 99}"),
            ((tid, 9, 9, 9), Code.UNKNOWN_NAME, "tourney 9 round 9 table 9: it was never played"),
            ((tid, *key), Code.BAD_INPUT, "answers were not recorded"),
            ((tid, 2**64 - 1, 1, 1), Code.UNKNOWN_NAME, "never played"),
        ]:
            for method, more in (
                ("history.tournament_table", ()),
                ("history.tournament_events", (0, 10)),
            ):
                with pytest.raises(RpcError) as refused:
                    await w.call(method, *args, *more)
                assert refused.value.code == code and words in refused.value.message
                assert "\n" not in refused.value.message
        with pytest.raises(RpcError) as refused:
            await w.call("history.tournament_events", tid, *key, 0, 0)
        assert refused.value.code == Code.BAD_INPUT and "limit" in refused.value.message
    await stop(server)


async def test_a_running_tournament_s_tables_do_not_replay(nursery, tmp_path):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ran = await run_whole(nursery, whole, ["tcp", "lim17"])
    crash_after(whole, cut, ran["tournament"], 2)
    server = await recovered_run(nursery, cut, ran["tournament"])  # waits for its tcp bot
    key = booked(cut, ran["tournament"])[0]
    async with connect("127.0.0.1", server.port, name="w", role="watcher") as w:
        with pytest.raises(RpcError) as refused:
            await w.call("history.tournament_events", ran["tournament"], *key, 0, 10)
    assert refused.value.code == Code.BAD_INPUT
    assert "replay once it finishes" in refused.value.message
    await stop(server)


async def test_tables_replay_after_a_crash_mid_tournament(nursery, tmp_path):
    """The tables kept before the crash and those dealt again after it replay, each as the
    uninterrupted run's."""
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ran = await run_whole(nursery, whole, ["tcp", "lim17", "tcp", "never-bust"])
    tid = ran["tournament"]
    crash_after(whole, cut, tid, 5)
    server = await recovered_run(nursery, cut, tid)
    found = tournaments_of(server).tournaments[tid]

    async def decide(game: int, observation: Any) -> Any:
        return stubborn(game, observation)

    async with trio.open_nursery() as seats:
        for i, token in enumerate(ran["tokens"]):

            async def back(i: int = i, token: str = token) -> None:
                async with connect(
                    "127.0.0.1", server.port, name=f"bot{i}", role="bot",
                    handlers={"decide": decide},
                ) as bot:  # fmt: skip
                    await bot.call("tournament.rejoin", token, [])
                    await found.done.wait()

            seats.start_soon(back)
    tables = booked(cut, tid)
    assert len(tables) > 5
    after = {key: await replayed(server.port, tid, key) for key in tables}
    await stop(server)
    before = await serve(nursery, whole)
    for key in tables:
        assert after[key] == await replayed(before.port, tid, key)
    await stop(before)


class WaywardPlayer:
    """:class:`Wayward` as an in-process player with a bot's two ways of answering (as a
    ``tcp`` seat's :class:`~croupier.protocol.slots.SlotPlayer`): an empty seat now and then
    at once, else a ``decide`` that may be late, fail or be refused."""

    def __init__(self, seed: int) -> None:
        self.bot = Wayward(seed)
        self.rng = random.Random(seed + 100)

    def decide_at_once(self, observation: Any) -> Any:
        roll = self.rng.random()
        if roll < 0.08:
            raise PlayerAbsent("no bot in the seat")
        if roll < 0.08 and observation["phase"] == "insurance":
            return {"kind": "no"} if "no" in observation["legal"] else None
        return None

    async def decide(self, observation: Any) -> Any:
        roll = self.rng.random()
        if roll < 0.1:
            await trio.sleep(1.0)  # late (on the virtual clock): the default
        elif roll < 0.2:
            raise ValueError("a bug of the bot's")
        return await self.bot.decide(0, observation)


async def test_a_table_replays_from_its_recorded_answers(manager, virtual_clock):
    """In process, on a virtual clock: a table of recorded wayward players and a strategy
    deals again from the packed answers with the same events (the fast check of what the
    tournament tests do on a server)."""
    game = manager.games.get("blackjack")
    options = game.rules("vegas-s17", {})  # bets too: an empty seat sits out
    strategy = GameStrategyPlayer(game.strategy("lim17"))
    reasons: set[str] = set()
    for seed in range(3):
        outcomes: dict[int, list[Any]] = {1: [], 3: []}
        players = [
            AnswerRecorder(WaywardPlayer(seed), outcomes[1]),
            strategy,
            AnswerRecorder(WaywardPlayer(seed + 10), outcomes[3]),
        ]
        dealt: list[dict[str, Any]] = []
        table = GameTable(
            game, options, 1000 + seed, players, decision_time=0.5, attempts=1,
            listeners=[dealt.append],
        )  # fmt: skip
        await table.play(30)
        reasons |= {e["reason"].split(":")[0] for e in dealt if e["kind"] == "default"}
        answers = unpack(pack(outcomes))
        again: list[dict[str, Any]] = []
        replays = {s: ReplayPlayer(s, o) for s, o in answers.items()}
        replayed = GameTable(
            game, options, 1000 + seed, [replays[1], strategy, replays[3]], decision_time=0.5,
            attempts=1, listeners=[again.append],
        )  # fmt: skip
        replayed.clock = ReplayClock(0.5)
        await replayed.play(30)
        assert again == dealt
        for player in replays.values():
            player.finished()
        # answers cut short, or one too many: the replay says they do not fit
        short = ReplayPlayer(1, answers[1][:-1])
        cut = GameTable(game, options, 1000 + seed, [short, strategy, replays[3]], attempts=1)
        cut.clock = ReplayClock(0.5)
        with pytest.raises(Mismatch):
            await cut.play(30)
            short.finished()
    expected = {"timeout after 0.5s", "error", "1 answers refused", "no bot in the seat"}
    assert expected <= reasons  # every way a bot's answer goes wrong was replayed


def test_answers_pack_to_a_few_bytes_and_back():
    legal = {"legal": ["hit", "stand", "double"]}
    outcomes = [
        encode({"kind": "stand"}, legal),
        encode({"kind": "bet", "amount": 10}, {"legal": ["bet", "sit-out"]}),
        encode("text", legal),
        encode({"kind": "fly"}, legal),
        ["t"],
    ]
    assert outcomes[0] == 1 and outcomes[2] == ["a", "text"] and outcomes[3] == {"kind": "fly"}
    data = pack({3: outcomes, 1: [0, 0]})
    assert unpack(data) == {1: [0, 0], 3: outcomes}
    assert len(pack({1: [0, 1, 0, 2]})) == 3 + 4  # a map of one seat, its list: a byte each
    with pytest.raises(Exception, match="cannot be read"):
        unpack(b"\x93\x01")


def test_repeated_answers_are_deflated_and_bad_bytes_refused():
    bet = encode({"kind": "bet", "amount": 10}, {"legal": ["bet", "sit-out"]})
    seats = {1: [bet, 0, 1] * 12, 3: [bet, 1] * 12}
    data = pack(seats)
    assert data[:1] == b"\xc1" and len(data) < len(msgpack.packb(seats)) / 4
    assert unpack(data) == seats
    for bad in (b"\xc1not deflate", data[:-3], b"\x81\x01\x01"):
        with pytest.raises(Exception, match="cannot be read"):
            unpack(bad)
