"""Keys and tokens that no server ever made (non-ASCII, control characters, empty, huge)
are refused as such (``not-allowed``, ``bad-token``), never an internal error: issue 34,
item 12 (``hmac.compare_digest`` raised TypeError on non-ASCII text)."""

from __future__ import annotations

import hashlib

import pytest

from croupier.engine import PluginManager
from croupier.protocol import Code, RpcError, Server
from croupier.protocol.keys import new_secret, same_digest, same_secret
from tests import memnet

ODD = ("\u202e", "é", "😀...", "", "a" * 100_000, "key\x00", "\udcff")


def test_a_secret_matches_itself_and_nothing_odd():
    secret = new_secret()
    digest = hashlib.sha256(secret.encode()).hexdigest()
    assert same_secret(secret, secret) and same_digest(secret, digest)
    for odd in ODD:
        assert not same_secret(odd, secret)
        assert not same_digest(odd, digest)


async def _stand(table: int, observation: object) -> str:
    return "stand"


async def test_odd_keys_and_tokens_are_refused_not_internal_errors(nursery, virtual_clock):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=5)
    net = await memnet.serve(nursery, server)
    odd = [o for o in ODD if o != "\udcff"]  # msgpack carries UTF-8 only
    async with (
        net.connect(name="owner", role="bot", handlers={"decide": _stand}) as owner,
        net.connect(name="other", role="bot", handlers={"decide": _stand}) as other,
    ):
        table = await owner.call_named("table.create", {"seats": 2, "autostart": False})
        await owner.call("table.join", table["table"], 1)  # a seat with a token to compare
        tour = await owner.call_named(
            "tournament.start", {"bots": ["tcp", "tcp"], "join_time": 60.0}
        )
        await owner.call("tournament.join", tour["tournament"], [], tour["join_key"])
        refusals: list[tuple[str, int]] = []
        for text in odd:
            calls = [
                ("table.start", [table["table"], text], Code.NOT_ALLOWED),
                ("table.stop", [table["table"], text], Code.NOT_ALLOWED),
                ("tournament.stop", [tour["tournament"], text], Code.NOT_ALLOWED),
                ("tournament.join", [tour["tournament"], [], text], Code.NOT_ALLOWED),
                ("table.leave", [text], Code.BAD_TOKEN),
                ("table.rejoin", [text, True, []], Code.BAD_TOKEN),
                ("tournament.rejoin", [text, []], Code.BAD_TOKEN),
            ]
            for method, params, expected in calls:
                with pytest.raises(RpcError) as refused:
                    await other.call(method, *params)
                refusals.append((method, refused.value.code))
                assert refused.value.code == expected, (method, text, refused.value)
        assert len(refusals) == 7 * len(odd)
        assert await other.call("ping") is not None  # the server lives on
    server.stop()
