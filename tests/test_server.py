"""The server over an in-memory network on virtual time: handshake, discovery, streams,
solvers, callbacks."""

from __future__ import annotations

import pytest
import trio

from croupier.engine import CroupierError, Stream
from croupier.protocol import Code, ConnectionClosed, RpcError
from tests import memnet
from tests.protocol_helpers import make_manager, make_server


@pytest.fixture
async def served(nursery):
    server, ask = make_server()
    await memnet.serve(nursery, server)
    server.ask = ask
    yield server
    server.stop()


async def test_a_raw_msgpack_socket_speaks_to_the_server(served, virtual_clock):
    raw = served.net.raw()
    hello = await raw.hello()
    assert hello[:3] == [1, 0, None]
    assert hello[3]["protocol"] == 1 and hello[3]["server"].startswith("croupier ")
    assert await raw.call(1, "ping") == [1, 1, None, "pong"]
    opened = await raw.call(2, "randomizer.open", "tetromino", 42)
    assert opened[3] == {
        "stream": 1,
        "seed": 42,
        "spec": "tetromino",
        "symbols": list("IJLOSTZ"),
    }
    drawn = await raw.call(3, "randomizer.draw", 1, 10)
    assert drawn[3] == make_manager().randomizer("tetromino", Stream(42)).deal(10)
    await raw.aclose()


async def test_hello_is_required_first_and_checks_version_name_and_role(served, virtual_clock):
    raw = served.net.raw()
    reply = await raw.call(1, "ping")
    assert reply[2]["code"] == Code.HELLO_REQUIRED and reply[3] is None
    reply = await raw.call(2, "hello", 2, "bot", "bot")
    assert reply[2]["code"] == Code.UNSUPPORTED_VERSION
    assert "this server speaks 1" in reply[2]["message"]
    assert reply[2]["data"] == {"supported": [1]}
    reply = await raw.call(3, "hello", 1, "bot", "dealer")
    assert reply[2]["name"] == "bad-input" and "roles: bot, client, watcher" in reply[2]["message"]
    reply = await raw.call(4, "hello", 1, "", "bot")
    assert reply[2]["name"] == "bad-input"
    assert (await raw.call(5, "hello", 1, "bot", "bot"))[2] is None
    reply = await raw.call(6, "hello", 1, "bot", "bot")
    assert reply[2]["code"] == Code.INVALID_REQUEST and "already" in reply[2]["message"]
    await raw.aclose()


@pytest.mark.parametrize(
    ("request_", "code", "fragment"),
    [
        ([0, 1, "nope", []], Code.METHOD_NOT_FOUND, "unknown method 'nope'"),
        ([0, 1, "ping", [1]], Code.INVALID_PARAMS, "ping takes 0 parameters"),
        ([0, 1, "randomizer.open", []], Code.INVALID_PARAMS, "takes 1 to 2 parameters"),
        ([0, 1, "randomizer.open", [5]], Code.INVALID_PARAMS, "'spec' must be string, not integer"),
        ([0, 1, "randomizer.open", ["x", "1"]], Code.INVALID_PARAMS, "integer or nil, not string"),
        ([0, 1, "randomizer.draw", [1, True]], Code.INVALID_PARAMS, "'n' must be integer"),
        ([0, 1, "randomizer.open", {"spek": "x"}], Code.INVALID_PARAMS, "unknown parameter"),
        ([0, 1, "randomizer.open", {"seed": 1}], Code.INVALID_PARAMS, "missing parameter 'spec'"),
        ([0, 1, 17, []], Code.INVALID_REQUEST, "method must be a string"),
        ([0, 1, "ping", "x"], Code.INVALID_REQUEST, "params must be an array"),
        ([0, 1, "test.bug", []], Code.INTERNAL_ERROR, "internal error in 'test.bug'"),
        ([0, 1, "test.junk", []], Code.INTERNAL_ERROR, "cannot be encoded"),
        ([0, 1, "solve", ["nope", {}]], Code.UNKNOWN_NAME, "unknown solver 'nope'"),
    ],
)
async def test_bad_requests_get_error_responses_and_the_connection_lives(
    served, virtual_clock, request_, code, fragment
):
    raw = served.net.raw()
    await raw.hello()
    await raw.send(request_)
    reply = await raw.receive()
    assert reply[:2] == [1, 1] and reply[3] is None
    assert reply[2]["code"] == code and fragment in reply[2]["message"]
    assert await raw.call(2, "ping") == [1, 2, None, "pong"]
    await raw.aclose()


async def test_params_by_name_are_accepted(served, virtual_clock):
    async with served.net.connect(name="t") as client:
        opened = await client.call_named("randomizer.open", {"spec": "pick a,b", "seed": 3})
        assert opened["symbols"] == ["a", "b"] and opened["seed"] == 3


