"""Tournaments on the server: tcp seats filled by SDK bots, the same standings as a local
run with the same strategies, faults of silent and vanished bots, cancellation, errors."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.clients.bot import Bot
from croupier.clients.bot.tournament import join_tournament
from croupier.engine import PluginManager
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import TournamentResult, play_tournament
from croupier.plugins.blackjack.entries import StrategyEntry
from croupier.plugins.blackjack.play import Observation
from croupier.plugins.blackjack.strategy import strategy_action
from croupier.protocol import Code, RpcError, Server, connect
from tests import memnet

SETTINGS = {"tourneys": 3, "rounds": 4, "hands": 5, "seed": 77}
OPEN = {**SETTINGS, "open": True}  # any bot may take a tcp seat (no join key)


@pytest.fixture
async def served(nursery):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=41)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()


class StrategyBot(Bot):
    """A TCP bot playing a built-in strategy (its moves; bets and insurance are the
    defaults, which the strategy's player also gives)."""

    def __init__(self, manager: PluginManager, strategy: str) -> None:
        super().__init__()
        self.strategy = manager.strategies.get(strategy)
        self.name = f"tcp-{strategy}"

    def decide(self, observation: Observation) -> Any:
        return strategy_action(self.strategy, observation)


class Status:
    """Keeps every ``tournament.status`` and signals the finish."""

    def __init__(self) -> None:
        self.infos: list[dict[str, Any]] = []
        self.finished = trio.Event()

    async def __call__(self, method: str, params: Any) -> None:
        if method == "tournament.status":
            self.infos.append(params[1])
            if params[1]["state"] == "finished":
                self.finished.set()


def _lines(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (s["rank"], s["bot"], s["scores"], s["hands"], s["faults"], s["broke"])
        for s in result["standings"]
    ]


async def test_tcp_bots_get_the_standings_of_the_same_strategies_played_locally(served):
    manager = served.manager
    order = ["lim17", "never-bust", "mimic-dealer", "lim17"]  # entries 2 and 4 are TCP bots
    rules = manager.rule_sets.get("koth").rules
    config = TournamentConfig.of(manager.games.get("blackjack"), rules.to_dict(), **SETTINGS)
    local = await play_tournament(
        manager, config, [StrategyEntry(n, manager.strategies.get(n)) for n in order]
    )
    status = Status()
    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        info = await c.call_named(
            "tournament.start",
            {
                "bots": ["lim17", "tcp", "mimic-dealer", "tcp"],
                **OPEN,
                "decision_time": 10.0,  # the most allowed: no timeout under load
                "operator_key": served.operator_key,
            },
        )
        assert info["state"] == "waiting" and info["rules"]["dealer"] == rules.to_dict()["dealer"]
        assert [e["kind"] for e in info["entries"]] == ["strategy", "tcp", "strategy", "tcp"]
        finals: list[dict[str, Any]] = []
        async with trio.open_nursery() as nursery:
            for strategy in ("never-bust", "lim17"):  # joined in order: entries 2, then 4
                seated = trio.Event()
                bot = StrategyBot(manager, strategy)

                async def one(bot: Bot = bot, seated: trio.Event = seated) -> None:
                    finals.append(
                        await join_tournament(
                            bot,
                            "127.0.0.1",
                            served.port,
                            tournament=info["tournament"],
                            on_seated=lambda joined: seated.set(),
                        )
                    )

                nursery.start_soon(one)
                await seated.wait()
        with trio.fail_after(30):
            await status.finished.wait()
    final = status.infos[-1]
    assert final["reason"] == "played" and finals[0]["result"] == final["result"]
    assert _lines(final["result"]) == _lines(local.to_dict())
    assert [s["name"] for s in sorted(final["result"]["standings"], key=lambda s: s["bot"])] == [
        "lim17",
        "tcp-never-bust",
        "mimic-dealer",
        "tcp-lim17",
    ]
    assert TournamentResult.from_dict(final["result"]).to_dict() == final["result"]
    progress = [i["progress"]["done"] for i in status.infos if i["state"] == "playing"]
    assert progress == sorted(progress) and progress[-1] == 3 * 4
    assert final["result"]["conserved"]


async def test_silent_and_vanished_bots_get_the_default_and_the_tournament_goes_on(
    nursery, virtual_clock
):
    """On memory streams and virtual time: the silent bot's 0.05 s limits pass only when
    nothing else can run, so the in-process strategy never faults, however loaded the
    machine (on a real socket and the wall clock it did, under parallel test workers)."""
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=41)
    net = await memnet.serve(nursery, server)
    status = Status()

    async def silent(tournament: int, observation: Any) -> Any:
        await trio.sleep_forever()

    async with net.connect(name="t", on_notification=status) as c:
        info = await c.call_named(
            "tournament.start",
            {
                "bots": ["tcp", "lim17", "tcp"],
                "decision_time": 0.05,
                "max_faults": 0,
                **OPEN,
                "operator_key": server.operator_key,
            },
        )
        tid = info["tournament"]
        async with net.connect(name="mute", role="bot", handlers={"decide": silent}) as mute:
            await mute.call("tournament.join", tid)
            async with net.connect(name="gone", role="bot") as gone:
                await gone.call("tournament.join", tid)
            # "gone" has left before a single decision: every one of its seats defaults
            with trio.fail_after(60):
                await status.finished.wait()
    server.stop()
    result = status.infos[-1]["result"]
    by_entry = {s["bot"]: s for s in result["standings"]}
    assert by_entry[0]["faults"] > 0 and by_entry[2]["faults"] > 0
    assert by_entry[1]["faults"] == 0 and by_entry[0]["name"] == "mute"
    assert result["conserved"] and status.infos[-1]["reason"] == "played"


