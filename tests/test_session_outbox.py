"""Quick answers wait in the outbox only up to about one message's size: a chunk of many
requests with large answers (``randomizer.draw`` of 100,000 symbols is quick) must not pile
every answer up in memory while the client is not reading (one connection grew the server by
hundreds of MB in 30 s that way)."""

from __future__ import annotations

from typing import Any

import msgpack
import trio
import trio.testing

from croupier.protocol.transport.codec import Request
from croupier.protocol.transport.session import Session, SessionLimits

ANSWER = "x" * 100_000
REQUESTS = 200  # 20 MB of answers


async def test_quick_answers_wait_for_a_reader_beyond_one_message_size(nursery):
    left, right = trio.testing.lockstep_stream_pair()  # a write waits for the reader
    answered = 0

    async def answer(session: Session, request: Request) -> Any:
        nonlocal answered
        answered += 1
        return ANSWER

    limits = SessionLimits()
    session = Session(right, on_request=answer, is_quick=lambda request: True, limits=limits)
    nursery.start_soon(session.run)
    chunk = b"".join(msgpack.packb([0, i, "draw", []]) for i in range(REQUESTS))
    nursery.start_soon(left.send_all, chunk)
    await trio.testing.wait_all_tasks_blocked()
    assert answered <= limits.max_message_size // len(ANSWER) + 2  # nothing read yet

    unpacker, got = msgpack.Unpacker(raw=False), []
    while len(got) < REQUESTS:
        unpacker.feed(await left.receive_some(1 << 20))
        got.extend(unpacker)
    assert [m[1] for m in got] == list(range(REQUESTS)) and got[-1][3] == ANSWER
    await session.close()
