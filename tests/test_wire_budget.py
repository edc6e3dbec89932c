"""What a message may cost: element counts per message, unfinished bytes server-wide, and
buffers released when a connection ends."""

from __future__ import annotations

import msgpack
import pytest
import trio

from croupier.protocol import Code
from croupier.protocol.errors import ProtocolViolation
from croupier.protocol.transport.codec import BufferBudget, Decoder
from tests import memnet
from tests.protocol_helpers import make_server


async def start(nursery, **limits):
    server, _ = make_server(**limits)
    await memnet.serve(nursery, server)
    return server


def empty_arrays(count: int, per_array: int = 10_000) -> bytes:
    """A request whose params are ``count`` empty arrays in arrays of ``per_array``."""
    groups = [[[]] * per_array for _ in range(count // per_array)]
    return msgpack.packb([0, 1, "ping", groups])


def test_a_megabyte_of_empty_arrays_is_refused_cheaply():
    data = empty_arrays(1_000_000)
    assert len(data) < 1 << 20
    decoder = Decoder(max_elements=100_000)
    with pytest.raises(ProtocolViolation, match="arrays, maps and items") as caught:
        list(decoder.feed(data))
    assert caught.value.code == Code.MESSAGE_TOO_LARGE
    # decoding stopped at the limit: about a tenth of the million arrays were ever built
    assert 100_000 < decoder._elements <= 100_000 + 10_001


def test_one_long_array_is_refused_by_its_header():
    decoder = Decoder(max_elements=1000)
    with pytest.raises(ProtocolViolation, match="arrays, maps and items"):
        list(decoder.feed(msgpack.packb([0, 1, "ping", [0] * 1001])))


def test_the_count_is_per_message():
    decoder = Decoder(max_elements=1000)
    one = msgpack.packb([0, 1, "ping", [[0] * 300 for _ in range(2)]])
    assert len(list(decoder.feed(one * 20))) == 20


def test_the_biggest_holder_is_refused_over_the_budget():
    budget = BufferBudget(10_000)
    small, big, late = (Decoder(budget=budget) for _ in range(3))
    evicted = []
    small.on_evict = lambda: evicted.append("small")
    big.on_evict = lambda: evicted.append("big")
    unfinished = msgpack.packb([0, 1, "ping", ["x" * 20_000]])
    list(small.feed(unfinished[:4_000]))
    list(big.feed(unfinished[:5_000]))
    assert budget.total == 9_000
    list(late.feed(unfinished[:2_000]))  # over: the biggest (another) is evicted
    assert evicted == ["big"] and budget.total == 6_000
    with pytest.raises(ProtocolViolation, match="input buffers are full"):
        list(small.feed(unfinished[4_000:9_000]))  # over, and it holds the most itself
    assert evicted == ["big"] and budget.total == 2_000
    late.release()
    assert budget.total == 0


async def test_a_connection_holding_too_much_is_closed_others_go_on(nursery, virtual_clock):
    server = await start(nursery, max_buffered=10_000)
    unfinished = msgpack.packb([0, 1, "ping", ["x" * 20_000]])
    hog = server.net.raw()
    await hog.hello()
    await hog.send_bytes(unfinished[:7_000])
    polite = server.net.raw()
    await polite.hello()
    await polite.send_bytes(unfinished[:5_000])  # over the budget: the hog goes
    notice = await hog.receive()
    assert notice[2][0]["code"] == Code.LIMIT_EXCEEDED and "buffers" in notice[2][0]["message"]
    assert await hog.receive() is None
    await polite.send_bytes(unfinished[5_000:])
    assert (await polite.receive())[:2] == [1, 1]  # its message went through, whole


async def test_buffers_are_released_when_a_connection_ends(nursery, virtual_clock):
    server = await start(nursery)
    raw = server.net.raw()
    await raw.hello()
    await raw.send_bytes(msgpack.packb([0, 1, "ping", ["x" * 500_000]])[:400_000])
    with trio.fail_after(2):
        while server.buffers.total < 400_000:
            await trio.sleep(0.01)
    await raw.aclose()
    with trio.fail_after(2):
        while server.connections:
            await trio.sleep(0.01)
    assert server.buffers.total == 0


async def test_a_message_too_costly_closes_the_connection_with_a_reason(nursery, virtual_clock):
    server = await start(nursery, max_elements=1000)
    raw = server.net.raw()
    await raw.hello()
    await raw.send([0, 1, "ping", [[] for _ in range(2000)]])
    notice = await raw.receive()
    assert notice[2][0]["code"] == Code.MESSAGE_TOO_LARGE
    assert await raw.receive() is None


def test_the_budget_hears_when_a_held_message_is_finished():
    """The decoder skips telling the budget it holds nothing when it held nothing before;
    once it held a part, finishing the message must still be reported."""
    budget = BufferBudget(10_000)
    decoder = Decoder(budget=budget)
    message = msgpack.packb([0, 1, "ping", ["x" * 3_000]])
    assert not list(decoder.feed(message[:1_000]))
    assert budget.total == 1_000
    ping = msgpack.packb([0, 2, "ping", []])
    assert len(list(decoder.feed(message[1_000:] + ping))) == 2
    assert budget.total == 0
    assert len(list(decoder.feed(ping))) == 1 and budget.total == 0
