"""A connection's reused packer encodes every message as a fresh ``packb`` would, also after a
message it could not encode (the packer is left empty, not holding half a message)."""

from __future__ import annotations

import msgpack
import pytest

from croupier.protocol.transport.codec import Notification, Response, encode, new_packer


def test_reused_packer_matches_packb_and_recovers_from_a_failed_message() -> None:
    packer = new_packer()
    messages = [
        Response(1, None, {"pong": True, "data": b"\x00\x01"}),
        Notification("table.event", [{"hand": 3, "cards": ["AS", "KD"]}]),
        Response(2, None, "x" * 70_000),
    ]
    for message in messages:
        assert encode(message, packer) == msgpack.packb(message.to_wire(), use_bin_type=True)
    with pytest.raises(TypeError):
        encode(Response(3, None, [1, 2, object()]), packer)
    after = Response(4, None, [1, 2, 3])
    assert encode(after, packer) == encode(after)
    assert msgpack.unpackb(encode(after, packer)) == [1, 4, None, [1, 2, 3]]
