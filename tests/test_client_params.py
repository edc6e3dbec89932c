"""A client's handlers of the server's calls get their parameters checked against their
signature: by position within the handler's range at no cost of binding, anything else
bound, and a call that does not fit answered ``invalid-params``."""

from __future__ import annotations

import pytest

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.client import Client
from croupier.protocol.transport.codec import Request


async def _answer(client: Client, method: str, params: object) -> object:
    return await client._answer(None, Request(1, method, params))  # type: ignore[arg-type]


async def test_positional_calls_in_range_are_answered_and_others_refused():
    async def decide(table, observation, extra=None):
        return [table, observation, extra]

    async def anything(*args, **kwargs):
        return [list(args), kwargs]

    client = Client(None, {"decide": decide, "anything": anything})  # type: ignore[arg-type]
    assert await _answer(client, "decide", [1, {}]) == [1, {}, None]
    assert await _answer(client, "decide", [1, {}, 3]) == [1, {}, 3]
    assert await _answer(client, "decide", {"table": 1, "observation": 2}) == [1, 2, None]
    for wrong in ([1], [1, 2, 3, 4], {"table": 1}, {"table": 1, "observation": 2, "x": 3}):
        with pytest.raises(RpcError) as caught:
            await _answer(client, "decide", wrong)
        assert caught.value.code == Code.INVALID_PARAMS and "decide" in caught.value.message
    assert await _answer(client, "anything", [1, 2, 3]) == [[1, 2, 3], {}]
    assert await _answer(client, "anything", {"a": 1}) == [[], {"a": 1}]