async def test_a_tournament_whose_tcp_seats_stay_empty_is_cancelled(served):
    status = Status()
    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        await c.call_named("tournament.start", {"bots": ["tcp", "lim17"], "join_time": 0.2})
        with trio.fail_after(10):
            await status.finished.wait()
    final = status.infos[-1]
    assert final["reason"] == "cancelled: 0 of 1 tcp bots joined within 0.2 s"
    assert final["result"] is None


@pytest.mark.parametrize(
    ("params", "code", "fragment"),
    [
        ({"bots": []}, Code.BAD_INPUT, "1 to 64 bots"),
        ({"bots": ["lim18"]}, Code.UNKNOWN_NAME, "lim18"),
        ({"bots": [3]}, Code.BAD_INPUT, "strategy names or 'tcp'"),
        ({"bots": ["tcp"], "decision_time": 60.0}, Code.BAD_INPUT, "decision_time"),
        ({"bots": ["tcp"], "tourneys": 0}, Code.BAD_INPUT, "tourneys must be an integer >= 1"),
        ({"bots": ["tcp"], "rules": "nope"}, Code.UNKNOWN_NAME, "nope"),
        ({"bots": ["lim17"] * 64, "rounds": 100_000}, Code.LIMIT_EXCEEDED, "hands"),
        (
            {"bots": ["basic"], "options": {"peek": True}},
            Code.BAD_INPUT,
            "without the dealer's peek",
        ),
    ],
)
async def test_bad_tournaments_get_one_line_errors(served, params, code, fragment):
    async with connect("127.0.0.1", served.port, name="t") as c:
        with pytest.raises(RpcError) as caught:
            await c.call_named("tournament.start", params)
    assert caught.value.code == code and fragment in caught.value.message


async def test_seats_of_a_tournament_are_checked(served):
    async with connect("127.0.0.1", served.port, name="b", role="bot") as b:
        with pytest.raises(RpcError, match="no tournament 9"):
            await b.call("tournament.join", 9)
        info = await b.call_named("tournament.start", {"bots": ["tcp"], "join_time": 5.0})
        await b.call("tournament.join", info["tournament"], [], info["join_key"])  # it starts
        with pytest.raises(RpcError) as caught:
            await b.call("tournament.join", info["tournament"], [], info["join_key"])
        assert caught.value.code in (Code.SEAT_TAKEN, Code.BAD_INPUT)
        with pytest.raises(RpcError) as caught:
            await b.call("tournament.rejoin", "not-a-token")
        assert caught.value.code == Code.BAD_TOKEN


