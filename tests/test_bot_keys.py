"""Bot identities end to end over TCP: keys registered by the operator (over the protocol
and offline), a keyed bot playing under its registered name, wrong, revoked and duplicate
keys, the per-address limit on wrong keys, keys on an open server, keys kept hashed."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from croupier.clients.bot import Bot, play
from croupier.clients.bot.tournament import join_tournament
from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server, connect
from croupier.protocol.botkeys import FAILURE_BURST, FAILURE_EVERY, REFUSED, KeyFailures
from croupier.protocol.journal import Journal


class Stand(Bot):
    name = "whatever-it-says"

    def decide(self, observation: Any) -> str:
        return "stand"


@pytest.fixture
async def keyed(nursery, tmp_path):
    journal = Journal(str(tmp_path / "j.db"))
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=3,
        journal=journal,
        auth="keys",
    )
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    yield server
    server.stop()
    await journal.aclose()


async def register(server: Server, name: str, author: str | None = None) -> str:
    async with connect("127.0.0.1", server.port, name="operator") as c:
        added = await c.call_named(
            "keys.add", {"name": name, "author": author, "operator_key": server.operator_key}
        )
    assert added["name"] == name and added["revoked"] is None
    return str(added["key"])


async def refused(server: Server, key: str | None, role: str = "bot") -> RpcError:
    with pytest.raises(RpcError) as caught:
        async with connect("127.0.0.1", server.port, name="x", role=role, key=key):
            pass
    return caught.value


async def test_a_keyed_bot_plays_under_its_registered_name(keyed, tmp_path):
    key = await register(keyed, "alice", "Ann")
    bot = Stand()
    bot.key = key
    final = await play(bot, "127.0.0.1", keyed.port, create={"rounds": 2, "seed": 1})
    assert final["played"] == 2
    assert [seat["player"] for seat in final["seats"]] == ["alice"]
    async with connect("127.0.0.1", keyed.port, name="me", role="bot", key=key) as c:
        assert c.server_info["name"] == "alice" and c.server_info["auth"] == "keys"
    # the journal keeps the key's digest, never the key
    await keyed.journal.durable()
    text = (tmp_path / "j.db").read_bytes() + (tmp_path / "j.db-wal").read_bytes()
    assert key.encode() not in text
    rows = sqlite3.connect(tmp_path / "j.db").execute("SELECT name, author FROM bot_keys")
    assert rows.fetchall() == [("alice", "Ann")]


async def test_wrong_revoked_missing_and_duplicate_keys(keyed):
    key = await register(keyed, "bob")
    wrong = await refused(keyed, "not-a-key-of-ours")
    assert wrong.code == Code.BAD_TOKEN and wrong.message == REFUSED
    missing = await refused(keyed, None)
    assert missing.code == Code.NOT_ALLOWED and "present the bot's key" in missing.message
    async with connect("127.0.0.1", keyed.port, name="w", role="watcher"):
        pass  # watchers and clients need no key
    async with connect("127.0.0.1", keyed.port, name="b", role="bot", key=key):
        twice = await refused(keyed, key)  # the same bot connected twice
        assert twice.code == Code.NOT_ALLOWED and "already connected" in twice.message
    async with connect("127.0.0.1", keyed.port, name="operator") as c:
        revoked = await c.call_named(
            "keys.revoke", {"name": "bob", "operator_key": keyed.operator_key}
        )
        assert revoked["revoked"] is not None
        listed = await c.call_named("keys.list", {"operator_key": keyed.operator_key})
        assert [(e["name"], e["revoked"] is not None) for e in listed] == [("bob", True)]
        assert all("key" not in e and "key_sha256" not in e for e in listed)
        with pytest.raises(RpcError) as again:
            await c.call_named("keys.add", {"name": "bob", "operator_key": keyed.operator_key})
        assert again.value.code == Code.BAD_INPUT and "already registered" in again.value.message
        with pytest.raises(RpcError) as no_operator:
            await c.call_named("keys.add", {"name": "eve"})
        assert no_operator.value.code == Code.NOT_ALLOWED
    gone = await refused(keyed, key)
    assert gone.code == Code.BAD_TOKEN and gone.message == REFUSED  # as a wrong key


async def test_wrong_keys_are_rate_limited_per_address(keyed):
    key = await register(keyed, "carol")
    for _ in range(FAILURE_BURST):
        assert (await refused(keyed, "guess")).code == Code.BAD_TOKEN
    limited = await refused(keyed, key)  # even the right key waits now
    assert limited.code == Code.TOO_MANY_REQUESTS and "try again in" in limited.message
    assert (await refused(keyed, None)).code == Code.NOT_ALLOWED  # no key: no guess


def test_the_limit_refills_one_key_per_interval():
    failures = KeyFailures()
    for _ in range(FAILURE_BURST):
        assert failures.wait("10.0.0.1", 100.0) == 0
        failures.failed("10.0.0.1", 100.0)
    assert failures.wait("10.0.0.1", 100.0) == pytest.approx(FAILURE_EVERY)
    assert failures.wait("10.0.0.2", 100.0) == 0  # another address is not held up
    assert failures.wait("10.0.0.1", 100.0 + FAILURE_EVERY / 2) == pytest.approx(FAILURE_EVERY / 2)
    assert failures.wait("10.0.0.1", 100.0 + FAILURE_EVERY) == 0
    failures.failed("10.0.0.1", 100.0 + FAILURE_EVERY)  # one try, then the wait again
    assert failures.wait("10.0.0.1", 100.0 + FAILURE_EVERY) == pytest.approx(FAILURE_EVERY)


async def test_keys_survive_a_restart(tmp_path, nursery):
    path = str(tmp_path / "j.db")
    journal = Journal(path)
    first = Server(PluginManager(autoload=False), seed=1, journal=journal, auth="keys")
    entry, key = first.bot_keys.add("dave")
    journal.bot_key_added(entry)
    await journal.durable()
    await journal.aclose()
    again = Journal(path)
    try:
        second = Server(PluginManager(autoload=False), seed=1, journal=again, auth="keys")
        assert second.bot_keys.who(key) == "dave" and second.bot_keys.who(key + "x") is None
    finally:
        await again.aclose()


async def test_an_open_server_refuses_a_key(nursery):
    server = Server(PluginManager(autoload=False), seed=1)
    (_, server.port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    try:
        error = await refused(server, "some-key")
        assert error.code == Code.BAD_INPUT and "--auth open" in error.message
        async with connect("127.0.0.1", server.port, name="free", role="bot") as c:
            assert c.server_info["name"] == "free" and c.server_info["auth"] == "open"
    finally:
        server.stop()


async def test_a_keyed_bot_takes_a_tournament_seat_under_its_name(keyed):
    key = await register(keyed, "erin")
    infos: list[dict] = []

    async def status(method: str, params: Any) -> None:
        if method == "tournament.status":
            infos.append(params[1])

    async with connect("127.0.0.1", keyed.port, name="t", on_notification=status) as c:
        started = {"bots": ["tcp", "lim17"], "tourneys": 1, "rounds": 2, "hands": 2}
        info = await c.call_named("tournament.start", {**started, "open": True})
        bot = Stand()
        bot.key = key
        final = await join_tournament(bot, "127.0.0.1", keyed.port, tournament=info["tournament"])
    names = {s["name"] for s in final["result"]["standings"]}
    assert names == {"erin", "lim17"}
