"""Crash recovery of tournaments: a restarted server books the tables the journal says a
tournament finished, deals the others again from their seeds and ends with the standings
of an uninterrupted run; ``tcp`` bots take their seats back with their tokens.

The crash is made as in ``tests/test_recovery.py``: the journal of an uninterrupted run cut
back to its first ``k`` finished tables, the tournament still ``playing``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.engine import CroupierError, PluginManager
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import GameStrategyEntry, play_tournament
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.journal import Journal
from croupier.protocol.services import default_services
from croupier.protocol.tournaments import TournamentService
from tests.test_recovery_bots import stubborn


def tournaments_of(server: Server) -> TournamentService:
    (service,) = [s for s in server.services if isinstance(s, TournamentService)]
    return service


async def serve(nursery: trio.Nursery, path: Path) -> Server:
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=11,
        services=default_services(),
        journal=Journal(str(path)),
    )
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    server.port = port  # type: ignore[attr-defined]
    return server


async def stop(server: Server) -> None:
    server.stop()
    await server.journal.aclose()


def head(path: Path, tournament: int) -> tuple[str, str | None, Any]:
    with sqlite3.connect(path) as conn:
        state, reason, result = conn.execute(
            "SELECT state, reason, result FROM tournaments WHERE id = ?", (tournament,)
        ).fetchone()
    return state, reason, None if result is None else json.loads(result)


def booked(path: Path, tournament: int) -> list[tuple[int, int, int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT tourney, round, table_no FROM tournament_tables WHERE tournament_id = ?"
            " ORDER BY position",
            (tournament,),
        ).fetchall()


def crash_after(src: Path, dst: Path, tournament: int, keep: int) -> None:
    """``dst``: the journal ``src`` as a crash once ``keep`` tables were committed left it."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    with sqlite3.connect(dst) as conn:
        conn.execute(
            "DELETE FROM tournament_tables WHERE tournament_id = ? AND position > ?",
            (tournament, keep),
        )
        conn.execute(
            "UPDATE tournaments SET state = 'playing', reason = NULL, result = NULL,"
            " finished = NULL WHERE id = ?",
            (tournament,),
        )


SETTINGS = {"tourneys": 3, "rounds": 4, "hands": 3, "seed": 17, "decision_time": 5.0}
STRATEGIES = ["lim17", "never-bust", "mimic-dealer", "lim17", "never-bust"]


async def run_whole(nursery: trio.Nursery, path: Path, bots: list[str]) -> dict[str, Any]:
    """Play a tournament to its end (its tcp seats taken by ``stubborn``); its id and the
    tcp bots' tokens."""
    server = await serve(nursery, path)
    done = trio.Event()
    tokens: list[str] = []

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status" and params[1]["state"] == "finished":
            done.set()

    async def decide(game: int, observation: Any) -> Any:
        return stubborn(game, observation)

    async with connect("127.0.0.1", server.port, name="c", on_notification=status) as c:
        params = {"bots": bots, **SETTINGS, "operator_key": server.operator_key}  # the seed
        info = await c.call_named("tournament.start", params)
        async with trio.open_nursery() as bots_nursery:
            for i in range(bots.count("tcp")):

                async def sit(i: int = i) -> None:
                    async with connect(
                        "127.0.0.1", server.port, name=f"bot{i}", role="bot",
                        handlers={"decide": decide},
                    ) as bot:  # fmt: skip
                        joined = await bot.call(
                            "tournament.join", info["tournament"], [], info["join_key"]
                        )
                        tokens.append(joined["token"])
                        await done.wait()

                bots_nursery.start_soon(sit)
        await done.wait()
    await stop(server)
    return {
        "tournament": info["tournament"],
        "tokens": tokens,
        "key": info["key"],
        "commit": info["commit"],
    }


async def recovered_run(nursery: trio.Nursery, path: Path, tournament: int) -> Server:
    server = await serve(nursery, path)
    assert tournament in tournaments_of(server).tournaments
    return server


