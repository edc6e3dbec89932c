"""The tables service on an in-memory network and virtual time: bots, watchers, defaults,
tokens, errors."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from croupier.clients.bot import play, sdk
from croupier.clients.bot.samples import sample_bot
from croupier.protocol import Code, RpcError
from croupier.protocol.commitment import verify
from tests import memnet
from tests.servedtables import Recorder, replayed_chips, table_server


@pytest.fixture
async def served(nursery):
    server = table_server(vacant_timeout=0.5, unclaimed_timeout=30)
    await memnet.serve(nursery, server)
    yield server
    server.stop()


async def test_four_bots_play_a_table_that_a_watcher_can_replay(served, virtual_clock, monkeypatch):
    monkeypatch.setattr(sdk, "connect", served.net.connector())  # the SDK connects itself
    watcher = Recorder()
    async with served.net.connect(name="w", on_notification=watcher) as w:
        info = await w.call_named("table.create", {"seats": 4, "rounds": 30, "seed": 5})
        assert info["state"] == "waiting" and info["seed"] is None and info["salt"] is None
        await w.call("table.watch", info["table"])
        results: list[dict[str, Any]] = []
        bots = [sample_bot(n, served.manager) for n in ("lim17", "basic", "hilo", "lim17")]

        async def one(bot: Any) -> None:
            results.append(await play(bot, table=info["table"]))

        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(one, bot)
        await watcher.finished.wait()
    final = watcher.statuses[-1]
    assert all(r == final for r in results)
    assert final["played"] == 30 and final["reason"] == "30 rounds played"
    assert sum(final["chips"]) + final["house"] == 4000
    assert final["seed"] == 5 and verify(5, final["salt"], info["commit"])  # revealed
    assert replayed_chips(final, watcher.events) == final["chips"]
    assert not watcher.kinds("default") and not watcher.kinds("refused")
    assert sorted(b.seat for b in bots) == [1, 2, 3, 4]
    assert len(watcher.kinds("end")) == 30


async def test_a_table_is_reproducible_from_its_seed(served, virtual_clock):
    async def once() -> dict[str, Any]:
        async with served.net.connect(name="c") as c:
            fill = ["lim17", "basic", "never-bust"]
            info = await c.call_named(
                "table.create", {"seats": 3, "rounds": 20, "seed": 99, "fill": fill}
            )
            while info["state"] != "finished":
                await trio.sleep(0.01)
                info = await c.call("table.info", info["table"])
            return info

    first, second = await once(), await once()
    assert first["chips"] == second["chips"] and first["table"] != second["table"]


async def test_a_bot_that_never_answers_gets_the_default_and_the_table_goes_on(
    served, virtual_clock
):
    rec = Recorder()

    async def silent(table: int, observation: Any) -> Any:
        await trio.sleep_forever()

    async with served.net.connect(
        name="mute", role="bot",
        handlers={"decide": silent}, on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named(
            "table.create",
            {"seats": 2, "fill": [None, "lim17"], "rounds": 2, "decision_time": 0.1},
        )
        await bot.call("table.join", info["table"])
        with trio.fail_after(10):
            await rec.finished.wait()
    defaults = rec.kinds("default")
    assert defaults and all(d["seat"] == 1 for d in defaults)
    assert all(d["reason"] == "timeout after 0.1s" for d in defaults)
    bets = [a for a in rec.kinds("action") if a["seat"] == 1 and a["action"] == "bet"]
    assert [b["amount"] for b in bets] == [10, 10]  # the default bet: the minimum
    final = rec.statuses[-1]
    assert final["played"] == 2 and sum(final["chips"]) + final["house"] == 2000
    assert replayed_chips(final, rec.events) == final["chips"]


async def test_a_huge_answer_is_quoted_short_and_the_events_go_on(served, virtual_clock):
    rec = Recorder()

    async def verbose(table: int, observation: Any) -> Any:
        return "x" * 1_000_000  # under the message limit; quoted whole, the event was not

    async with served.net.connect(
        name="verbose", role="bot",
        handlers={"decide": verbose}, on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", {"rounds": 2, "seed": 3})
        await bot.call("table.join", info["table"])
        with trio.fail_after(20):
            await rec.finished.wait()
    defaults = rec.kinds("default")
    assert defaults and all(len(d["reason"]) < 300 for d in defaults)
    assert rec.statuses[-1]["played"] == 2 and len(rec.kinds("end")) == 2


async def test_a_default_says_in_words_what_the_bot_did(served, virtual_clock):
    """Events said 'error: RpcError: ...' and 'SeatVacant: ...': class names, not words."""
    rec = Recorder()

    async def broken(table: int, observation: Any) -> Any:
        raise ValueError("my bug")

    async with served.net.connect(
        name="broken", role="bot",
        handlers={"decide": broken}, on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", {"rounds": 1, "seed": 3})
        await bot.call("table.join", info["table"])
        with trio.fail_after(20):
            await rec.finished.wait()
    reasons = {d["reason"] for d in rec.kinds("default")}
    assert reasons and all(r.startswith("error: the bot answered with an error: ") for r in reasons)
    assert not any("RpcError" in r or "SeatVacant" in r for r in reasons)


async def test_an_illegal_action_is_refused_then_defaulted(served, virtual_clock):
    rec = Recorder()
    seen: list[Any] = []

    async def stubborn(table: int, observation: Any) -> Any:
        seen.append(observation["refused"])
        if observation["phase"] == "bet":
            return {"kind": "bet", "amount": observation["min_bet"]}
        return "bet 5"

    async with served.net.connect(
        name="stubborn", role="bot",
        handlers={"decide": stubborn}, on_notification=rec,
    ) as bot:  # fmt: skip
        info = await bot.call_named("table.create", {"rounds": 3, "seed": 3})
        await bot.call("table.join", info["table"])
        with trio.fail_after(10):
            await rec.finished.wait()
    refused, defaults = rec.kinds("refused"), rec.kinds("default")
    assert defaults and all(d["reason"] == "3 answers refused" for d in defaults)
    assert len(refused) == 3 * len(defaults)
    assert "bet" in refused[0]["reason"]
    assert None in seen and refused[0]["reason"] in seen  # asked again, told why
    moves = [a["action"] for a in rec.kinds("action") if a["action"] != "bet"]
    assert moves == ["stand"] * len(defaults)
    assert replayed_chips(rec.statuses[-1], rec.events) == rec.statuses[-1]["chips"]


async def test_a_bot_that_disconnects_mid_hand_comes_back_with_its_token(served, virtual_clock):
    watcher = Recorder()
    async with served.net.connect(name="w", on_notification=watcher) as w:
        info = await w.call_named(
            "table.create",
            {"seats": 2, "fill": [None, "never-bust"], "seed": 8, "decision_time": 1.0},
        )  # fmt: skip
        table = info["table"]
        await w.call("table.watch", table)
        dropped = trio.Event()

        async def vanish(table: int, observation: Any) -> Any:
            if observation["phase"] == "play":
                dropped.set()
                await trio.sleep_forever()
            return {"kind": "bet", "amount": observation["min_bet"]}

        async with served.net.connect(name="flaky", role="bot", handlers={"decide": vanish}) as bot:
            joined = await bot.call("table.join", table)
            await dropped.wait()
        # the connection is gone mid-hand: the seat plays the default, the table goes on
        await watcher.until(lambda: bool(watcher.kinds("default")))
        assert watcher.kinds("default")[0]["reason"] == "error: the bot's connection closed"

        async def stand(table: int, observation: Any) -> Any:
            # a legal answer in every phase (insurance comes up by round 11), so the only
            # default is the one the first bot walked out of, however fast the table plays
            phase = observation["phase"]
            if phase == "insurance":
                return "decline"
            return "stand" if phase == "play" else f"bet {observation['min_bet']}"

        async with served.net.connect(
            name="flaky", role="bot", handlers={"decide": stand}
        ) as again:
            back = await again.call("table.rejoin", joined["token"])
            assert back["seat"] == joined["seat"] == 1
            ends = len(watcher.kinds("end"))
            await watcher.until(lambda: len(watcher.kinds("end")) >= ends + 3)
            # only the decision the bot walked out of got the default
            assert len(watcher.kinds("default")) == 1
            await again.call("table.leave", joined["token"])
            with trio.fail_after(10):
                await watcher.finished.wait()
    final = watcher.statuses[-1]
    assert final["reason"] == "every bot left" and final["played"] >= 4
    assert replayed_chips(final, watcher.events) == final["chips"]


async def test_seat_tokens_cannot_be_misused(served, virtual_clock):
    async def never(table: int, observation: Any) -> Any:
        return "stand"

    async with (
        served.net.connect(name="a", role="bot", handlers={"decide": never}) as a,
        served.net.connect(name="b", role="bot") as b,
        served.net.connect(name="v", role="watcher") as v,
    ):
        info = await a.call_named("table.create", {"seats": 2, "autostart": False})
        table = info["table"]
        mine = await a.call("table.join", table, 1)
        with pytest.raises(RpcError) as taken:
            await b.call("table.join", table, 1)
        assert taken.value.code == Code.SEAT_TAKEN
        last = mine["token"][-1]
        altered = mine["token"][:-1] + ("y" if last == "x" else "x")  # never the token itself
        for bad in ("not-a-token", altered):
            with pytest.raises(RpcError) as exc:
                await b.call("table.rejoin", bad)
            assert exc.value.code == Code.BAD_TOKEN
            with pytest.raises(RpcError) as exc:
                await b.call("table.leave", bad)
            assert exc.value.code == Code.BAD_TOKEN
        with pytest.raises(RpcError) as watcher:
            await v.call("table.join", table)
        assert watcher.value.code == Code.NOT_ALLOWED and "watcher" in watcher.value.message
        with pytest.raises(RpcError) as not_full:
            await a.call("table.start", table)
        assert "free seats: 2" in not_full.value.message
        await a.call("table.leave", mine["token"])
        with pytest.raises(RpcError) as gone:
            await a.call("table.rejoin", mine["token"])
        assert gone.value.code == Code.BAD_TOKEN
        with pytest.raises(RpcError) as unknown:
            await a.call("table.info", 999)
        assert unknown.value.code == Code.UNKNOWN_NAME


@pytest.mark.parametrize(
    ("params", "code", "fragment"),
    [
        ({"rules": "nope"}, Code.UNKNOWN_NAME, "blackjack has no rule set 'nope'"),
        ({"options": {"decks": 0}}, Code.BAD_INPUT, "decks must be between"),
        ({"options": {"colour": 1}}, Code.BAD_INPUT, "blackjack has no option 'colour'"),
        # types the range checks alone would let through, to break the table later
        ({"options": {"decks": 1.5}}, Code.BAD_INPUT, "decks must be a whole number"),
        ({"options": {"min_bet": 1.5}}, Code.BAD_INPUT, "min_bet must be a whole number"),
        ({"options": {"peek": 1}}, Code.BAD_INPUT, "peek must be true or false"),
        # balances that would outgrow 64 bits (and msgpack) after a few naturals
        ({"options": {"blackjack_pays": "10**18:1"}}, Code.BAD_INPUT, "payout is written"),
        ({"options": {"blackjack_pays": "1e400"}}, Code.BAD_INPUT, "terms of at most 1000"),
        ({"options": {"max_bet": 10**13}}, Code.BAD_INPUT, "at most 1,000,000,000,000"),
        ({"seats": 8}, Code.BAD_INPUT, "1 to 7 seats"),
        ({"fill": ["lim17"]}, Code.BAD_INPUT, "needs a number of rounds"),
        ({"fill": ["psychic"], "rounds": 1}, Code.UNKNOWN_NAME, "has no strategy 'psychic'"),
        (
            {"rules": "koth", "options": {"peek": True}, "fill": ["basic"], "rounds": 1},
            Code.BAD_INPUT,
            "without the dealer's peek",
        ),
        ({"fill": [3]}, Code.BAD_INPUT, "strategy names or nil"),
        ({"decision_time": 0}, Code.BAD_INPUT, "decision_time"),
        ({"rounds": 0}, Code.BAD_INPUT, "rounds must be 1 to 1,000,000"),
        ({"rounds": 2**63}, Code.BAD_INPUT, "rounds must be 1 to 1,000,000"),
        ({"seed": -1}, Code.BAD_INPUT, "a seed is 0 to 2**64-1"),
        ({"seats": "2"}, Code.INVALID_PARAMS, "'seats' must be integer"),
    ],
)
async def test_bad_tables_get_one_line_errors(served, virtual_clock, params, code, fragment):
    async with served.net.connect(name="c") as c:
        with pytest.raises(RpcError) as exc:
            await c.call_named("table.create", params)
    assert exc.value.code == code and fragment in exc.value.message
    assert "\n" not in exc.value.message


async def test_a_raw_msgpack_bot_plays(served, virtual_clock):
    raw = served.net.raw()
    await raw.call(0, "hello", 1, "raw-bot", "bot")
    created = await raw.call(1, "table.create", "vegas-s17", {}, 4, 1, [], 2)
    joined = await raw.call(2, "table.join", created[3]["table"])
    assert joined[2] is None and joined[3]["seat"] == 1
    decides = 0
    while True:
        message = await raw.receive()
        if message[0] == 0:
            decides += 1
            observation = message[3][1]
            answer = "hit" if observation["total"] < 17 else "stand"
            if observation["phase"] == "bet":
                answer = f"bet {observation['min_bet']}"
            await raw.send([1, message[1], None, answer])
        elif message[1] == "table.status" and message[2][1]["state"] == "finished":
            break
    assert decides >= 2 and message[2][1]["played"] == 2
    await raw.aclose()


async def test_a_plain_function_can_take_the_notifications(served, virtual_clock):
    got: list[tuple[str, Any]] = []
    done = trio.Event()

    def plain(method: str, params: Any) -> None:  # not async
        got.append((method, params))
        if method == "table.status" and params[1]["state"] == "finished":
            done.set()

    async with served.net.connect(name="w", on_notification=plain) as w:
        info = await w.call_named(
            "table.create", {"fill": ["lim17"], "rounds": 2, "seed": 2, "autostart": False}
        )
        await w.call("table.watch", info["table"])
        await w.call("table.start", info["table"])
        with trio.fail_after(10):
            await done.wait()
    assert [m for m, _ in got].count("table.event") > 4
