"""The bot SDK (function and class bots, sync and async, reconnection) against a real
server (the sample bots and ``croupier bot``: test_bot_cli.py)."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.clients.bot import Bot, play, run
from croupier.clients.bot.samples import Basic, HiLo
from croupier.engine import CroupierError, PluginManager
from croupier.plugins.blackjack.play import Event, Observation
from croupier.protocol import Server


@pytest.fixture
async def served(nursery):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=21)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()


@pytest.fixture
def port(served):
    return served.port


async def test_an_async_function_is_a_bot(port):
    seen: list[str] = []

    async def stand(observation: Observation) -> str:
        seen.append(observation.phase)
        return "stand"

    final = await play(stand, "127.0.0.1", port, create={"rounds": 3, "seed": 1})
    assert final["played"] == 3 and final["reason"] == "3 rounds played"
    assert set(seen) <= {"play"}  # bets, insurance and surrender are the SDK's defaults


async def test_a_class_bot_gets_its_hooks_in_order(port):
    class Watchful(Bot):
        name = "watchful"

        def __init__(self) -> None:
            super().__init__()
            self.log: list[str] = []

        def decide(self, observation: Observation) -> str:
            self.log.append("decide")
            return "hit" if observation.total < 12 else "stand"

        async def bet(self, observation: Observation) -> int:
            return observation.min_bet * 2

        def on_round(self, round_: int) -> None:
            self.log.append(f"round {round_}")

        async def on_event(self, event: Event) -> None:
            if event.kind == "end":
                self.log.append("end")

    bot = Watchful()
    final = await play(bot, "127.0.0.1", port, create={"rounds": 4, "seed": 2})
    assert final["played"] == 4 and bot.seat == 1 and final["seed"] == 2
    assert bot.table["seed"] is None  # what it saw while the table played: no seed
    rounds = [entry for entry in bot.log if entry.startswith("round")]
    assert rounds == ["round 1", "round 2", "round 3", "round 4"]
    assert bot.log.count("end") == 4 and bot.log[0] == "round 1"


async def test_a_bot_keeps_working_when_the_server_adds_fields(port, monkeypatch):
    """A newer server may add fields to observations and events: a deployed bot ignores
    them (the same bot fails if the reader is strict, as the last lines show)."""
    observation_dict, event_dict = Observation.to_dict, Event.to_dict
    monkeypatch.setattr(Observation, "to_dict", lambda o: {**observation_dict(o), "mood": 1})
    monkeypatch.setattr(Event, "to_dict", lambda e: {**event_dict(e), "lights": ["dim"]})
    bot = HiLo(PluginManager(autoload=False))
    final = await play(bot, "127.0.0.1", port, create={"rounds": 6, "seed": 3})
    assert final["played"] == 6 and final["reason"] == "6 rounds played"
    assert bot.count.remaining < 52 * 6  # it counted cards from events with a new field
    sent = {**observation_dict(Observation("play", 1, 1, ("stand",), 10)), "mood": 1}
    assert Observation.read(sent).phase == "play"
    with pytest.raises(CroupierError, match="unknown Observation field"):
        Observation.from_dict(sent)  # a strict reader (logs, the server) still refuses


async def test_the_sync_flavour_runs_in_its_own_thread(port):
    final = await trio.to_thread.run_sync(
        lambda: run(lambda o: "stand", "127.0.0.1", port, create={"rounds": 2})
    )
    assert final["played"] == 2


async def test_a_bot_reconnects_and_takes_its_seat_back(served, nursery):
    port = served.port
    decisions = 0

    def lim17(observation: Observation) -> str:
        nonlocal decisions
        decisions += 1
        return "hit" if observation.total < 17 else "stand"

    results: list[dict[str, Any]] = []

    async def go() -> None:
        results.append(
            await play(lim17, "127.0.0.1", port, create={"rounds": 40, "seed": 6}, name="phoenix")
        )

    nursery.start_soon(go)
    with trio.fail_after(10):
        while decisions < 5:
            await trio.sleep(0.001)
    # cut the bot's connection from the server side
    victim = next(c for c in served.connections.values() if c.client == "phoenix")
    await victim.session.close()
    before = decisions
    with trio.fail_after(20):
        while not results:
            await trio.sleep(0.01)
    assert results[0]["played"] == 40 and decisions > before
    assert results[0]["seats"][0]["player"] == "phoenix"


async def test_a_table_that_does_not_exist_is_a_one_line_error(port):
    from croupier.protocol import RpcError

    with pytest.raises(RpcError, match="no table 42"):
        await play(lambda o: "stand", "127.0.0.1", port, table=42)


def test_a_bot_class_without_decide_is_refused_before_it_sits():
    from croupier.clients.bot.sdk import Bot, as_bot
    from croupier.engine import CroupierError

    class Lazy(Bot):
        pass

    with pytest.raises(CroupierError, match="Lazy must define decide"):
        as_bot(Lazy())


async def test_a_bot_knows_its_seat_before_its_first_event(port):
    """Taking the last seat starts the table at once, so events can come before the answer
    to table.join: the SDK holds them until the bot knows its seat, then gives them in
    order, and a bot that books its chips from them is never off."""

    class Bookkeeper(Bot):
        name = "bookkeeper"

        def __init__(self) -> None:
            super().__init__()
            self.seat_at_event: list[int] = []
            self.chips = 0
            self.seen_chips: list[tuple[int, int]] = []

        def decide(self, observation: Observation) -> str:
            self.seen_chips.append((observation.chips, self.chips))
            return "stand"

        def on_table(self, info: dict[str, Any]) -> None:
            if info["state"] == "waiting" or not self.chips:
                self.chips = info["chips"][self.seat - 1]

        def on_event(self, event: Event) -> None:
            self.seat_at_event.append(self.seat)
            if event.kind == "chips" and event.seat == self.seat:
                self.chips += event.amount

    for seed in range(4):  # the race shows up in some runs, not all
        bot = Bookkeeper()
        create = {"rules": "koth", "rounds": 3, "seed": seed}  # koth: no bet phase to ask
        final = await play(bot, "127.0.0.1", port, create=create)
        assert bot.seat_at_event and 0 not in bot.seat_at_event
        assert all(seen == booked for seen, booked in bot.seen_chips)
        assert bot.chips == final["chips"][bot.seat - 1]


async def test_an_on_table_hook_that_raises_does_not_keep_play_waiting(port):
    class Grumpy(Bot):
        name = "grumpy"

        def decide(self, observation: Observation) -> str:
            return "stand"

        def on_table(self, info: dict[str, Any]) -> None:
            if info["state"] == "finished":
                raise KeyError("no thanks")

    with trio.fail_after(20):
        final = await play(Grumpy(), "127.0.0.1", port, create={"rounds": 2, "seed": 3})
    assert final["state"] == "finished" and final["played"] == 2


async def test_a_bad_answer_is_refused_with_its_reason(port):
    events: list[Event] = []

    class Confused(Bot):
        name = "confused"

        def decide(self, observation: Observation) -> Any:
            return 42  # not an action

        def on_event(self, event: Event) -> None:
            events.append(event)

    await play(Confused(), "127.0.0.1", port, create={"rounds": 1, "seed": 3})
    defaults = [e for e in events if e.kind == "default"]
    assert defaults and all("decide returned int" in (e.reason or "") for e in defaults)


async def test_events_that_come_before_the_join_answer_wait_for_the_seat():
    """The race itself, made certain: the server's events arrive while table.join is being
    answered."""
    from croupier.clients.bot.sdk import _Seat

    seen: list[tuple[str, int]] = []

    class Witness(Bot):
        name = "witness"

        def decide(self, observation: Observation) -> str:
            return "stand"

        def on_table(self, info: dict[str, Any]) -> None:
            seen.append(("table", self.seat))

        def on_event(self, event: Event) -> None:
            seen.append((event.kind, self.seat))

    me = _Seat(Witness())
    me.table = 7

    class Client:
        async def call(self, method: str, *params: Any) -> Any:
            if method == "table.info":
                return {"table": 7, "state": "waiting"}
            assert method == "table.join"
            for kind in ("round", "deal"):  # the table started as we sat down
                await me.notified("table.event", [7, {"kind": kind, "round": 1}])
            return {"token": "t", "seat": 3, "info": {"table": 7, "state": "playing"}}

    assert await me.sit(Client(), None, {})  # type: ignore[arg-type]
    assert seen == [("table", 3), ("round", 3), ("deal", 3)]


async def test_a_stopped_bot_gives_its_seat_up_at_once(port):
    """Ctrl-C on a bot left its seat playing defaults for 60 s (3,042 rounds)."""
    from croupier.protocol import connect

    seated = trio.Event()
    create = {"seats": 2, "fill": [None, "lim17"], "rounds": 10**6, "decision_time": 5.0}
    create["options"] = {"starting_chips": 10**9}
    box: dict[str, Any] = {}

    def on_seated(joined: dict[str, Any]) -> None:
        box.update(joined)
        seated.set()

    async def slow(observation: Observation) -> str:
        await trio.sleep(0.01)
        return "stand"

    with trio.CancelScope() as stopped:

        async def stop_when_seated() -> None:
            await seated.wait()
            await trio.sleep(0.2)  # a few rounds in
            stopped.cancel()  # what Ctrl-C does to play()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(stop_when_seated)
            await play(slow, "127.0.0.1", port, create=create, on_seated=on_seated)
    async with connect("127.0.0.1", port, name="look") as c:
        info = await c.call("table.info", box["table"])
    assert info["seats"][box["seat"] - 1]["kind"] == "free"  # given up, not held by a ghost


async def test_a_bot_is_refused_a_table_of_another_game_before_it_sits(port, manager):
    """A blackjack bot sent to a baccarat table (and a baccarat bot to a blackjack table)
    gets one line naming both games, before its setup reads the other game's rules; it
    once met "unknown rule option(s): commission, tie_pays" or a refusal of its auto
    phases."""
    from croupier.clients.bot.gamebot import GameBot
    from croupier.protocol import connect

    class Banker(GameBot):
        def decide(self, observation: Any) -> Any:
            return {"kind": "bet", "banker": observation["min_bet"]}

    async with connect("127.0.0.1", port, name="host") as client:
        baccarat = await client.call_named("table.create", {"game": "baccarat", "seats": 2})
        blackjack = await client.call_named("table.create", {"seats": 2})
    tries = ((Basic(manager), baccarat, "baccarat"), (Banker(), blackjack, "blackjack"))
    for bot, table, game in tries:
        with pytest.raises(CroupierError) as refused:
            await play(bot, "127.0.0.1", port, table=table["table"])
        mine = "blackjack" if game == "baccarat" else "baccarat"
        assert str(refused.value) == f"table {table['table']} plays {game}, not {mine}"


async def test_a_connection_lost_between_creating_the_table_and_sitting_sits_down_again(served):
    # `croupier bot basic` works out its chart (setup) between table.create and table.join:
    # a server restart in those seconds ended the bot with "the connection closed during
    # 'table.join'" instead of reconnecting as it does once seated
    class Cut(Bot):
        setups = 0

        async def setup(self, info: dict[str, Any]) -> None:
            self.setups += 1
            if self.setups == 1:
                victim = next(c for c in served.connections.values() if c.client == "cut")
                await victim.session.close()

        def decide(self, observation: Observation) -> str:
            return "stand"

    bot = Cut()
    bot.name = "cut"
    with trio.fail_after(20):
        final = await play(bot, "127.0.0.1", served.port, create={"rounds": 3, "seed": 2})
    assert bot.setups == 2 and final["played"] == 3
    assert final["seats"][0]["player"] == "cut"


async def test_a_bot_for_a_known_table_tries_again_when_the_server_drops_it_before_it_sits(
    port, monkeypatch
):
    """A server killed while a bot's ``hello`` or ``table.info`` was on its way: the bot,
    told its table, connects again and sits (it gave up at once, whatever ``reconnect``)."""
    from croupier.clients.bot import sdk
    from croupier.protocol import ConnectionClosed, connect

    async with connect("127.0.0.1", port, name="creator") as creator:
        info = await creator.call_named("table.create", {"rounds": 2, "seed": 3})
        real, tries = sdk.bot_connection, []

        def dropped_once(me: Any, host: str, port_: int) -> Any:
            tries.append(host)
            if len(tries) == 1:
                raise ConnectionClosed("the server closed the connection during hello")
            return real(me, host, port_)

        monkeypatch.setattr(sdk, "bot_connection", dropped_once)
        final = await play(lambda o: "stand", "127.0.0.1", port, table=info["table"], reconnect=2)
    assert len(tries) == 2 and final["played"] == 2
    unknown = []  # a table never found is no reason to try again
    monkeypatch.setattr(sdk, "bot_connection", lambda *a: unknown.append(a) or real(*a))
    with pytest.raises(Exception, match="no table"):
        await play(lambda o: "stand", "127.0.0.1", port, table=9999, reconnect=2)
    assert len(unknown) == 1