@pytest.mark.parametrize("keep", [0, 7, 23])
async def test_a_tournament_of_strategies_resumes_to_the_same_standings(nursery, tmp_path, keep):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ran = await run_whole(nursery, whole, STRATEGIES)
    tid = ran["tournament"]
    state, _, want = head(whole, tid)
    tables = booked(whole, tid)
    assert state == "finished" and len(tables) == want["tables"] > keep
    crash_after(whole, cut, tid, keep)
    server = await recovered_run(nursery, cut, tid)
    found = tournaments_of(server).tournaments[tid]
    assert len(found.known) == keep
    assert found.commitment.commit == ran["commit"] and found.info()["commit"] == ran["commit"]
    # kept, and hidden until it finishes (what is left of it may already have been played)
    assert found.revealed == (found.state == "finished")
    assert (found.info()["seed"] is None) == (found.state != "finished")
    await found.done.wait()
    await stop(server)
    state, reason, got = head(cut, tid)
    assert (state, reason) == ("finished", "played")
    assert got == want and got["conserved"]
    # every table booked once: the kept ones were not played again, the rest were
    assert sorted(booked(cut, tid)) == sorted(tables)
    assert booked(cut, tid)[:keep] == tables[:keep]


async def test_tcp_bots_take_their_tournament_seats_back(nursery, tmp_path):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    bots = ["tcp", "lim17", "tcp", "never-bust"]
    ran = await run_whole(nursery, whole, bots)
    tid = ran["tournament"]
    _, _, want = head(whole, tid)
    crash_after(whole, cut, tid, 5)
    server = await recovered_run(nursery, cut, tid)
    found = tournaments_of(server).tournaments[tid]
    assert found.state == "waiting" and all(seat.held for seat in found.tcp)

    async def decide(game: int, observation: Any) -> Any:
        return stubborn(game, observation)

    async with trio.open_nursery() as bots_nursery:
        for i, token in enumerate(ran["tokens"]):

            async def back(i: int = i, token: str = token) -> None:
                async with connect(
                    "127.0.0.1", server.port, name=f"bot{i}", role="bot",
                    handlers={"decide": decide},
                ) as bot:  # fmt: skip
                    if i == 0:
                        with pytest.raises(RpcError) as wrong:
                            await bot.call("tournament.rejoin", token[::-1], [])
                        assert wrong.value.code == Code.BAD_TOKEN
                    await bot.call("tournament.rejoin", token, [])
                    await found.done.wait()

            bots_nursery.start_soon(back)
    await stop(server)
    state, reason, got = head(cut, tid)
    assert (state, reason) == ("finished", "played") and got == want


async def test_the_tournament_key_works_after_a_restart(nursery, tmp_path):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    ran = await run_whole(nursery, whole, ["tcp", "lim17"])
    crash_after(whole, cut, ran["tournament"], 2)
    server = await recovered_run(nursery, cut, ran["tournament"])
    async with connect("127.0.0.1", server.port, name="o") as other:
        with pytest.raises(RpcError) as refused:
            await other.call("tournament.stop", ran["tournament"], "not-its-key")
        assert refused.value.code == Code.NOT_ALLOWED
        info = await other.call("tournament.stop", ran["tournament"], ran["key"])
    assert info["state"] == "finished"
    await stop(server)


async def test_play_tournament_books_known_tables_without_playing_them(manager):
    game = manager.games.get("blackjack")
    config = TournamentConfig.of(game, game.rules("koth", {}), 5, tourneys=2, rounds=3, hands=2)
    entries = [GameStrategyEntry(n, "blackjack", game.strategy(n)) for n in STRATEGIES[:3]]
    played: list[Any] = []
    whole = await play_tournament(manager, config, entries, on_table=played.append)
    known = {(r.job.tourney, r.job.round, r.job.table): r for r in played[:4]}
    again: list[Any] = []
    resumed = await play_tournament(manager, config, entries, known=known, on_table=again.append)
    assert resumed == whole and len(again) == len(played) - 4
    assert {r.job for r in again}.isdisjoint(r.job for r in played[:4])
    other = TournamentConfig.of(game, game.rules("koth", {}), 6, tourneys=2, rounds=3, hands=2)
    with pytest.raises(CroupierError, match="does not match"):
        await play_tournament(manager, other, entries, known=known)


async def test_retention_deletes_a_finished_tournaments_tables_too(nursery, tmp_path):
    path = tmp_path / "j.db"
    ran = await run_whole(nursery, path, ["lim17", "never-bust"])
    assert booked(path, ran["tournament"])
    journal = Journal(str(path))
    assert await journal.prune(1, now=4_000_000_000.0) == (0, 1)
    await journal.aclose()
    assert booked(path, ran["tournament"]) == []