async def test_a_watcher_cannot_take_a_tcp_seat_over(served):
    async with connect("127.0.0.1", served.port, name="b", role="bot") as b:
        info = await b.call_named(
            "tournament.start",
            {"bots": ["tcp", "tcp"], **OPEN, "operator_key": served.operator_key},
        )
        joined = await b.call("tournament.join", info["tournament"])  # one of two: it waits
        async with connect("127.0.0.1", served.port, name="eyes", role="watcher") as watcher:
            with pytest.raises(RpcError) as looking:
                await watcher.call("tournament.rejoin", joined["token"])
    assert looking.value.code == Code.NOT_ALLOWED and "watcher" in looking.value.message


async def test_a_bot_takes_its_tcp_seat_back_with_its_token(served):
    status = Status()
    answered = 0

    async def lim17(tournament: int, observation: Any) -> str:
        nonlocal answered
        answered += 1
        return "hit" if observation["total"] < 17 else "stand"

    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        info = await c.call_named(
            "tournament.start",
            {
                "bots": ["tcp", "lim17"],
                "decision_time": 0.5,
                **OPEN,
                "operator_key": served.operator_key,
            },
        )
        async with connect("127.0.0.1", served.port, name="first", role="bot") as first:
            joined = await first.call("tournament.join", info["tournament"])
        async with connect(
            "127.0.0.1", served.port, name="second", role="bot", handlers={"decide": lim17}
        ) as second:
            again = await second.call("tournament.rejoin", joined["token"], ["bet"])
            assert again["entry"] == joined["entry"] == 1
            with trio.fail_after(60):
                await status.finished.wait()
        with pytest.raises(RpcError) as caught:  # a finished tournament's token is void
            await c.call("tournament.rejoin", joined["token"])
        assert caught.value.code == Code.BAD_TOKEN
    result = status.infos[-1]["result"]
    assert answered > 0 and result["conserved"]
    assert result["standings"][0]["name"] in ("first", "lim17")  # named at the start


async def test_basic_plays_a_server_tournament_under_the_contests_rules(served):
    """``basic`` is bound to the tournament's rules on the server, so it never faults."""
    status = Status()
    async with connect("127.0.0.1", served.port, name="t", on_notification=status) as c:
        await c.call_named(
            "tournament.start",
            {"bots": ["basic", "lim17"], **OPEN, "operator_key": served.operator_key},
        )
        with trio.fail_after(30):
            await status.finished.wait()
    standings = {s["name"]: s for s in status.infos[-1]["result"]["standings"]}
    assert standings["basic"]["faults"] == 0 and standings["basic"]["hands"] > 0


async def test_tables_and_tournaments_never_share_an_id(served):
    """``decide``'s first parameter is a table or a tournament: one id space for both."""
    async with (
        connect("127.0.0.1", served.port, name="t") as c,
        connect("127.0.0.1", served.port, name="u") as u,  # one open tournament each
    ):
        started = await c.call_named("tournament.start", {"bots": ["tcp"], "join_time": 5.0})
        table = await c.call_named("table.create", {"seats": 1, "autostart": False})
        again = await u.call_named("tournament.start", {"bots": ["tcp"], "join_time": 5.0})
    ids = [started["tournament"], table["table"], again["tournament"]]
    assert len(set(ids)) == 3


async def test_a_watcher_that_went_away_leaves_no_task_behind(served):
    def pumps() -> list[str]:
        assert served._tasks is not None
        return [t.name for t in served._tasks.child_tasks if " -> " in t.name]

    async with connect("127.0.0.1", served.port, name="c") as c:
        info = await c.call_named(
            "tournament.start",
            {"bots": ["tcp", "lim17"], **OPEN, "operator_key": served.operator_key},
        )
        before = len(pumps())
        async with connect("127.0.0.1", served.port, name="w") as w:
            await w.call("tournament.watch", info["tournament"])
            assert len(pumps()) <= before + 1  # at most the feed's own task: none per watcher
        with trio.fail_after(5):
            while len(pumps()) > before + 1:  # a watcher's catch-up ends with its connection
                await trio.sleep(0.02)
