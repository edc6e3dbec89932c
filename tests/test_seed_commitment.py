"""A live table or tournament shows only a commitment to its seed: no method, notification
or page gives the seed to a seat, a watcher or a stranger; the operator key reads it; once
finished, the revealed seed and salt match the commitment and replay the table; a
tournament with tcp seats refuses a creator's seed; a restart never draws a seed again."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import trio

from croupier.engine import PluginManager
from croupier.engine.gamelog import replay_game
from croupier.engine.ledger import seat_account
from croupier.protocol import Code, RpcError, Server
from croupier.protocol.commitment import commitment, verify
from croupier.protocol.journal import Journal
from croupier.protocol.services import default_services
from croupier.protocol.tables import TableService
from croupier.protocol.tournaments import TournamentService
from tests import memnet

DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"

FINISHING = {"table.stop", "tournament.stop"}
"""Methods left out of the probe: they finish what they are given (then its seed is
public, as it should be)."""

DUMMY = {"integer": 1, "string": "x", "array": [], "map": {}, "boolean": True, "number": 1.0}


def stubborn(game: int, observation: Any) -> Any:
    if observation["phase"] == "bet":
        return {"kind": "bet", "amount": observation["min_bet"]}
    return {"kind": "hit" if (observation.get("total") or 0) < 15 else "stand"}


def tables(server: Server) -> TableService:
    return next(s for s in server.services if isinstance(s, TableService))


def tournaments(server: Server) -> TournamentService:
    return next(s for s in server.services if isinstance(s, TournamentService))


async def journaled(nursery: trio.Nursery, path: Path, seed: int = 11) -> Server:
    """A server on a journal, its tables waiting for their bots far longer than any test's
    virtual clock jumps (a create is answered once committed by the writer thread, in real
    time: the virtual clock jumps meanwhile, and a 60 s wait for a bot would be over)."""
    tables = TableService(vacant_timeout=10**6, unclaimed_timeout=10**6)
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=seed,
        journal=Journal(str(path)),
        services=[*default_services()[:-1], tables],
    )
    await memnet.serve(nursery, server)
    await server.recovered.wait()  # it serves while it rebuilds: wait until it has
    return server


async def stopped(server: Server) -> None:
    server.stop()
    await server.journal.aclose()


def test_the_commitment_is_the_documented_hash():
    shown = re.search(r"and `commit` is\s+`([0-9a-f]{64})`", DOCS.read_text())
    assert shown and commitment(5, "0" * 64) == shown[1]
    assert verify(5, "0" * 64, shown[1]) and not verify(6, "0" * 64, shown[1])
    assert not verify(5, "0" * 63 + "1", shown[1])


async def test_nobody_at_a_live_table_obtains_its_seed_by_any_method(
    nursery, tmp_path, virtual_clock
):
    server = await journaled(nursery, tmp_path / "j.db")
    net: memnet.MemoryNet = server.net  # type: ignore[attr-defined]
    heard: list[Any] = []
    release = trio.Event()

    async def notified(method: str, params: Any) -> None:
        heard.append((method, params))

    async def held(game: int, observation: Any) -> Any:
        await release.wait()  # the table stays live, mid-round, while it is probed
        return stubborn(game, observation)

    async with (
        net.connect(
            name="prober", role="bot", handlers={"decide": held}, on_notification=notified
        ) as prober,
        net.connect(name="eyes", role="watcher", on_notification=notified) as watcher,
        net.connect(name="stranger", on_notification=notified) as stranger,
    ):
        # the prober made the table and sits at it: it has its key and a seat's token
        params = {"seats": 2, "fill": [None, "lim17"], "decision_time": None}
        made = await prober.call_named("table.create", params)
        table = made["table"]
        seat = await prober.call("table.join", table, 1)
        tour = await prober.call_named(
            "tournament.start", {"bots": ["tcp", "tcp", "lim17"], "join_time": 600.0}
        )
        entry = await prober.call("tournament.join", tour["tournament"], [], tour["join_key"])
        await watcher.call("table.watch", table)
        await watcher.call("tournament.watch", tour["tournament"])
        assert made["seed"] is None and made["salt"] is None and len(made["commit"]) == 64
        assert tables(server).tables[table].state == "playing"

        methods = await stranger.call("methods")
        names = {m["name"] for m in methods}
        assert names >= FINISHING | {"table.seed", "tournament.seed"}
        answers: list[Any] = []
        for client, mine in ((prober, True), (watcher, False), (stranger, False)):
            for method in methods:
                if method["name"] in FINISHING:
                    continue
                game = "tournament" if method["name"].startswith("tournament.") else "table"
                given: dict[str, Any] = {}
                for param in method["params"]:
                    name = param["name"]
                    if name == "table":
                        given[name] = table
                    elif name == "tournament":
                        given[name] = tour["tournament"]
                    elif name == "key" and mine:  # its own keys, where a key is asked for
                        given[name] = made["key"] if game == "table" else tour["key"]
                    elif name == "token" and mine and method["name"] != "table.leave":
                        given[name] = seat["token"] if game == "table" else entry["token"]
                    elif param["required"]:
                        given[name] = DUMMY[param["type"].split(" or ")[0]]
                try:
                    answers.append(await client.call_named(method["name"], given))
                except RpcError as exc:
                    answers.append((exc.code, exc.message, exc.data))
        assert not tables(server).tables[table].revealed  # both still live
        assert not tournaments(server).tournaments[tour["tournament"]].revealed
        live = [t.commitment for t in tables(server).tables.values() if not t.revealed] + [
            t.commitment for t in tournaments(server).tournaments.values() if not t.revealed
        ]
        assert len(live) >= 2  # the table and the tournament, and the tables probes made
        said = repr(answers) + repr(heard)
        for secret in live:
            assert str(secret.seed) not in said and secret.salt not in said
            assert secret.commit in said  # what is shown instead
        # the operator key reads a live seed; the table's own key does not
        for key in (made["key"], "é"):
            with pytest.raises(RpcError) as refused:
                await prober.call("table.seed", table, key)
            assert refused.value.code == Code.NOT_ALLOWED
        shown = await stranger.call("table.seed", table, server.operator_key)
        assert shown["seed"] == tables(server).tables[table].seed
        assert verify(shown["seed"], shown["salt"], made["commit"])
        shown = await stranger.call("tournament.seed", tour["tournament"], server.operator_key)
        assert verify(shown["seed"], shown["salt"], tour["commit"])
        release.set()
        await stranger.call("table.stop", table, server.operator_key)
    await stopped(server)


async def test_the_revealed_seed_matches_the_commitment_and_replays_the_table(
    nursery, tmp_path, virtual_clock
):
    server = await journaled(nursery, tmp_path / "j.db")
    net: memnet.MemoryNet = server.net  # type: ignore[attr-defined]
    finished: list[dict[str, Any]] = []

    async def notified(method: str, params: Any) -> None:
        if method == "table.status" and params[1]["state"] == "finished":
            finished.append(params[1])

    async with net.connect(
        name="bot", role="bot", handlers={"decide": stubborn}, on_notification=notified
    ) as bot:
        params = {"seats": 3, "fill": [None, "lim17", "never-bust"], "rounds": 12}
        made = await bot.call_named("table.create", params)
        await bot.call("table.join", made["table"], 1)
        while not finished:
            await trio.sleep(1)
        (final,) = finished
        assert final["seed"] is not None and final["commit"] == made["commit"]
        assert verify(final["seed"], final["salt"], made["commit"])
        assert await bot.call("table.seed", made["table"]) == {
            "table": made["table"],
            "seed": final["seed"],
            "salt": final["salt"],
            "commit": made["commit"],
        }  # anyone's, once finished
        record = await bot.call("history.table", made["table"])
        assert (record["seed"], record["salt"]) == (final["seed"], final["salt"])
        lines = (await bot.call("history.export", made["table"]))["lines"]
    header = json.loads(lines[0])
    assert header["seed"] == final["seed"] and verify(
        header["seed"], header["salt"], made["commit"]
    )
    core = replay_game(server.manager, lines)  # every card, from the revealed seed
    assert [core.ledger.balances[seat_account(s)] for s in (1, 2, 3)] == final["chips"]
    await stopped(server)


async def test_a_tournament_with_tcp_seats_refuses_a_creators_seed(nursery, virtual_clock):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=3)
    net = await memnet.serve(nursery, server)
    settings = {"tourneys": 1, "rounds": 1, "hands": 1, "seed": 42}
    async with net.connect(name="creator") as c:
        for key in (None, "not-the-operator-key", "\u202e", "é"):
            with pytest.raises(RpcError) as refused:
                await c.call_named(
                    "tournament.start", {"bots": ["tcp", "lim17"], **settings, "operator_key": key}
                )
            assert refused.value.code == Code.NOT_ALLOWED
            assert "a seed given needs the operator key" in refused.value.message
        assert not tournaments(server).tournaments  # refused before anything was made
        key = server.operator_key
        given = await c.call_named(
            "tournament.start", {"bots": ["tcp", "lim17"], **settings, "operator_key": key}
        )
        assert given["seed"] is None and given["salt"] is None
        ended = await c.call("tournament.stop", given["tournament"])  # cancelled: revealed
        assert ended["seed"] == 42 and verify(42, ended["salt"], given["commit"])
        alone = await c.call_named("tournament.start", {"bots": ["lim17", "basic"], **settings})
        assert alone["seed"] is None  # strategies only may take a seed; shown once finished
        assert (await c.call("tournament.seed", alone["tournament"], key))["seed"] == 42
    server.stop()


async def test_a_restarted_server_never_draws_a_seed_again(nursery, tmp_path, virtual_clock):
    async def drawn(path: Path, count: int) -> list[int]:
        server = await journaled(nursery, path, seed=2024)
        net: memnet.MemoryNet = server.net  # type: ignore[attr-defined]
        seeds = []
        async with net.connect(name="c") as c:
            for _ in range(count):
                made = await c.call_named("table.create", {"fill": ["lim17"], "rounds": 1})
                shown = await c.call("table.seed", made["table"], server.operator_key)
                assert verify(shown["seed"], shown["salt"], made["commit"])
                seeds.append(shown["seed"])
        await stopped(server)
        return seeds

    first = await drawn(tmp_path / "j.db", 3)
    again = await drawn(tmp_path / "j.db", 3)  # restarted on the same journal
    assert len(set(first + again)) == 6
    fresh = await drawn(tmp_path / "other.db", 3)  # --seed 2024 on a fresh journal
    assert fresh == first
    none = Server(PluginManager(autoload=False), seed=2024)  # or without a journal
    assert [none.derive_seed("table") for _ in range(3)] == first


async def test_a_recovered_table_keeps_its_seed_and_its_commitment(
    nursery, tmp_path, virtual_clock
):
    path = tmp_path / "j.db"
    server = await journaled(nursery, path)
    net: memnet.MemoryNet = server.net  # type: ignore[attr-defined]
    async with net.connect(name="bot", role="bot", handlers={"decide": stubborn}) as bot:
        params = {"seats": 2, "fill": [None, "lim17"], "rounds": 50, "decision_time": 5.0}
        made = await bot.call_named("table.create", params)
        await bot.call("table.join", made["table"], 1)
        before = await bot.call("table.seed", made["table"], server.operator_key)
    await stopped(server)  # the shutdown leaves it unfinished: it resumes on restart
    server = await journaled(nursery, path)
    found = tables(server).tables[made["table"]]
    assert found.state == "playing" and not found.revealed
    net = server.net  # type: ignore[attr-defined]
    async with net.connect(name="c") as c:
        info = await c.call("table.info", made["table"])
        assert info["commit"] == made["commit"] and info["seed"] is None
        after = await c.call("table.seed", made["table"], server.operator_key)
    assert after == before
    await stopped(server)