async def test_discovery(served, virtual_clock):
    async with served.net.connect(name="t") as client:
        plugins = await client.call("plugins")
        assert {p["name"] for p in plugins["plugins"]} >= {"rule-sets", "test"}
        rule_sets = await client.call("rule_sets")
        assert "vegas-s17" in [r["name"] for r in rule_sets]
        assert rule_sets[0]["rules"]["decks"] == 6
        randomizers = await client.call("randomizers")
        assert "tetromino" in [r["name"] for r in randomizers["randomizers"]]
        # third-party languages are tried first, the built-in fallback last
        assert randomizers["languages"][0] == {
            "name": "pick",
            "summary": "pick A,B,C: uniform picks",
            "plugin": "test",
        }
        solvers = await client.call("solvers")
        assert next(s for s in solvers if s["name"] == "add") == {
            "name": "add",
            "summary": "adds a and b",
            "plugin": "test",
            "problem": "{a: int, b: int}",
        }
        games = {g["name"]: g for g in await client.call("games")}
        baccarat = games["baccarat"]
        assert baccarat["plugin"] == "baccarat" and baccarat["defaults"]["decks"] == 8
        bet = next(a for a in baccarat["actions"] if a["kind"] == "bet")
        assert [f["name"] for f in bet["fields"]] == ["player", "banker", "tie"]
        assert "coup" in baccarat["events"] and "banker" in baccarat["strategies"]
        blackjack = games["blackjack"]  # a game like any other, with its wire format
        assert blackjack["plugin"] == "blackjack" and "koth" in blackjack["rule_sets"]
        assert blackjack["auto_phases"] == ["bet", "insurance", "surrender"]
        methods = {m["name"]: m for m in await client.call("methods")}
        assert methods["randomizer.draw"]["params"][1]["name"] == "n"
        assert {"hello", "ping", "solve", "randomizer.open"} <= set(methods)


async def test_streams_match_the_engine_and_seeds_are_reported(served, virtual_clock):
    manager = make_manager()
    async with served.net.connect(name="t") as client:
        first = await client.call("randomizer.open", "pick A,B,C,D")
        drawn = await client.call("randomizer.draw", first["stream"], 7)
        drawn += await client.call("randomizer.draw", first["stream"], 13)
        assert drawn == manager.randomizer("pick A,B,C,D", Stream(first["seed"])).deal(20)
        second = await client.call("randomizer.open", "pick A,B,C,D")
        assert second["stream"] != first["stream"] and second["seed"] != first["seed"]
        await client.call("randomizer.close", first["stream"])
        with pytest.raises(RpcError, match="no open stream") as info:
            await client.call("randomizer.draw", first["stream"], 1)
        assert info.value.code == Code.UNKNOWN_NAME
    # the seeds a server draws derive from its own seed: same seed, same seeds
    again, _ = make_server(seed=served.seed)
    assert [again.derive_seed("randomizer") for _ in range(2)] == [first["seed"], second["seed"]]
    other, _ = make_server(seed=served.seed + 1)
    assert other.derive_seed("randomizer") != first["seed"]


async def test_stream_errors_are_structured(served, virtual_clock):
    async with served.net.connect(name="t") as client:
        with pytest.raises(RpcError) as info:
            await client.call("randomizer.open", "pick a,,b", 1)
        assert info.value.code == Code.BAD_INPUT
        assert info.value.data == {"text": "pick a,,b", "position": 7}
        with pytest.raises(RpcError, match="from 0 to 2\\*\\*64-1") as info:
            await client.call("randomizer.open", "tetromino", -1)
        opened = await client.call("randomizer.open", "tetromino", 1)
        with pytest.raises(RpcError, match="n must be from 0 to 100000") as info:
            await client.call("randomizer.draw", opened["stream"], 100_001)
        assert info.value.code == Code.LIMIT_EXCEEDED
        for _ in range(63):
            await client.call("randomizer.open", "tetromino", 1)
        with pytest.raises(RpcError, match="at most 64 open streams") as info:
            await client.call("randomizer.open", "tetromino", 1)


async def test_the_solver_route_calls_any_solver_by_name(served, virtual_clock):
    async with served.net.connect(name="t") as client:
        assert await client.call("solve", "add", {"a": 2, "b": 40}) == {"sum": 42}
        with pytest.raises(RpcError, match="needs integers") as info:
            await client.call("solve", "add", {"a": "2"})
        assert info.value.code == Code.BAD_INPUT
        with pytest.raises(RpcError, match="solver 'broken' failed: ZeroDivisionError") as info:
            await client.call("solve", "broken", {})
        assert info.value.code == Code.INTERNAL_ERROR
        assert await client.call("ping") == "pong"


async def test_a_slow_solver_is_cut_off(nursery):
    """On the real clock (the solve sleeps in a real worker process): it cannot end in less
    than its 0.5 s, so the 0.1 s limit stops it however slow the machine is."""
    server, _ = make_server(solver_timeout=0.1)
    net = await memnet.serve(nursery, server)
    async with net.connect(name="t") as client:
        with pytest.raises(RpcError, match=r"ran for 0\.1 s and was stopped") as info:
            await client.call("solve", "slow", {"seconds": 0.5})
        assert info.value.code == Code.LIMIT_EXCEEDED
        assert await client.call("ping") == "pong"
    server.stop()


async def test_the_server_calls_the_client_and_gets_its_answer(served, virtual_clock):
    seen = []

    async def decide(observation):
        seen.append(observation)
        return "stand"

    async with served.net.connect(name="bot", role="bot", handlers={"decide": decide}) as client:
        assert await client.call("test.ask") == {"action": "stand"}
    assert seen == [{"hand": ["A", "7"], "legal": ["hit", "stand"]}]


async def test_a_client_that_never_answers_times_out_and_the_server_goes_on(served, virtual_clock):
    raw = served.net.raw()
    await raw.hello()
    await raw.send([0, 1, "test.ask", [0.2]])
    request = await raw.receive()  # the server's decide request, which we ignore
    assert request[0] == 0 and request[2] == "decide"
    reply = await raw.receive()
    assert reply == [1, 1, None, {"default": "stand", "because": "timeout"}]
    # a late answer is ignored and the connection still works
    await raw.send([1, request[1], None, "hit"])
    assert await raw.call(2, "ping") == [1, 2, None, "pong"]
    await raw.aclose()


async def test_a_client_that_disconnects_mid_call(served, virtual_clock):
    """A table calls a bot from its own task (not a request handler), as tables will."""
    raw = served.net.raw()
    await raw.hello()
    (conn,) = served.connections.values()
    assert conn.client == "raw" and conn.role == "client"

    async def bot_leaves():
        assert (await raw.receive())[2] == "decide"
        await raw.aclose()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot_leaves)
        with pytest.raises(ConnectionClosed), trio.fail_after(5):
            await conn.call("decide", [{}], timeout=5)
    with trio.fail_after(2):
        while served.connections:
            await trio.sleep(0.01)
    async with served.net.connect(name="next") as client:
        assert await client.call("ping") == "pong"


async def test_a_client_answering_decide_with_an_error(served, virtual_clock):
    async def decide(observation):
        raise RpcError(Code.BAD_INPUT, "cannot decide")

    async with served.net.connect(name="b", handlers={"decide": decide}) as client:
        assert await client.call("test.ask") == {"default": "stand", "because": "bad-input"}


async def test_a_client_handler_is_checked_against_its_own_signature_every_time(
    served, virtual_clock
):
    async def two(observation, extra):
        return "hit"

    async def one(observation):
        return "stand"

    async with served.net.connect(name="b", handlers={"decide": two}) as client:
        for _ in range(2):  # the second call checks against the signature kept from the first
            answer = await client.call("test.ask")
            assert answer == {"default": "stand", "because": "invalid-params"}
        client.handlers["decide"] = one  # a replaced handler is checked as itself
        assert await client.call("test.ask") == {"action": "stand"}


async def test_200_concurrent_connections(served, virtual_clock):
    results = []

    async def one(i):
        async with served.net.connect(name=f"c{i}") as client:
            await trio.sleep(0.01)
            opened = await client.call("randomizer.open", "tetromino", i)
            results.append((i, await client.call("randomizer.draw", opened["stream"], 3)))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for i in range(200):
                nursery.start_soon(one, i)
    manager = make_manager()
    assert len(results) == 200
    for i, drawn in results[::20]:
        assert drawn == manager.randomizer("tetromino", Stream(i)).deal(3)


def test_a_restarted_server_never_hands_out_an_earlier_runs_ids():
    """`croupier serve` numbered tables from 1 on every start, so an old id named a new
    stranger's table; ids now start from the start time in milliseconds."""
    from croupier.protocol.running import ID_EPOCH, time_based_first_id

    first = time_based_first_id(ID_EPOCH + 86_400)
    assert first == 86_400_000
    # a run that made 5,000 tables in its 10 s ends below the next run's first id
    assert first + 5_000 < time_based_first_id(ID_EPOCH + 86_410)
    assert time_based_first_id() > time_based_first_id(ID_EPOCH)  # today is after 2026-01-01
    assert time_based_first_id() < 2**53  # exact in every client's numbers (JavaScript too)


async def test_a_server_reachable_from_other_machines_warns_loudly(nursery, caplog):
    from croupier.protocol.transport.addresses import exposed

    assert exposed([("127.0.0.1", 1), ("::1", 2), ("0.0.0.0", 3), ("192.0.2.7", 4)]) == [
        ("0.0.0.0", 3),
        ("192.0.2.7", 4),
    ]
    server, _ = make_server()
    with caplog.at_level("WARNING", logger="croupier"):
        await nursery.start(server.serve, "0.0.0.0", 0)
    (warning,) = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert "reachable from other machines" in warning and "no authentication" in warning
    server.stop()


def test_a_plugins_own_failure_is_an_internal_error_not_bad_input():
    from croupier.engine import PluginError
    from croupier.protocol.errors import to_rpc_error

    error = to_rpc_error(PluginError("plugin 'x': language 'y' raised ZeroDivisionError"))
    assert error.code == Code.INTERNAL_ERROR and "plugin 'x'" in error.message
    assert to_rpc_error(CroupierError("bad spec")).code == Code.BAD_INPUT
